Feature: Accounts registry
  The accounts that name verification answers from, with the resource conventions every /v1
  resource follows.

  Background:
    Given I am authenticated as "northwind"
    And a new id remembered as "account_id"

  Scenario: Create, fetch, list and delete an account
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "400300", "bank_id_code": "GBDSC", "account_number": "41426819",
          "name": ["Samantha Holder"], "account_classification": "business"}}}
      """
    Then the response status is 201
    And the response matches the "account-single" schema
    And the response field "data.version" equals "0"
    And the response field "data.attributes.account_classification" equals "Business"
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}"
    Then the response status is 200
    And the response matches the "account-single" schema
    When I send a GET request to "/v1/organisation/accounts?filter[account_number]=41426819"
    Then the response status is 200
    And the response matches the "account-list" schema
    And the response field "data" has 1 item
    When I send a DELETE request to "/v1/organisation/accounts/{{account_id}}?version=0"
    Then the response status is 204
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}"
    Then the response status is 404
    And the error message contains "record {{account_id}} does not exist"
