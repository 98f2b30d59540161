@simulator @sandboxes
Feature: Sandboxes: worlds of their own on one shared double
  A sandbox is a whole simulated world on a running server: its own scheme clock, records, clients
  and settings (docs/sandboxes.md). A token of a sandbox's client reaches that sandbox and nothing
  else, so parallel test runs against one double never meet. The server's own world is the default
  sandbox.

  Background:
    Given I am authenticated as "northwind"

  Scenario: A sandbox has its own clock and records; the default sandbox sees neither
    Given a sandbox "a" made with body:
      """
      {"data": {"type": "sandboxes", "attributes": {"clock": {"mode": "frozen", "start": "2027-03-01T09:00:00Z"}, "seed": "none"}}}
      """
    Then the response matches the "sandbox-single" schema
    And the response field "data.attributes.clock.now" equals "2027-03-01T09:00:00.000Z"
    And the response field "data.attributes.clients.0.role" equals "admin"
    And the response field "data.attributes.seed" equals "none"
    Given I act in sandbox "a"
    And an account exists remembered as "sandbox_account"
    When I send a POST request to "/v1/simulator/clock/advance" with body:
      """
      {"working_days": 14}
      """
    Then the response status is 200
    And the response field "data.now" equals "2027-03-19T09:00:00.000Z"
    When I leave the sandbox
    And I send a GET request to "/v1/organisation/accounts/{{sandbox_account}}"
    Then the response status is 404
    When I send a GET request to "/v1/simulator/clock"
    Then the response field "data.now" equals "2026-12-21T09:00:00.000Z"

  Scenario: One sandbox's token does not reach another sandbox, by credentials or by path prefix
    Given a sandbox "a" made with body:
      """
      {"data": {"type": "sandboxes"}}
      """
    And a sandbox "b" made with body:
      """
      {"data": {"type": "sandboxes"}}
      """
    And I act in sandbox "b"
    And an account exists remembered as "b_account"
    And I act in sandbox "a"
    When I send a GET request to "/v1/organisation/accounts/{{b_account}}"
    Then the response status is 404
    When I send a GET request to "/sandboxes/{{b_id}}/v1/organisation/accounts/{{b_account}}"
    Then the response status is 401
    When I send a GET request to "/v1/simulator/sandboxes/{{b_id}}"
    Then the response status is 404
    When I send a GET request to "/v1/simulator/sandboxes"
    Then the response matches the "sandbox-list" schema
    And the response field "data" has 1 item
    And the response field "data.0.id" equals "{{a_id}}"

  Scenario: Deleting a sandbox ends its tokens
    Given a sandbox "a" made with body:
      """
      {"data": {"type": "sandboxes"}}
      """
    And I act in sandbox "a"
    When I send a DELETE request to "/v1/simulator/sandboxes/{{a_id}}"
    Then the response status is 204
    When I send a GET request to "/v1/simulator/clock"
    Then the response status is 401
    And the error message contains "the sandbox of this access token no longer exists"

  Scenario: Making a sandbox is an admin's act, and a bad attribute is named
    Given I am authenticated as "harbour"
    When I send a POST request to "/v1/simulator/sandboxes" with body:
      """
      {"data": {"type": "sandboxes"}}
      """
    Then the response status is 403
    And the error message contains "admin client of the default sandbox"
    Given I am authenticated as "northwind"
    When I send a POST request to "/v1/simulator/sandboxes" with body:
      """
      {"data": {"type": "sandboxes", "attributes": {"expires_at": "2099-01-01T00:00:00Z"}}}
      """
    Then the response status is 400
    And the error message contains "expires_at in body must be at most 30 days ahead"

  @inprocess
  Scenario: With authentication off a sandbox is reached by its path prefix
    Given the simulator runs with authentication off
    And I am not authenticated
    And a sandbox "a" made with body:
      """
      {"data": {"type": "sandboxes", "attributes": {"seed": "fixtures"}}}
      """
    When I send a GET request to "/sandboxes/{{a_id}}/v1/organisation/accounts"
    Then the response status is 200
    And the response field "data" has 80 items
    When I send a GET request to "/v1/organisation/accounts"
    Then the response status is 200
    And the response field "data" has 0 items
