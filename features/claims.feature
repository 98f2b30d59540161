@claims @simulator
Feature: Direct Debit Indemnity Claims settled by a contra
  A paying bank raises a DDIC by creating a Claim and a Claim Submission. The scheme processes it
  on the next working day (the sequence number arrives in the DDIC claim submission report),
  delivers it to the originator the working day after, and 14 working days after submission
  settles it with one inbound contra Payment per organisation and day, unless it was reversed up
  to working day 11. The scheme clock starts frozen at Monday 2026-12-21 09:00 London.

  Background:
    Given I am authenticated as "northwind"

  @smoke
  Scenario: Create and submit a claim, follow it to the contra payment
    Given a new id remembered as "claim_id"
    And a new id remembered as "submission_id"
    When I send a POST request to "/v1/transaction/claims" with body:
      """
      {"data": {"id": "{{claim_id}}", "organisation_id": "{{organisation_id}}", "type": "claims", "version": 0,
        "attributes": {"payment_scheme": "Bacs", "clearing_id": "123456", "reference": "DDIC0042TUTOR",
          "reason_code": "2", "number_of_claims": 2,
          "beneficiary_party": {"account_number": "41426819", "bank_id": "400300"},
          "debtor_party": {"account_name": "Acme Utilities", "account_number": "87654321", "bank_id": "203040"},
          "original_instruction": {"clearing_id": "654321", "reference": "ACME-000123"},
          "disputed_transactions": [{"amount": "49.99", "date": "2026-10-02"}, {"amount": "0.02", "date": "2026-11-02"}]}}}
      """
    Then the response status is 201
    And the response matches the "claim-single" schema
    When I send a POST request to "/v1/transaction/claims/{{claim_id}}/submissions" with body:
      """
      {"data": {"id": "{{submission_id}}", "organisation_id": "{{organisation_id}}", "type": "claim_submissions", "version": 0}}
      """
    Then the response status is 201
    And the response matches the "claim-submission-single" schema
    And the response field "data.attributes.status" equals "validation_pending"
    And the response field "data.attributes.settlement_date" equals "2027-01-13"
    # Relationship items are the related resource, as Form3's models type them
    And the response field "data.relationships.claim.data.0.attributes.reference" equals "DDIC0042TUTOR"
    # Validation runs on the scheme clock, at acceptance
    When the scheme clock advances 1 hour
    And I send a GET request to "/v1/transaction/claims/{{claim_id}}/submissions/{{submission_id}}"
    Then the response field "data.attributes.status" equals "validation_passed"
    # D0+1: processed, the sequence number is on the submission (and in the submission report)
    When the scheme clock advances 1 working day
    And I send a GET request to "/v1/transaction/claims/{{claim_id}}/submissions/{{submission_id}}"
    Then the response field "data.attributes.status" equals "queued_for_delivery"
    And I remember the response field "data.attributes.sequence_number" as "sequence_number"
    # D0+2: delivered to the originator
    When the scheme clock advances 1 working day
    And I send a GET request to "/v1/transaction/claims/{{claim_id}}/submissions/{{submission_id}}"
    Then the response field "data.attributes.status" equals "delivery_confirmed"
    # D0+14 is Wednesday 2027-01-13 (25 and 28 December and 1 January are closed)
    # Settlement is no status of Form3's enum: the submission stays delivered, the claim names its contra
    When the scheme clock advances 12 working days
    And I send a GET request to "/v1/transaction/claims/{{claim_id}}/submissions/{{submission_id}}"
    Then the response field "data.attributes.status" equals "delivery_confirmed"
    When I send a GET request to "/v1/transaction/claims/{{claim_id}}"
    Then the response matches the "claim-single" schema
    And the response field "data.relationships.claim_submission.data.0.attributes.status" equals "delivery_confirmed"
    And I remember the response field "data.relationships.payment.data.0.id" as "payment_id"
    When I send a GET request to "/v1/transaction/payments/{{payment_id}}"
    Then the response status is 200
    And the response matches the "payment-single" schema
    And the response field "data.attributes.amount" equals "50.01"
    And the response field "data.attributes.scheme_payment_type" equals "Credit"
    And the response field "data.attributes.scheme_payment_sub_type" equals "DDICSettlement"
    And the response field "data.attributes.reference" equals "DDIC SETTLEMENT 20261221"
    And the response field "data.relationships.claims.data.0.id" equals "{{claim_id}}"
    And the response field "data.relationships.payment_admission.data.0.attributes.status" equals "confirmed"
    And I remember the response field "data.relationships.payment_admission.data.0.id" as "admission_id"
    When I send a GET request to "/v1/transaction/payments/{{payment_id}}/admissions/{{admission_id}}"
    Then the response status is 200
    And the response matches the "payment-admission-single" schema
    And the response field "data.relationships.payment.data.0.attributes.amount" equals "50.01"
    And the response field "data.attributes.status" equals "confirmed"
    And the response field "data.attributes.status_reason" equals "accepted"

  Scenario: Reverse a claim inside the window: it is never settled
    Given a submitted claim "claim" disputing "25.00"
    When the scheme clock advances 1 working day
    Then the submission of claim "claim" has status "queued_for_delivery"
    And I remember the sequence number of claim "claim" as "claim_sequence_number"
    When the scheme clock advances 1 working day
    And I reverse the claim "claim" quoting "{{claim_sequence_number}}"
    Then the response status is 201
    And the response matches the "claim-reversal-submission-single" schema
    And the response field "data.attributes.status" equals "accepted"
    When the scheme clock advances 1 working day
    Then the reversal submission of claim "claim" has status "delivery_confirmed"
    When the scheme clock advances 11 working days
    Then the submission of claim "claim" has status "delivery_confirmed"
    And there is no contra payment

  Scenario: Claims of one day are settled by one cumulative contra, without the reversed one
    Given a submitted claim "gas" disputing "10.10, 0.90"
    And a submitted claim "water" disputing "20.00"
    And a submitted claim "phone" disputing "7.77"
    When the scheme clock advances 1 working day
    Then the submission of claim "phone" has status "queued_for_delivery"
    And I remember the sequence number of claim "phone" as "phone_sequence_number"
    When I reverse the claim "phone" quoting "{{phone_sequence_number}}"
    Then the response status is 201
    When the scheme clock advances 13 working days
    Then claim "gas" was settled by a contra of "31.00"
    And claim "water" was settled by a contra of "31.00"
    And the response field "data.relationships.claims.data" has 2 items

  Scenario: Reversals are refused before processing and after working day 11
    Given a submitted claim "late" disputing "5.00"
    When I reverse the claim "late" quoting "000000000001"
    Then the response status is 400
    And the error message contains "cannot be reversed yet"
    When the scheme clock advances 1 working day
    Then the submission of claim "late" has status "queued_for_delivery"
    And I remember the sequence number of claim "late" as "late_sequence_number"
    When I reverse the claim "late" quoting "999"
    Then the response status is 400
    And the error message contains "original_instruction_id in body should equal the sequence number"
    When the scheme clock advances 11 working days
    And I reverse the claim "late" quoting "{{late_sequence_number}}"
    Then the response status is 400
    And the error message contains "the reversal window closed at the end of 2027-01-08 (working day D0+11"

  Scenario: The reversal window is the whole London date of working day D0+11
    Given a submitted claim "in_time" disputing "5.00"
    And a submitted claim "too_late" disputing "6.00"
    When the scheme clock advances 1 working day
    Then the submission of claim "in_time" has status "queued_for_delivery"
    And I remember the sequence number of claim "in_time" as "in_time_sequence_number"
    And the submission of claim "too_late" has status "queued_for_delivery"
    And I remember the sequence number of claim "too_late" as "too_late_sequence_number"
    When the scheme clock moves to "2027-01-08T23:59:59.999Z"
    And I reverse the claim "in_time" quoting "{{in_time_sequence_number}}"
    Then the response status is 201
    When the scheme clock moves to "2027-01-09T00:00:00Z"
    And I reverse the claim "too_late" quoting "{{too_late_sequence_number}}"
    Then the response status is 400
    And the error message contains "can no longer be reversed: the reversal window closed at the end of 2027-01-08 (working day D0+11"

  # A second submission and the refusals of Form3's model run on any target: claims_on_any_target.feature.

  Scenario Outline: The scheme's rules fail the submission at validation, naming the rule (<case>)
    Form3 accepts these claims; the scheme refuses them when the submission is validated.
    Given a submitted claim "checked" with attributes <attributes>
    Then the submission of claim "checked" has status "validation_pending"
    When the scheme clock advances 1 hour
    Then the submission of claim "checked" failed with "validation_failed" naming "<rule>"
    When the scheme clock advances 14 working days
    Then the submission of claim "checked" has status "validation_failed"
    And claim "checked" has no contra

    Examples:
      | case            | attributes                                                                  | rule                                                   |
      | no DDIC prefix  | {"reference": "CLAIM0001"}                                                  | reference must be DDIC followed by 2 to 14 letters     |
      | reason 9        | {"reason_code": "9"}                                                        | reason_code must be a DDIC reason 1 to 8               |
      | reason 3        | {"reason_code": "3"}                                                        | processing_date is required when reason_code is 3      |
      | three places    | {"disputed_transactions": [{"amount": "1.001", "date": "2026-10-01"}]}      | at most 2 decimal places                               |
      | count mismatch  | {"number_of_claims": 2}                                                     | number_of_claims is 2, disputed_transactions has 1 item |
      | future date     | {"disputed_transactions": [{"amount": "1.00", "date": "2026-12-22"}]}      | must not be after the scheme date 2026-12-21           |
      | IBAN account    | {"debtor_party": {"account_name": "A", "account_number": "GB29NWBK60161331926819", "bank_id": "203040"}} | Bacs account number of 8 digits |

  @notifications
  Scenario: The submission report and the payment admission arrive as notifications
    Given I subscribe to "created" events of "report_admissions"
    And I subscribe to "created" events of "payment_admissions"
    And a submitted claim "notified" disputing "12.50"
    When the scheme clock advances 1 working day
    Then a "created" notification for "report_admissions" arrives
    And the submission of claim "notified" has status "queued_for_delivery"
    When the scheme clock advances 13 working days
    Then a "created" notification for "payment_admissions" arrives
    And claim "notified" was settled by a contra of "12.50"
