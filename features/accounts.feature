@accounts
Feature: Accounts registry
  The accounts that name verification answers from, with the resource conventions every /v1
  resource follows: client-chosen ids, versions, paging, filters, tenants and error bodies.

  Background:
    Given I am authenticated as "northwind"
    And a new id remembered as "account_id"
    And a new account number remembered as "account_number"

  @smoke
  Scenario: Create, fetch, list and delete an account
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Samantha Holder"], "account_classification": "Business"}}}
      """
    Then the response status is 201
    And the response matches the "account-single" schema
    And the response field "data.version" equals "0"
    And the response field "data.attributes.account_classification" equals "Business"
    And the response field "links.self" equals "/v1/organisation/accounts/{{account_id}}"
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}"
    Then the response status is 200
    And the response matches the "account-single" schema
    When I send a GET request to "/v1/organisation/accounts?filter[account_number]={{account_number}}"
    Then the response status is 200
    And the response matches the "account-list" schema
    And the response field "data" has 1 item
    When I send a DELETE request to "/v1/organisation/accounts/{{account_id}}?version=0"
    Then the response status is 204
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}"
    Then the response status is 404
    And the error message contains "record {{account_id}} does not exist"

  Scenario: An optional attribute sent as an empty string is not given, as go-swagger reads it
    # Form3's model holds secondary_identification as a Go string; its Validate skips a zero value
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Samantha Holder"], "secondary_identification": ""}}}
      """
    Then the response status is 201
    And the response field "data.attributes.secondary_identification" is absent

  Scenario: Omitted attributes are not written in (their defaults apply in behaviour only)
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "FR", "name": ["Anne Martin"]}}}
      """
    Then the response status is 201
    And the response field "data.attributes.account_classification" is absent
    And the response field "data.attributes.joint_account" is absent
    And the response field "data.attributes.account_matching_opt_out" is absent
    And the response field "data.created_on" equals the response field "data.modified_on"

  Scenario: Every attribute of the API is stored and answered
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "base_currency": "GBP", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC",
          "account_number": "{{account_number}}", "bic": "{{bic}}", "iban": "{{account_number_iban}}",
          "customer_id": "cust-1", "name": ["Sam", "Holder"], "alternative_names": ["Sammy"],
          "account_classification": "Personal", "joint_account": true, "account_matching_opt_out": false,
          "secondary_identification": "ROLL-42", "switched": false, "name_matching_status": "supported"}}}
      """
    Then the response status is 201
    And the response matches the "account-single" schema
    And the response field "data.attributes.account_classification" equals "Personal"
    And the response field "data.attributes.alternative_names" equals "[\"Sammy\"]"
    And the response field "data.attributes.secondary_identification" equals "ROLL-42"
    And the response field "data.attributes.name_matching_status" equals "supported"

  Scenario: A record is fetched by its id in any case
    Given an account exists remembered as "acc"
    And I remember the upper-case form of "acc" as "ACC"
    When I send a GET request to "/v1/organisation/accounts/{{ACC}}"
    Then the response status is 200
    And the response field "data.id" equals "{{acc}}"

  Scenario: Patching bumps the version; a stale version is refused
    Given an account exists remembered as "acc"
    When I send a PATCH request to "/v1/organisation/accounts/{{acc}}" with body:
      """
      {"data": {"id": "{{acc}}", "organisation_id": "{{organisation_id}}", "type": "accounts", "version": 0,
        "attributes": {"switched": true, "account_classification": "Business", "alternative_names": ["S Holder"]}}}
      """
    Then the response status is 200
    And the response matches the "account-single" schema
    And the response field "data.version" equals "1"
    And the response field "data.attributes.switched" equals "true"
    And the response field "data.attributes.account_classification" equals "Business"
    And the response field "data.attributes.name" equals "[\"Samantha Holder\"]"
    When I send a PATCH request to "/v1/organisation/accounts/{{acc}}" with body:
      """
      {"data": {"id": "{{acc}}", "organisation_id": "{{organisation_id}}", "type": "accounts", "version": 0,
        "attributes": {"switched": false}}}
      """
    Then the response status is 409
    And the error message contains "invalid version"

  Scenario: Deleting needs the current version
    Given an account exists remembered as "acc"
    When I send a DELETE request to "/v1/organisation/accounts/{{acc}}?version=3"
    Then the response status is 409
    And the error message contains "invalid version"
    When I send a DELETE request to "/v1/organisation/accounts/{{acc}}?version=0"
    Then the response status is 204
    When I send a DELETE request to "/v1/organisation/accounts/{{acc}}?version=0"
    Then the response status is 404
    And the response body is empty

  Scenario: The same id twice is a conflict
    Given an account exists remembered as "acc"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{acc}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "FR", "name": ["Someone Else"]}}}
      """
    Then the response status is 409
    And the error message contains "Account cannot be created as it violates a duplicate constraint"

  Scenario: The same sort code and account number twice is a conflict
    Given an account exists remembered as "acc"
    When I create an account with attributes {"account_number": "{{acc_account_number}}"}
    Then the response status is 409
    And the error message contains "Account cannot be created as it violates a duplicate constraint"

  Scenario: Fetching an unknown id is 404
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}"
    Then the response status is 404
    And the error message contains "record {{account_id}} does not exist"

  Scenario: Lists are paged with relative links, and next is absent on the last page
    Given a new id remembered as "customer"
    And an account exists with attributes {"customer_id": "{{customer}}"} remembered as "a1"
    And an account exists with attributes {"customer_id": "{{customer}}"} remembered as "a2"
    And an account exists with attributes {"customer_id": "{{customer}}"} remembered as "a3"
    When I send a GET request to "/v1/organisation/accounts?filter[customer_id]={{customer}}&page[size]=2"
    Then the response status is 200
    And the response matches the "account-list" schema
    And the response field "data" has 2 items
    And the response field "data.0.id" equals "{{a1}}"
    And the response field "links.next" contains "page%5Bnumber%5D=1"
    And the response field "links.prev" is absent
    When I send a GET request to "/v1/organisation/accounts?filter[customer_id]={{customer}}&page[size]=2&page[number]=1"
    Then the response field "data" has 1 item
    And the response field "data.0.id" equals "{{a3}}"
    And the response field "links.next" is absent
    And the response field "links.prev" contains "page%5Bnumber%5D=0"
    When I send a GET request to "/v1/organisation/accounts?filter[customer_id]={{customer}}&page[size]=2&page[number]=last"
    Then the response field "data.0.id" equals "{{a3}}"
    When I send a GET request to "/v1/organisation/accounts?filter[customer_id]={{customer}}&page[size]=2&page[number]=first"
    Then the response field "data.0.id" equals "{{a1}}"

  Scenario Outline: Filter by <filter>
    Given a new id remembered as "customer"
    And an account exists with attributes {"customer_id": "{{customer}}", "account_number": "{{account_number}}", "iban": "{{account_number_iban}}"} remembered as "gb"
    And an account exists with attributes {"customer_id": "{{customer}}", "country": "FR", "bank_id": "$omit", "bic": "$omit", "bank_id_code": "FRBDF", "account_number": "{{account_number}}"} remembered as "fr"
    When I send a GET request to "/v1/organisation/accounts?filter[customer_id]={{customer}}&filter[<filter>]=<value>"
    Then the response status is 200
    And the response field "data" has <count> items

    Examples:
      | filter         | value                            | count |
      | country        | GB                               | 1     |
      | country        | FR                               | 1     |
      | country        | DE                               | 0     |
      | bank_id        | {{sort_code}}                    | 1     |
      | bank_id_code   | GBDSC                            | 1     |
      | account_number | {{account_number}}               | 2     |
      | iban           | {{account_number_iban}}          | 1     |

  Scenario: An unknown filter is refused, listing the supported ones
    When I send a GET request to "/v1/organisation/accounts?filter[colour]=red"
    Then the response status is 400
    And the error message contains "filter[colour] is not a supported filter; supported: filter[account_number]"

  Scenario Outline: A filter that names no attribute or is given twice is refused, not ignored: <query>
    When I send a GET request to "/v1/organisation/accounts?<query>"
    Then the response status is 400
    And the error message contains "<message>"

    Examples:
      | query                                   | message                                                                   |
      | filter[]=1                              | filter[] in query names no attribute; filters take the form filter[<attribute>] |
      | filter[country]=GB&filter[country]=FR   | filter[country] in query must be given once                               |

  Scenario: JSON:API media types are accepted and answered
    Given requests carry the header "accept" with "application/vnd.api+json"
    When I send a POST request to "/v1/organisation/accounts" with content type "application/vnd.api+json" and body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "FR", "name": ["Anne Martin"]}}}
      """
    Then the response status is 201
    And the response header "content-type" is "application/vnd.api+json"
    And the response matches the "account-single" schema
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}"
    Then the response header "content-type" is "application/vnd.api+json"

  Scenario: A wrong method is 405 with Allow, an unknown route 404
    When I send a PUT request to "/v1/organisation/accounts/{{account_id}}"
    Then the response status is 405
    And the response header "allow" is "GET, PATCH, DELETE"
    And the error message contains "method PUT is not allowed"
    When I send a GET request to "/v1/organisation/nothing-here"
    Then the response status is 404
    And the error message contains "route GET /v1/organisation/nothing-here not found"

  @two-organisations
  Scenario: Another organisation's records do not exist for a client
    Given an account exists remembered as "acc"
    And I am authenticated as "harbour"
    When I send a GET request to "/v1/organisation/accounts/{{acc}}"
    Then the response status is 404
    And the error message contains "record {{acc}} does not exist"
    When I send a PATCH request to "/v1/organisation/accounts/{{acc}}" with body:
      """
      {"data": {"id": "{{acc}}", "organisation_id": "{{organisation_id}}", "type": "accounts", "version": 0,
        "attributes": {"switched": true}}}
      """
    Then the response status is 404
    When I send a DELETE request to "/v1/organisation/accounts/{{acc}}?version=0"
    Then the response status is 404
    When I send a GET request to "/v1/organisation/accounts?filter[account_number]={{acc_account_number}}"
    Then the response status is 200
    And the response field "data" has 0 items
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/organisation/accounts/{{acc}}"
    Then the response status is 200
    And the response field "data.version" equals "0"

  @two-organisations
  Scenario: A client cannot create records for another organisation
    Given I remember "{{organisation_id}}" as "northwind_org"
    And I am authenticated as "harbour"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{northwind_org}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Intruder"]}}}
      """
    Then the response status is 403
    And the error message contains "is not the organisation of this client"
