@clock @simulator
Feature: Scheme clock and simulator controls
  The simulator runs on a scheme clock that QA and developers move instead of waiting: by Bacs
  working days, calendar days, hours, or to an instant. Bacs working days are Monday to Friday less
  England & Wales bank holidays, dated in London. These scenarios expect the clock to start frozen
  at 2026-12-21T09:00:00Z, as the in-process target does (for a running simulator:
  scheme-sim start --clock frozen --clock-start 2026-12-21T09:00:00Z).

  Background:
    Given I am authenticated as "northwind"
    And the simulator is reset

  Scenario: Read the scheme clock
    When I send a GET request to "/v1/simulator/clock"
    Then the response status is 200
    And the response matches the "clock" schema
    And the response field "data.now" equals "2026-12-21T09:00:00.000Z"
    And the response field "data.mode" equals "frozen"
    And the response field "data.bacs_working_day" equals "true"

  Scenario: One working day after Christmas Eve is the Tuesday after Boxing Day's substitute
    When the scheme clock moves to "2026-12-24T09:00:00Z"
    And the scheme clock advances 1 working day
    Then the response matches the "clock-advanced" schema
    And the response field "data.advanced_from" equals "2026-12-24T09:00:00.000Z"
    And the response field "data.now" equals "2026-12-29T09:00:00.000Z"
    And the response field "data.london_date" equals "2026-12-29"
    And the scheme clock reads "2026-12-29T09:00:00Z"
    And "2026-12-28" is not a Bacs working day
    And "2026-12-29" is a Bacs working day

  Scenario: Days keep the London time of day; hours are elapsed time
    When the scheme clock advances 2 days
    Then the scheme clock reads "2026-12-23T09:00:00Z"
    When the scheme clock advances 3 hours
    Then the scheme clock reads "2026-12-23T12:00:00Z"

  Scenario Outline: A bad advance is refused with the field and the rule
    When I send a POST request to "/v1/simulator/clock/advance" with body:
      """
      <body>
      """
    Then the response status is <status>
    And the error message contains "<message>"
    And the scheme clock reads "2026-12-21T09:00:00Z"

    Examples:
      | body                              | status | message                                                  |
      | {"working_days": 1, "days": 1}    | 400    | exactly one of working_days, days, hours, to; got working_days and days |
      | {"days": -1}                      | 400    | days in body should be greater than or equal to 0        |
      | {"hours": 1.5}                    | 400    | hours in body must be of type integer                    |
      | {"weeks": 1}                      | 400    | weeks in body is not allowed                             |
      | {"to": "2026-12-20T09:00:00Z"}    | 409    | is before the scheme clock                               |
      | {"to": "2032-01-01T00:00:00Z"}    | 400    | more than 5 years after the scheme clock                 |
      | {"to": "9999-12-31T00:00:00Z"}    | 400    | to moves the clock to 9999-12-31T00:00:00.000Z, outside the dates the simulator supports (1900-01-01 to 2199-12-31) |
      | {"days": 1                        | 400    | request body is not valid JSON                           |

  Scenario: The calendar names the holidays of a range
    When I send a GET request to "/v1/simulator/calendar?from=2027-12-20&to=2028-01-07"
    Then the response status is 200
    And the response matches the "calendar" schema
    And the response field "data.holidays" has 3 items
    And the response field "data.holidays.0.name" equals "Christmas Day (substitute day)"
    And the response field "data.holidays.2.date" equals "2028-01-03"
    And the response field "data.working_days" has 12 items

  Scenario: A calendar range is validated
    When I send a GET request to "/v1/simulator/calendar?from=2027-01-01&to=2026-01-01"
    Then the response status is 400
    And the error message contains "to in query (2026-01-01) must not be before from (2027-01-01)"

  Scenario Outline: Calendar dates outside the supported range are refused at once: <query>
    When I send a GET request to "/v1/simulator/calendar?<query>"
    Then the response status is 400
    And the error message contains "<message>"

    Examples:
      | query                         | message                                                        |
      | from=9999-12-01               | from in query must be a date from 1900-01-01 to 2199-12-31     |
      | from=2199-12-01&to=2200-01-31 | to in query must be a date from 1900-01-01 to 2199-12-31       |
      | from=0050-01-01               | from in query must be a date from 1900-01-01 to 2199-12-31     |
      | from=2027-02-30               | from in query must be a date (YYYY-MM-DD), got '2027-02-30'    |

  Scenario: The calendar's default range stops at the last supported date
    When I send a GET request to "/v1/simulator/calendar?from=2199-12-20"
    Then the response status is 200
    And the response matches the "calendar" schema
    And the response field "data.to" equals "2199-12-31"

  Scenario: Resume at a speed, then freeze
    When the scheme clock resumes at speed 10
    Then the response matches the "clock" schema
    And the response field "data.speed" equals "10"
    And the scheme clock is running
    When the scheme clock freezes
    Then the scheme clock is frozen

  Scenario: A reset of everything returns the clock to its start
    When the scheme clock advances 10 working days
    And I send a POST request to "/v1/simulator/reset" with body:
      """
      {"scope": "all"}
      """
    Then the response status is 200
    And the response matches the "clock" schema
    And the response field "data.now" equals "2026-12-21T09:00:00.000Z"
    And the scheme clock reads "2026-12-21T09:00:00Z"

  Scenario: The controls need a token
    Given I am not authenticated
    When I send a GET request to "/v1/simulator/clock"
    Then the response status is 401
    And the response header "WWW-Authenticate" contains "Bearer"
