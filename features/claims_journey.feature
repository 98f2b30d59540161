@claims @journey
Feature: A claim's journey across scheme days, one harness run a day
  Against staging the scheme clock cannot be moved: a claim submitted today settles 14 Bacs working
  days later. A @journey scenario keeps its state in a ledger file (CONFORMANCE_LEDGER, default
  reports/journeys.json) that CI keeps between runs; each run does the stages that are due and skips
  the rest. Nothing here moves the clock or uses the simulator's own controls, so it runs on staging
  as it is. docs/conformance.md says how to keep the ledger in CI.

  Scenario: A claim from submission to its settlement contra
    Given I am authenticated as "northwind"
    And the journey "claim to contra"
    When on journey day 0 a claim "claim" is created and submitted
    Then on journey day 1 the submission of claim "claim" has its sequence number
    And on journey day 2 the submission of claim "claim" has been delivered
    And on journey day 14 claim "claim" is settled by a contra payment with its admission
    And the journey is complete
