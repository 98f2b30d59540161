@faults @simulator
Feature: Fault injection for client resilience
  A client sets fault rules for its own organisation's requests (POST /v1/simulator/faults): a
  latency, an answer of 429/5xx with Retry-After, or a dropped connection, for a route and method,
  a number of times or at random. Injected answers carry x-scheme-sim-fault. Never on by default.

  Background:
    Given I am authenticated as "northwind"

  Scenario: A client sees a 503 with Retry-After, then succeeds
    When I send a POST request to "/v1/simulator/faults" with body:
      """
      {"data": {"attributes": {"route": "/v1/organisation/accounts", "method": "GET", "count": 1, "status": 503, "retry_after": 1}}}
      """
    Then the response status is 201
    And the response field "data.attributes.remaining" equals "1"
    And I remember the response field "data.id" as "fault_id"
    When I send a GET request to "/v1/organisation/accounts"
    Then the response status is 503
    And the response header "retry-after" is "1"
    And the response header "x-scheme-sim-fault" is "{{fault_id}}"
    When I send a GET request to "/v1/organisation/accounts"
    Then the response status is 200
    When I send a DELETE request to "/v1/simulator/faults/{{fault_id}}"
    Then the response status is 204

  Scenario: A rule that would do nothing is refused, naming the field
    When I send a POST request to "/v1/simulator/faults" with body:
      """
      {"data": {"attributes": {"route": "/v1/organisation/accounts"}}}
      """
    Then the response status is 400
    And the error message contains "latency_ms in body is required"
