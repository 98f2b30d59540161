@accounts @simulator @inprocess
Feature: --auth off answers as Form3's fake account API
  Clients written for Form3's public fake account API (form3tech-oss/interview-accountapi) work
  unchanged against `--auth off`: where that API answers otherwise than Form3, the simulator answers
  as it does (docs/api.md, "Auth on and auth off"). A body sent without Content-Type and the headers
  of empty answers are checked on the wire, in test/fake-account-api-wire.test.ts.

  Background:
    Given the simulator runs with authentication off

  Scenario: A create without type is refused in the fake API's nested words
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{new_uuid}}",
        "attributes": {"country": "GB", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 400
    # Nested once per model level, as go-swagger words it (byte for byte in the wire test)
    And the error message contains "validation failure list:"
    And the error message contains "type in body is required"

  Scenario Outline: The fake API's model has its own enums: <attribute> "<value>" is refused
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{new_uuid}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Grace Hopper"], "<attribute>": "<value>"}}}
      """
    Then the response status is 400
    And the error message contains "<attribute> in body should be one of [<allowed>]"

    Examples:
      | attribute              | value    | allowed                  |
      | account_classification | personal | Personal Business        |
      | account_classification |          | Personal Business        |
      | status                 | closed   | pending confirmed failed |

  Scenario: An empty string is not given where its Go model holds a string, and a missing id
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{new_uuid}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Grace Hopper"], "bank_id": "", "secondary_identification": ""}}}
      """
    Then the response status is 201
    And the response field "data.attributes.secondary_identification" is absent
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "", "organisation_id": "{{new_uuid}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 400
    And the error message contains "id in body is required"

  Scenario: Keys name the model's fields in any case, as Go's encoding/json matches them
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"Data": {"ID": "{{new_uuid}}", "Organisation_Id": "{{new_uuid}}", "Type": "accounts",
        "Attributes": {"Country": "GB", "NAME": ["Grace Hopper"], "Bank_ID": "400300"}}}
      """
    Then the response status is 201
    And the response field "data.attributes.bank_id" equals "400300"
    And the response field "data.attributes.name.0" equals "Grace Hopper"

  Scenario: Attributes the fake API's model lacks are stored, not answered
    Given a new id remembered as "account_id"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{new_uuid}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Grace Hopper"], "account_number": "41426819",
          "customer_id": "C-42", "validation_type": "card", "reference_mask": "####"}}}
      """
    Then the response status is 201
    And the response field "data.attributes.account_number" equals "41426819"
    And the response field "data.attributes.customer_id" is absent
    And the response field "data.attributes.validation_type" is absent
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}"
    Then the response field "data.attributes.reference_mask" is absent

  Scenario: Only the id is unique: a sort code and account number may be registered twice
    Given I remember "d1a8a2b4-5c3e-4f6a-9b7c-0e1f2a3b4c5d" as "organisation"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Grace Hopper"], "bank_id": "400300", "account_number": "41426819"}}}
      """
    Then the response status is 201
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Ada Lovelace"], "bank_id": "400300", "account_number": "41426819"}}}
      """
    Then the response status is 201

  Scenario: A route it does not serve is its PAGE_NOT_FOUND 404, without error_message
    When I send a GET request to "/v1/organisation/account/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc"
    Then the response status is 404
    And the response field "code" equals "PAGE_NOT_FOUND"
    And the response field "message" equals "Page not found"
    And the response field "error_message" is absent

  Scenario: An error body is error_message alone, as fake-API clients compare it
    When I send a GET request to "/v1/organisation/accounts/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc"
    Then the response status is 404
    And the response field "error_message" equals "record ad27e265-9605-4b4b-a0e5-3003ea9cc4dc does not exist"
    And the response field "error_code" is absent
