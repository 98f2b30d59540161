@simulator @two-organisations @tenancy
Feature: Simulator controls on a double shared by a team
  Several organisations share one simulator (and, with the PostgreSQL store, one database). A reset
  without a body resets the caller's own organisation and leaves everyone else's data in place. The
  scheme clock is shared: moving it, or resetting every organisation, is an administrator's act
  (`"role": "admin"` in the clients file; the fixtures make northwind-dev the admin). Clock answers
  count only the caller's own jobs.

  Background:
    Given I am authenticated as "northwind"
    And the simulator is reset

  Scenario: An organisation's reset leaves another organisation's records in place
    Given an account exists remembered as "northwind_acc"
    And I am authenticated as "harbour"
    And an account exists remembered as "harbour_acc"
    When I send a POST request to "/v1/simulator/reset"
    Then the response status is 200
    And the response matches the "clock" schema
    And the response field "meta.reset.scope" equals "organisation"
    And the response field "meta.reset.organisation_id" equals "{{organisation_id}}"
    When I send a GET request to "/v1/organisation/accounts/{{harbour_acc}}"
    Then the response status is 404
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/organisation/accounts/{{northwind_acc}}"
    Then the response status is 200

  Scenario: A reset of everything needs the admin role
    Given I am authenticated as "harbour"
    When I send a POST request to "/v1/simulator/reset" with body:
      """
      {"scope": "all"}
      """
    Then the response status is 403
    And the error message contains "needs a client with role admin; client"
    And the error message contains "{{harbour_client_id}}"
    And the error message contains "has role member"

  Scenario: Moving the shared clock needs the admin role; reading it does not
    Given I am authenticated as "harbour"
    When I send a POST request to "/v1/simulator/clock/advance" with body:
      """
      {"working_days": 1}
      """
    Then the response status is 403
    And the error message contains "advancing the scheme clock needs a client with role admin"
    When I send a POST request to "/v1/simulator/clock/freeze"
    Then the response status is 403
    When I send a GET request to "/v1/simulator/clock"
    Then the response status is 200
    And the response field "data.now" equals "2026-12-21T09:00:00.000Z"

  Scenario: Clock answers count only the caller's own jobs
    Given I am authenticated as "harbour"
    When I send a GET request to "/v1/simulator/clock"
    Then I remember the response field "data.pending_jobs" as "harbour_jobs"
    Given I am authenticated as "northwind"
    And a submitted claim "claim" disputing "25.00"
    And I am authenticated as "harbour"
    When I send a GET request to "/v1/simulator/clock"
    Then the response field "data.pending_jobs" equals "{{harbour_jobs}}"
