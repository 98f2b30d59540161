@scenarios @simulator
Feature: Scenarios: the unhappy paths, on the scheme clock
  A paying bank's integration must handle a claim that fails validation, a delivery that fails, a
  contra that comes late or never, a report admission that failed and a notification sent twice.
  Each is reachable by a magic claim amount, by POST /v1/simulator/scenarios (scheme-sim trigger),
  and is listed in the catalogue at GET /v1/simulator/scenarios. A played scenario emits the
  events the real flow would and is named in the changed resource's relationships.scenarios.
  The scheme clock starts frozen at Monday 2026-12-21 09:00 London.

  Background:
    Given I am authenticated as "northwind"

  Scenario: The catalogue names every scenario and its magic amount
    When I send a GET request to "/v1/simulator/scenarios"
    Then the response status is 200
    And the response matches the "scenario-catalogue" schema
    And the response field "data" has 9 items
    And the response field "data.0.id" equals "claim_submission.validation_failed"
    And the response field "data.0.attributes.magic_amount" equals "900.01"

  Scenario: A claim of 900.01 fails validation, and the played scenario says why
    Given a submitted claim "magic" with attributes {"disputed_transactions": [{"amount": "900.01", "date": "2026-10-01"}]}
    When the scheme clock advances 1 hour
    Then the submission of claim "magic" failed with "validation_failed" naming "the scheme refused the claim at validation"
    When I send a GET request to "/v1/transaction/claims/{{magic}}/submissions/{{magic_submission}}"
    Then I remember the response field "data.relationships.scenarios.data.0.id" as "scenario_id"
    When I send a GET request to "/v1/simulator/scenarios/{{scenario_id}}"
    Then the response status is 200
    And the response matches the "scenario-single" schema
    And the response field "data.attributes.source" equals "magic_value"
    And the response field "data.attributes.status" equals "applied"

  Scenario: A delivery failed by the API: processed, then delivery_failed, never settled
    Given a submitted claim "undelivered" disputing "25.00"
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "claim_submission.delivery_failed",
        "target_id": "{{undelivered_submission}}", "parameters": {"reason": "service user not found"}}}}
      """
    Then the response status is 201
    And the response field "data.attributes.status" equals "pending"
    When the scheme clock advances 1 working day
    Then the submission of claim "undelivered" has status "queued_for_delivery"
    When the scheme clock advances 1 working day
    Then the submission of claim "undelivered" failed with "delivery_failed" naming "service user not found"
    When the scheme clock advances 12 working days
    Then claim "undelivered" has no contra

  Scenario: A contra one working day late (magic amount 900.03)
    Given a submitted claim "late" with attributes {"disputed_transactions": [{"amount": "900.03", "date": "2026-10-01"}]}
    When the scheme clock advances 14 working days
    Then claim "late" has no contra
    When I send a GET request to "/v1/transaction/claims/{{late}}/submissions/{{late_submission}}"
    Then the response field "data.attributes.settlement_date" equals "2027-01-14"
    When the scheme clock advances 1 working day
    Then claim "late" was settled by a contra of "900.03"

  Scenario: A contra withheld by the API never comes; a late scenario is refused once settled
    Given a submitted claim "withheld" disputing "12.00"
    And a submitted claim "settled" disputing "13.00"
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "claim.contra_withheld", "target_id": "{{withheld_submission}}"}}}
      """
    Then the response status is 201
    When the scheme clock advances 20 working days
    Then claim "withheld" has no contra
    And claim "settled" was settled by a contra of "13.00"
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "claim.contra_delayed", "target_id": "{{settled_submission}}"}}}
      """
    Then the response status is 400
    And the error message contains "is already settled"

  @notifications
  Scenario: A report arrives and its admission fails, announced by an updated notification
    Given I subscribe to "updated" events of "report_admissions"
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "report.emitted", "parameters": {"report_type": "BACS_ARUDD"}}}}
      """
    Then the response status is 201
    When I send a GET request to "/v1/notification/reports?filter[report_type]=BACS_ARUDD"
    Then I remember the response field "data.0.id" as "report_id"
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "report_admission.failed", "target_id": "{{report_id}}",
        "parameters": {"scheme_status_code": "F042", "reason": "file rejected by the scheme"}}}}
      """
    Then the response status is 201
    And the response field "data.attributes.status" equals "applied"
    And a "updated" notification for "report_admissions" arrives
    And the notification field "data.data.attributes.status" equals "failed"
    And the notification field "data.data.attributes.scheme_status_code" equals "F042"

  @notifications
  Scenario: A notification delivered twice carries the same id
    Given I subscribe to "created" events of "accounts"
    And an account exists remembered as "account_id"
    Then a "created" notification for "accounts" arrives
    And I remember "{{notification.id}}" as "first_notification"
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "notification.duplicate", "target_id": "{{account_id}}"}}}
      """
    Then the response status is 201
    And a "created" notification for "accounts" arrives
    And the notification field "id" equals "{{first_notification}}"
