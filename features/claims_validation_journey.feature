@claims @journey
Feature: A claim that breaks a scheme rule, refused at validation on the next run
  Form3 accepts these claims at the API (its model allows them); the scheme's rules refuse them when
  the submission is validated, which happens after the request, so on staging the outcome is read
  on the next harness run, through the journey ledger (CONFORMANCE_LEDGER). The status must be
  validation_failed, with a status_reason; the reason's words are checked only against a simulator.

  Scenario Outline: A claim with <case> fails validation
    Given I am authenticated as "northwind"
    And the journey "claim refused at validation: <case>"
    When on journey day 0 a claim "refused" with attributes <attributes> is created and submitted
    Then on journey day 1 the submission of claim "refused" has failed validation naming "<rule>"
    And the journey is complete

    Examples:
      | case                      | attributes                                   | rule                                                    |
      | a reference without DDIC  | {"reference": "CLAIM0001"}                   | reference must be DDIC followed by 2 to 14 letters      |
      | reason code 9             | {"reason_code": "9"}                         | reason_code must be a DDIC reason 1 to 8                |
      | a claim count that is off | {"number_of_claims": 2}                      | number_of_claims is 2, disputed_transactions has 1 item |
