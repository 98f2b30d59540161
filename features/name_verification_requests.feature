@cop @simulator @two-organisations
Feature: Asking for a name verification: Form3's name verification request API
  A payer's bank asks Form3 whether a name matches a payee's account
  (POST /v1/organisation/nameverifications, go-form3's name_verification_api). The simulator routes
  the request to the participant serving the payee's sort code, whose Open Banking endpoint answers
  it with the one matcher; the answer is the request's submission, and the payee's bank gets the
  request with its admission (docs/cop.md, Asking). Northwind (400300) asks; Harbour (309634)
  holds the payee's account. Tagged @simulator: the routing is the simulator's participants.
  The scheme clock starts frozen at Monday 2026-12-21 09:00 London.

  Background:
    Given I am authenticated as "harbour"
    And a new account number remembered as "payee_number"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "attributes": {
        "country": "GB", "bank_id": "{{sort_code}}", "bic": "{{bic}}",
        "account_number": "{{payee_number}}", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 201
    And I remember "{{sort_code}}" as "payee_sort_code"
    And I remember "{{organisation_id}}" as "payee_org"
    Given I am authenticated as "northwind"

  Scenario: A close match: the answer is on the request, with the name the payee's bank holds
    Given a new id remembered as "nv"
    When I send a POST request to "/v1/organisation/nameverifications" with body:
      """
      {"data": {"id": "{{nv}}", "organisation_id": "{{organisation_id}}", "attributes": {
        "account_classification": "personal", "account_number": "{{payee_number}}",
        "account_number_code": "BBAN", "bank_id": "{{payee_sort_code}}", "bank_id_code": "GBDSC",
        "name": ["Grace", "Hoper"]}}}
      """
    Then the response status is 201
    And the response matches the "name-verification-single" schema
    And the response field "data.version" equals "0"
    When I send a GET request to "/v1/organisation/nameverifications/{{nv}}"
    Then the response status is 200
    And the response matches the "name-verification-single" schema
    And the response field "data.version" equals "1"
    And the response field "data.relationships.name_verification_submission.data.0.attributes.status" equals "delivery_confirmed"
    And the response field "data.relationships.name_verification_submission.data.0.attributes.answer" equals "rejected"
    And the response field "data.relationships.name_verification_submission.data.0.attributes.reason_code" equals "MBAM"
    And the response field "data.relationships.name_verification_submission.data.0.attributes.actual_name" equals "Grace Hopper"
    When I send a GET request to "/v1/organisation/nameverifications?filter[account_number]={{payee_number}}&filter[submission.reason_code]=MBAM"
    Then the response status is 200
    And the response matches the "name-verification-list" schema
    And the response field "data" has 1 item
    And the response field "data.0.id" equals "{{nv}}"

  Scenario: The payee's bank reads its admission of the request, and is notified of it
    Given I am authenticated as "harbour"
    And I subscribe to "created" events of "name_verification_admissions"
    And I am authenticated as "northwind"
    When I send a POST request to "/v1/organisation/nameverifications" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "attributes": {
        "account_number": "{{payee_number}}", "account_number_code": "BBAN",
        "bank_id": "{{payee_sort_code}}", "bank_id_code": "GBDSC", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 201
    Given I am authenticated as "harbour"
    Then a "created" notification for "name_verification_admissions" arrives
    And the notification matches the "notification" schema
    And the notification field "data.data.attributes.answer" equals "confirmed"
    When I send a GET request to "/v1/organisation/nameverifications?filter[account_number]={{payee_number}}&filter[admission.status]=confirmed"
    Then the response field "data" has 1 item
    And I remember the response field "data.0.id" as "inbound"
    And I remember the response field "data.0.relationships.name_verification_admission.data.0.id" as "admission"
    When I send a GET request to "/v1/organisation/nameverifications/{{inbound}}/admissions/{{admission}}"
    Then the response status is 200
    And the response matches the "name-verification-admission-single" schema
    And the response field "data.attributes.status" equals "confirmed"
    And the response field "data.attributes.answer" equals "confirmed"
    And the response field "data.attributes.debtor_party.account_with.bank_name" equals "Northwind Bank plc"
    And the response field "data.attributes.actual_name" is absent
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/organisation/nameverifications/{{inbound}}/admissions/{{admission}}"
    Then the response status is 404

  Scenario: A sort code no participant serves is answered SCNS
    Given a new id remembered as "nv"
    When I send a POST request to "/v1/organisation/nameverifications" with body:
      """
      {"data": {"id": "{{nv}}", "organisation_id": "{{organisation_id}}", "attributes": {
        "account_number": "12345678", "account_number_code": "BBAN", "bank_id": "400999",
        "bank_id_code": "GBDSC", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 201
    When I send a GET request to "/v1/organisation/nameverifications/{{nv}}"
    Then the response field "data.relationships.name_verification_submission.data.0.attributes.answer" equals "rejected"
    And the response field "data.relationships.name_verification_submission.data.0.attributes.reason_code" equals "SCNS"

  Scenario: A slow responder: the answer arrives later on the scheme clock
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "name_verification.responder_slow",
        "parameters": {"open_banking_id": "0015800000jf9GgAAI", "seconds": 30}}}}
      """
    Then the response status is 201
    And the response field "data.attributes.status" equals "pending"
    Given a new id remembered as "nv"
    When I send a POST request to "/v1/organisation/nameverifications" with body:
      """
      {"data": {"id": "{{nv}}", "organisation_id": "{{organisation_id}}", "attributes": {
        "account_number": "{{payee_number}}", "account_number_code": "BBAN",
        "bank_id": "{{payee_sort_code}}", "bank_id_code": "GBDSC", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 201
    When I send a GET request to "/v1/organisation/nameverifications/{{nv}}"
    Then the response field "data.relationships" is absent
    When the scheme clock moves to "2026-12-21T09:00:30Z"
    And I send a GET request to "/v1/organisation/nameverifications/{{nv}}"
    Then the response field "data.relationships.name_verification_submission.data.0.attributes.answer" equals "confirmed"
    And the response field "data.relationships.name_verification_submission.data.0.created_on" equals "2026-12-21T09:00:30.000Z"

  Scenario: A failed responder: the submission fails, naming the scenario
    When I send a POST request to "/v1/simulator/scenarios" with body:
      """
      {"data": {"type": "scenarios", "attributes": {"name": "name_verification.responder_failed",
        "parameters": {"open_banking_id": "0015800000jf9GgAAI", "reason": "timed out after 5 s"}}}}
      """
    Then the response status is 201
    And I remember the response field "data.id" as "scenario"
    Given a new id remembered as "nv"
    When I send a POST request to "/v1/organisation/nameverifications" with body:
      """
      {"data": {"id": "{{nv}}", "organisation_id": "{{organisation_id}}", "attributes": {
        "account_number": "{{payee_number}}", "account_number_code": "BBAN",
        "bank_id": "{{payee_sort_code}}", "bank_id_code": "GBDSC", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 201
    When I send a GET request to "/v1/organisation/nameverifications/{{nv}}"
    Then the response field "data.relationships.name_verification_submission.data.0.attributes.status" equals "delivery_failed"
    And the response field "data.relationships.name_verification_submission.data.0.attributes.status_reason" contains "timed out after 5 s"
    And the response field "data.relationships.name_verification_submission.data.0.attributes.answer" is absent
    And the response field "data.relationships.name_verification_submission.data.0.relationships.scenarios.data.0.id" equals "{{scenario}}"

  Scenario: A request Form3's model refuses is a 400 naming the field
    When I send a POST request to "/v1/organisation/nameverifications" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "attributes": {
        "account_number": "{{payee_number}}", "account_number_code": "BBAN",
        "bank_id": "{{payee_sort_code}}", "bank_id_code": "GBDSC"}}}
      """
    Then the response status is 400
    And the error message contains "name in body is required"
