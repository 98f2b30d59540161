@accounts
Feature: Opening accounts by Form3's rules
  With authentication on, accounts open as Form3's account-creation rules say: the sort code and
  BIC must be registered to the organisation (fixtures/organisations.json), a GB account needs
  both, and Form3 generates the account number and IBAN when they are omitted. Form3's fake
  account API (--auth off) applies none of these rules.

  Background:
    Given I am authenticated as "northwind"

  Scenario: An omitted account number is generated, and the IBAN calculated with valid check digits
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}",
          "name": ["Grace Hopper"]}}}
      """
    Then the response status is 201
    And the response field "data.attributes.account_number" is a GB account number
    And the response field "data.attributes.iban" is the GB IBAN of account number "data.attributes.account_number"

  Scenario: A GB account without a BIC is refused
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 400

  @simulator
  Scenario: The simulator names the rule a GB account breaks
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 400
    And the error message contains "bank_id in body is required for country GB"
    And the error message contains "bic in body is required for country GB"

  @simulator
  Scenario: A sort code registered to another organisation is refused, naming the registered ones
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "309634", "bic": "{{bic}}", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 400
    And the error message contains "bank_id in body 309634 is not registered to organisation {{organisation_id}} (registered: 400300, 400301, 400302)"

  @simulator @inprocess
  Scenario: Under --auth off, as the fake account API, none of these rules apply
    Given the simulator runs with authentication off
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{new_uuid}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "12345", "account_number": "123456789", "name": ["Grace Hopper"]}}}
      """
    Then the response status is 201
    And the response field "data.attributes.iban" is absent
