@claims
Feature: Claims on any target
  What a paying bank does on the day it raises a DDIC, on any target, staging included: create the
  claim, submit it, read both back and find the claim by filters, and the refusals Form3's model and
  API document. Nothing here moves the clock; the days after (sequence number, delivery, validation's
  outcome, the contra) are the journeys of claims_journey.feature. Statuses are checked only against
  Form3's ClaimSubmissionStatus enum.

  A claim created here cannot move money outside the test environment: the beneficiary (the paying
  bank claiming the refund) is the harness's own organisation (CONFORMANCE_SORT_CODE), so the only
  payment a claim can lead to is the settlement contra credited to that organisation; the debtor
  (the originator's bank) is sort code 203040 with a made-up account, the originator's service user
  number (clearing_id) 123456 is not an issued one, each disputed amount is at most 25.00, and the
  reference is DDIC followed by random letters (docs/conformance.md, Claims on any target).

  Background:
    Given I am authenticated as "northwind"
    And a new id remembered as "claim_id"
    And a new id remembered as "submission_id"
    And a new account number remembered as "reference"

  @smoke
  Scenario: Create, submit, fetch and find a claim
    When I send a POST request to "/v1/transaction/claims" with body:
      """
      {"data": {"id": "{{claim_id}}", "organisation_id": "{{organisation_id}}", "type": "claims",
        "attributes": {"payment_scheme": "BACS", "clearing_id": "123456", "reference": "DDIC{{reference}}",
          "reason_code": "2", "number_of_claims": 1,
          "beneficiary_party": {"account_number": "41426819", "bank_id": "{{sort_code}}"},
          "debtor_party": {"account_name": "Acme Utilities", "account_number": "87654321", "bank_id": "203040"},
          "original_instruction": {"clearing_id": "654321", "reference": "ACME-000123"},
          "disputed_transactions": [{"amount": "25.00", "date": "2026-10-01"}]}}}
      """
    Then the response status is 201
    And the response matches the "claim-single" schema
    And the response field "data.attributes.reference" equals "DDIC{{reference}}"
    And the response field "data.attributes.payment_scheme" equals "BACS"
    When I send a GET request to "/v1/transaction/claims/{{claim_id}}"
    Then the response status is 200
    And the response matches the "claim-single" schema
    When I send a POST request to "/v1/transaction/claims/{{claim_id}}/submissions" with body:
      """
      {"data": {"id": "{{submission_id}}", "organisation_id": "{{organisation_id}}", "type": "claim_submissions"}}
      """
    Then the response status is 201
    And the response matches the "claim-submission-single" schema
    And the response field "data.attributes.status" is one of "accepted, validation_pending, validation_passed, validation_failed, released_to_gateway, queued_for_delivery, delivery_confirmed, delivery_failed"
    When I send a GET request to "/v1/transaction/claims/{{claim_id}}/submissions/{{submission_id}}"
    Then the response status is 200
    And the response matches the "claim-submission-single" schema
    When I send a GET request to "/v1/transaction/claims?filter[reference]=DDIC{{reference}}"
    Then the response status is 200
    And the response matches the "claim-list" schema
    And the response field "data" has 1 item
    And the response field "data.0.id" equals "{{claim_id}}"
    When I send a GET request to "/v1/transaction/claims?filter[reference]=DDIC{{reference}}&filter[reason_code]=3"
    Then the response status is 200
    And the response field "data" has 0 items

  Scenario: An unknown claim id is 404
    When I send a GET request to "/v1/transaction/claims/{{claim_id}}"
    Then the response status is 404
    And the error message contains "does not exist"

  Scenario Outline: A claim Form3's model refuses is a 400 naming the rule (<case>)
    When I send a POST request to "/v1/transaction/claims" with body:
      """
      {"data": {"id": "{{claim_id}}", "organisation_id": "{{organisation_id}}", "type": "claims",
        "attributes": {"payment_scheme": "BACS", "clearing_id": "<clearing_id>", "reference": "DDIC{{reference}}",
          "reason_code": "<reason>", "number_of_claims": 1,
          "beneficiary_party": {"account_number": "<account>", "bank_id": "{{sort_code}}"},
          "debtor_party": {"account_name": "Acme Utilities", "account_number": "87654321", "bank_id": "203040"},
          "original_instruction": {"clearing_id": "654321", "reference": "ACME-000123"},
          "disputed_transactions": [{"amount": "<amount>", "date": "<date>"}]}}}
      """
    Then the response status is 400
    And the response matches the "error" schema
    And the error message contains "<message>"
    When I send a GET request to "/v1/transaction/claims/{{claim_id}}"
    Then the response status is 404

    Examples:
      | case               | clearing_id | reason | account  | amount | date       | message                                                                  |
      | short clearing id  | 12345       | 1      | 41426819 | 1.00   | 2026-10-01 | clearing_id in body should match                                         |
      | reason 0           | 123456      | 0      | 41426819 | 1.00   | 2026-10-01 | reason_code in body should match '^[1-9]$'                               |
      | lower-case account | 123456      | 1      | ab123456 | 1.00   | 2026-10-01 | beneficiary_party.account_number in body should match                    |
      | negative amount    | 123456      | 1      | 41426819 | -1.00  | 2026-10-01 | disputed_transactions.0.amount in body should match                      |
      | zero amount        | 123456      | 1      | 41426819 | 0.00   | 2026-10-01 | disputed_transactions.0.amount in body should be a number greater than 0 |
      | invalid date       | 123456      | 1      | 41426819 | 1.00   | 2026-13-01 | disputed_transactions.0.date in body must be of type date                |

  Scenario Outline: A claim envelope Form3 refuses is a 400 naming the field (<case>)
    When I send a POST request to "/v1/transaction/claims" with body:
      """
      {"data": <data>}
      """
    Then the response status is 400
    And the response matches the "error" schema
    And the error message contains "<message>"

    Examples:
      | case             | data                                                                                      | message                              |
      | no attributes    | {"id": "{{claim_id}}", "organisation_id": "{{organisation_id}}", "type": "claims"}        | attributes in body is required  |
      | id not a UUID    | {"id": "claim-1", "organisation_id": "{{organisation_id}}", "type": "claims", "attributes": {}} | id in body must be of type uuid |
      | no organisation  | {"id": "{{claim_id}}", "type": "claims", "attributes": {}}                                | organisation_id in body is required |

  Scenario: A claim is submitted once: a second submission is refused
    Given a claim "once" disputing "1.00"
    When I submit the claim "once"
    Then the response status is 201
    When I submit the claim "once"
    Then the response status is 400
    And the response matches the "error" schema
    And the error message contains "has already been submitted"

  Scenario: A claim cannot be reversed before the scheme gives its submission a sequence number
    Given a submitted claim "early" disputing "5.00"
    When I reverse the claim "early" quoting "000000000001"
    Then the response status is 400
    And the response matches the "error" schema
    And the error message contains "cannot be reversed yet"

  Scenario: A claim that was never submitted cannot be reversed
    Given a claim "unsent" disputing "5.00"
    When I reverse the claim "unsent" quoting "000000000001"
    Then the response status is 400
    And the response matches the "error" schema

  Scenario: A reversal without the original instruction id is refused, naming the field
    Given a submitted claim "bare" disputing "5.00"
    When I send a POST request to "/v1/transaction/claims/{{bare}}/reversals" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "claim_reversals", "attributes": {}}}
      """
    Then the response status is 400
    And the response matches the "error" schema
    And the error message contains "original_instruction_id in body is required"

  Scenario: A submission without an id is refused, and the claim stays unsubmitted
    Given a claim "plain" disputing "2.00"
    When I send a POST request to "/v1/transaction/claims/{{plain}}/submissions" with body:
      """
      {"data": {"organisation_id": "{{organisation_id}}", "type": "claim_submissions"}}
      """
    Then the response status is 400
    And the response matches the "error" schema
    And the error message contains "id in body is required"
    When I submit the claim "plain"
    Then the response status is 201

  Scenario: Submitting a claim that does not exist is 404
    When I send a POST request to "/v1/transaction/claims/{{claim_id}}/submissions" with body:
      """
      {"data": {"id": "{{submission_id}}", "organisation_id": "{{organisation_id}}", "type": "claim_submissions"}}
      """
    Then the response status is 404
    And the response matches the "error" schema

  Scenario: A submission the claim does not have is 404
    Given a claim "lonely" disputing "3.00"
    When I send a GET request to "/v1/transaction/claims/{{lonely}}/submissions/{{submission_id}}"
    Then the response status is 404
    And the response matches the "error" schema
