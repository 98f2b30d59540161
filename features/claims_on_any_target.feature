@claims
Feature: Claims on any target
  What a paying bank does on the day it raises a DDIC, on any target, staging included: create the
  claim, submit it, read both back and find the claim by filters. Nothing here moves the clock; the
  days after (sequence number, delivery, the contra) are the journey of claims_journey.feature.
  Statuses are checked only against Form3's ClaimSubmissionStatus enum.

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
