@auth
Feature: Authentication
  Clients get a bearer token with OAuth 2.0 client credentials (HTTP Basic) and send it on every
  call. (Tenant isolation, which builds on it, is in accounts.feature.)

  Scenario: A client gets a bearer token
    When I request a token as "default"
    Then the response status is 200
    And the response matches the "token" schema
    And the response field "token_type" equals "Bearer"
    And the response field "expires_in" equals "3600"
    And the response header "cache-control" is "no-store"

  Scenario: The form content type may carry a charset
    When I request a token as "default" with content type "application/x-www-form-urlencoded; charset=UTF-8"
    Then the response status is 200

  Scenario Outline: No usable Basic credentials: <case>
    When I request a token with the Authorization header "<header>"
    Then the response status is 401
    And the response header "www-authenticate" contains "Basic"
    And the error message contains "client credentials are required as HTTP Basic authentication"

    Examples:
      | case                | header             |
      | no header           |                    |
      | a Bearer header     | Bearer abc         |
      | Basic without colon | Basic bm9jb2xvbg== |
      | Basic with junk     | Basic %%%          |

  Scenario Outline: Wrong credentials: <case>
    When I request a token with client id "<id>" and secret "<secret>"
    Then the response status is 403
    And the error message contains "invalid client credentials"

    Examples:
      | case            | id          | secret    |
      | a wrong secret  | <default>   | not-it    |
      | an unknown id   | nobody-here | <default> |
      | an empty secret | <default>   |           |

  Scenario Outline: Grant types other than client_credentials: <body>
    When I request a token as "default" with the body "<body>"
    Then the response status is 400
    And the response field "error" equals "<error>"
    And the error message contains "<message>"

    Examples:
      | body                          | error                  | message                                  |
      | grant_type=password           | unsupported_grant_type | grant_type password is not supported     |
      | grant_type=authorization_code | unsupported_grant_type | is not supported; use client_credentials |
      | scope=accounts                | invalid_request        | grant_type in body is required           |
      |                               | invalid_request        | grant_type in body is required           |

  Scenario: A JSON token request is the wrong media type
    When I request a token as "default" with content type "application/json"
    Then the response status is 415
    And the error message contains "Content-Type must be application/x-www-form-urlencoded"

  @simulator
  Scenario Outline: Every token error has one shape: RFC 6749's error beside Form3's (<case>)
    When <request>
    Then the response status is <status>
    And the response matches the "token-error" schema
    And the response field "error" equals "<error>"

    Examples:
      | case             | request                                                                           | status | error                  |
      | no credentials   | I request a token without credentials                                             | 401    | invalid_client         |
      | a wrong secret   | I request a token with client id "<default>" and secret "not-it"                  | 403    | invalid_client         |
      | no grant_type    | I request a token as "default" with the body "scope=accounts"                     | 400    | invalid_request        |
      | a password grant | I request a token as "default" with the body "grant_type=password"                | 400    | unsupported_grant_type |
      | a JSON body      | I request a token as "default" with content type "application/json"               | 415    | invalid_request        |

  Scenario: The token endpoint only takes POST
    When I send a GET request to "/v1/oauth2/token" without an Authorization header
    Then the response status is 405
    And the response header "allow" is "POST"

  @simulator
  Scenario: Health needs no token
    When I send a GET request to "/health" without an Authorization header
    Then the response status is 200
    And the response field "status" equals "ok"

  Scenario Outline: Every /v1 route needs a token: <method> <path>
    When I send a <method> request to "<path>" without an Authorization header
    Then the response status is 401
    And the response header "www-authenticate" contains "Bearer"
    And the error message contains "Authorization header is required"

    Examples:
      | method | path                                                           |
      | GET    | /v1/organisation/accounts                                      |
      | POST   | /v1/organisation/accounts                                      |
      | GET    | /v1/organisation/accounts/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc |
      | PATCH  | /v1/organisation/accounts/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc |
      | DELETE | /v1/organisation/accounts/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc |
      | GET    | /v1/no/such/route                                              |

  Scenario Outline: The Bearer scheme word in any case: <word>
    Given I remember a token of "default" as "token"
    When I send a GET request to "/v1/organisation/accounts" with the Authorization header "<word> {{token}}"
    Then the response status is 200

    Examples:
      | word   |
      | Bearer |
      | bearer |
      | BEARER |
      | bEaReR |

  Scenario Outline: An unusable bearer: <case>
    Given I remember a token of "default" as "token"
    And I remember a tampered copy of "token" as "tampered"
    When I send a GET request to "/v1/organisation/accounts" with the Authorization header "<header>"
    Then the response status is 401
    And the response header "www-authenticate" contains "Bearer"
    And the error message contains "<message>"

    Examples:
      | case                 | header                 | message                    |
      | an unknown token     | Bearer not-a-token     | invalid access token       |
      | a tampered token     | Bearer {{tampered}}    | invalid access token       |
      | a token with no word | {{token}}              | must use the Bearer scheme |
      | Basic credentials    | Basic bm9ydGh3aW5kOng= | must use the Bearer scheme |

  @inprocess
  Scenario: A token expires after its lifetime on the wall clock
    Given I remember a token of "default" as "token"
    When the wall clock moves on 3599 seconds
    And I send a GET request to "/v1/organisation/accounts" with the Authorization header "Bearer {{token}}"
    Then the response status is 200
    When the wall clock moves on 1 second
    And I send a GET request to "/v1/organisation/accounts" with the Authorization header "Bearer {{token}}"
    Then the response status is 401
    And the response header "www-authenticate" contains "error=\"invalid_token\""
    And the error message contains "access token expired"

  @inprocess
  Scenario: With authentication off, calls need no token and act as the default organisation
    Given the simulator runs with authentication off
    And a new id remembered as "account_id"
    When I send a POST request to "/v1/organisation/accounts" with content type "application/json" and body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "name": ["Anne Open"]}}}
      """
    Then the response status is 201
    When I send a GET request to "/v1/organisation/accounts/{{account_id}}" without an Authorization header
    Then the response status is 200
    And the response field "data.organisation_id" equals "{{organisation_id}}"
