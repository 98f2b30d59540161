@store @inprocess
Feature: The store keeps what it acknowledged, and long work does not stop the simulator
  The simulator keeps its data in a journal file (the default, --data) or in PostgreSQL
  (--store postgres://…). A 2xx that reports a change is sent only after the change is durable,
  so a restart shows everything that was acknowledged, in the order it was made. An advance of
  the scheme clock runs in slices: reads are answered while it runs, and a request that changes
  state waits for it, then succeeds (docs/store.md, docs/decisions/014-long-work-yields.md).

  Background:
    Given I am authenticated as "northwind"

  Scenario Outline: Accounts, a subscription and the scheme clock survive a restart (<engine>)
    Given the simulator keeps its data in <engine>
    And an account exists remembered as "first"
    And an account exists remembered as "second"
    And I subscribe to "created" events of "accounts"
    When I send a DELETE request to "/v1/organisation/accounts/{{first}}?version=0"
    Then the response status is 204
    When the scheme clock advances 3 working days
    And the simulator restarts
    And I send a GET request to "/v1/organisation/accounts/{{second}}"
    Then the response status is 200
    And the response matches the "account-single" schema
    When I send a GET request to "/v1/organisation/accounts/{{first}}"
    Then the response status is 404
    When I send a GET request to "/v1/notification/subscriptions"
    Then the response field "data" has 1 item
    And the scheme clock reads "2026-12-24T09:00:00Z"

    Examples:
      | engine         |
      | a journal file |
      | PostgreSQL     |

  Scenario: A journal whose snapshot went missing is refused, naming the file; doctor --fix rebuilds it
    A journal holds only the commits after its snapshot: replayed alone it would lose what the
    snapshot held. Start-up refuses it and changes no file; doctor says the same and what --fix
    would keep (docs/store.md, "Damaged stores").
    Given the simulator keeps its data in a journal file
    And an account exists remembered as "first"
    When the simulator stops and the store's snapshot goes missing
    Then starting the simulator is refused, saying "is missing, but"
    And scheme-sim doctor reports the same, and exits 1
    When scheme-sim doctor --fix repairs the store and the simulator starts again
    And I send a GET request to "/v1/organisation/accounts/{{first}}"
    Then the response status is 200

  Scenario: Reads are answered during a two-year advance; a change made meanwhile waits, then succeeds
    Given the simulator keeps its data in a journal file
    And I subscribe to "created" events of "reports"
    When an advance of 505 working days starts
    And I send a GET request to "/health"
    Then the response status is 200
    And the advance is still running
    When I send a GET request to "/v1/simulator/clock"
    Then the response status is 200
    And the advance is still running
    When I create an account with attributes {"name": ["Waited Holder"]}
    Then the response status is 201
    And the advance had answered before that response
    And the advance answers 200

  # Half a year: many slices of the scheduler, so it is still running at the next request (the
  # two-year advance above already shows a long one; this one only needs one in progress).
  Scenario: A second advance while one runs is refused
    Given the simulator keeps its data in a journal file
    When an advance of 120 working days starts
    And I send a POST request to "/v1/simulator/clock/advance" with body:
      """
      {"working_days": 1}
      """
    Then the response status is 409
    And the error message contains "an advance of the scheme clock is already running"
    And the advance answers 200
