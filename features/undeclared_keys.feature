@accounts
Feature: Body keys a resource's model does not declare
  Form3's API is a go-swagger server: it ignores body keys its models do not declare, and so does
  the simulator. Started with --strict, the simulator refuses them instead, naming the key (a
  typo caught early); Form3 never does.

  Background:
    Given I am authenticated as "northwind"

  Scenario Outline: An undeclared attribute on create is ignored and not stored: <case>
    Given a new account number remembered as "account_number"
    When I create an account with attributes <attributes>
    Then the response status is 201
    And the response field "data.attributes.<key>" is absent

    Examples:
      | case                 | attributes                                                           | key           |
      | an unknown attribute | {"colour": "red", "account_number": "{{account_number}}"}             | colour        |
      | a misspelt attribute | {"acount_number": "41426819", "account_number": "{{account_number}}"} | acount_number |

  Scenario: An undeclared attribute on PATCH is ignored and not stored
    Given an account exists remembered as "existing_id"
    When I send a PATCH request to "/v1/organisation/accounts/{{existing_id}}" with body:
      """
      {"data": {"version": 0, "attributes": {"nickname": "Sam"}}}
      """
    Then the response status is 200
    And the response field "data.attributes.nickname" is absent

  @simulator @inprocess
  Scenario Outline: With --strict, an undeclared attribute is refused: <case>
    Given the simulator runs with --strict
    When I create an account with attributes <attributes>
    Then the response status is 400
    And the error message contains "<message>"

    Examples:
      | case                 | attributes                    | message                              |
      | an unknown attribute | {"colour": "red"}             | colour in body is not allowed        |
      | a misspelt attribute | {"acount_number": "41426819"} | acount_number in body is not allowed |

  @simulator @inprocess
  Scenario: With --strict, an undeclared attribute on PATCH is refused and nothing changes
    Given the simulator runs with --strict
    And an account exists remembered as "existing_id"
    When I send a PATCH request to "/v1/organisation/accounts/{{existing_id}}" with body:
      """
      {"data": {"version": 0, "attributes": {"__proto__": {"admin": true}}}}
      """
    Then the response status is 400
    And the error message contains "__proto__ in body is not allowed"
    When I send a GET request to "/v1/organisation/accounts/{{existing_id}}"
    Then the response field "data.version" equals "0"
