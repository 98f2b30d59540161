@observability @simulator
Feature: Seeing what the simulator sees
  Every request and its answer is kept in a bounded journal a client reads for its own
  organisation (GET /v1/simulator/requests), the API is described by a generated OpenAPI 3.1
  document served without a token, and a browser app on localhost may call the double (CORS).

  Scenario: A refused request is in the journal with the error_code its answer carried
    Given I am authenticated as "northwind"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "not-a-uuid", "organisation_id": "{{organisation_id}}", "attributes": {"country": "GB"}}}
      """
    Then the response status is 400
    And I remember the response field "error_code" as "refusal"
    When I send a GET request to "/v1/simulator/requests?filter[error_code]={{refusal}}"
    Then the response status is 200
    And the response matches the "request-journal" schema
    And the response field "data" has 1 item
    And the response field "data.0.attributes.method" equals "POST"
    And the response field "data.0.attributes.status" equals "400"
    And the response field "data.0.attributes.headers.authorization" equals "Bearer ***"
    And the response field "data.0.attributes.body" contains "not-a-uuid"

  @two-organisations
  Scenario: Another organisation does not see my requests
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/transaction/claims?filter[colour]=red"
    Then the response status is 400
    Given I am authenticated as "harbour"
    When I send a GET request to "/v1/simulator/requests?filter[path]=/v1/transaction/claims"
    Then the response status is 200
    And the response field "data" has 0 items

  Scenario: The OpenAPI document is served without a token and names Form3's claim statuses
    Given I am not authenticated
    When I send a GET request to "/v1/openapi.json"
    Then the response status is 200
    And the response field "openapi" equals "3.1.0"
    And the response field "paths./v1/transaction/claims.post.summary" equals "Create a DDIC claim"
    And the response field "components.schemas.claim-submission-status.enum" has 8 items

  Scenario: A browser app on localhost gets its CORS preflight answered, without a token
    Given I am not authenticated
    When I send a OPTIONS request to "/v1/organisation/accounts" with headers:
      | origin                         | http://localhost:5173      |
      | access-control-request-method  | POST                       |
      | access-control-request-headers | authorization,content-type |
    Then the response status is 204
    And the response header "access-control-allow-origin" is "http://localhost:5173"

  Scenario Outline: An OPTIONS request that is no CORS preflight needs a token, then is routed like any other
    A preflight names both an Origin and the method it asks for; anything else is a request.
    Given I am not authenticated
    When I send a OPTIONS request to "<path>" with headers:
      | origin | http://localhost:5173 |
    Then the response status is 401
    Given I am authenticated as "northwind"
    When I send a OPTIONS request to "<path>"
    Then the response status is <routed>

    Examples:
      | path                | routed |
      | /v1/simulator/clock | 405    |
      | /v1/zzz             | 404    |
