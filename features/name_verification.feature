@cop @simulator
Feature: Confirmation of Payee name verification
  A participant answers Open Banking v3.1 name-verification requests about the accounts of its
  organisation. The cases of the corpus (fixtures/cop/cases.json, rules in docs/cop.md) that only
  the simulator can answer are below, each under its reason (the other cases run on any target:
  features/name_verification_corpus.feature); the error scenarios check the Open Banking error body
  against its schema.
  Every answer of the participant, success or error, must carry an x-jws-signature (a detached
  PS256 JWS of its exact bytes) that verifies against the participant's published JWKS, with jose
  and independently with Node's own crypto: the harness checks that on every answer of a
  participant, on every target. Every request is signed by the target's requester (in process and
  against a simulator: the bundled development key of northwind-dev) unless a scenario says not.
  Tagged @simulator as a whole: the participant ids and seed sort codes are the simulator's own
  (fixtures/participants.json); a staging environment has the operator's.

  Background:
    Given I am authenticated as "northwind"
    And I remember "/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification" as "cop_path"

  Scenario Outline: corpus case <case>, on the simulator only
    Given the account of CoP case "<case>" is registered on the target
    When the target is asked to verify the name of CoP case "<case>"
    Then the target answers as CoP case "<case>" expects
    And the answer was signed and verified against the JWKS

    Examples: the simulator's seed decides them: sort codes of fixtures/participants.json that the participant does not serve, or another participant serves
      | case |
      | scns |
      | scns-other-participant |

    Examples: a threshold of the simulator's own matcher decides them (docs/cop.md, Thresholds): a notch either way changes the answer, or the table gives the case as the threshold's example
      | case |
      | close-typo-surname |
      | close-typo-forename |
      | charity-typo |
      | close-typo-two-long |
      | none-typo-three |
      | none-typo-short |
      | none-typo-two-short |
      | none-short-too-short |

  Scenario: any client may ask any participant; the interaction id is echoed
    Given the target answers unsigned name verification requests
    And I am authenticated as "harbour"
    And the name verification request carries the headers:
      | x-fapi-interaction-id | 93bac548-d2de-4546-b106-880a5018460d |
      | x-fapi-financial-id   | 0015800001041REAAY                   |
      | x-jws-signature       | e30..c2lnbmF0dXJl                    |
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030299999997", "Name": "Nobody"}}
      """
    Then the response status is 200
    And the response matches the "name-verification-response" schema
    And the response field "Data.VerificationReport.ReasonCode" equals "AC01"
    And the response field "Data.VerificationReport.Name" is absent
    And the response field "Links.Self" equals "{{cop_path}}"
    And the response header "x-fapi-interaction-id" is "93bac548-d2de-4546-b106-880a5018460d"

  Scenario: an unknown participant is 404 in the Open Banking shape
    When I send a POST request to "/v1/participants/NO-SUCH-BANK/open-banking/v3.1/accounts/name-verification" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 404
    And the response matches the "ob-error" schema
    And the response field "Errors.0.ErrorCode" equals "UK.OBIE.Resource.NotFound"
    And the response carries a generated x-fapi-interaction-id

  Scenario: no token is 401 in the Open Banking shape
    Given I am not authenticated
    When I send a POST request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 401
    And the response matches the "ob-error" schema
    And the response field "Errors.0.ErrorCode" equals "UK.OBIE.Header.Missing"
    And the response field "Errors.0.Path" equals "Authorization"
    And the response header "WWW-Authenticate" contains "Bearer"
    And the response carries a generated x-fapi-interaction-id

  Scenario Outline: Accept <accept> is 406
    Given the name verification request carries the headers:
      | accept                | <accept> |
      | x-fapi-interaction-id | neg-1    |
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 406
    And the response matches the "ob-error" schema
    And the response field "Errors.0.Path" equals "Accept"
    And the response header "x-fapi-interaction-id" is "neg-1"

    Examples:
      | accept                    |
      | text/plain                |
      | application/xml           |
      | application/vnd.api+json  |
      | application/json;q=0      |

  Scenario Outline: Content-Type <type> is 415
    Given the name verification request carries the headers:
      | content-type | <type> |
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 415
    And the response matches the "ob-error" schema
    And the response field "Errors.0.Path" equals "Content-Type"
    And the response carries a generated x-fapi-interaction-id

    Examples:
      | type                     |
      | text/plain               |
      | application/xml          |
      | application/vnd.api+json |

  Scenario Outline: a malformed body is 400 UK.OBIE.Resource.InvalidFormat, never 500
    When I send a POST request to "{{cop_path}}" with body:
      """
      <body>
      """
    Then the response status is 400
    And the response matches the "ob-error" schema
    And the response field "Errors.0.ErrorCode" equals "UK.OBIE.Resource.InvalidFormat"

    Examples:
      | body           |
      | {              |
      | {"Data": }     |
      | not json       |
      | {"Data": {}}}  |
      | {"Data":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} |

  Scenario Outline: <what> is 400 <code> at <path>
    When I send a POST request to "{{cop_path}}" with body:
      """
      <body>
      """
    Then the response status is 400
    And the response matches the "ob-error" schema
    And the response field "Errors" contains "<code>"
    And the response field "Errors" contains "\"Path\":\"<path>\""

    Examples:
      | what                        | code                  | path                         | body                                                                                                                                          |
      | no Data                     | UK.OBIE.Field.Missing | Data                         | {}                                                                                                                                            |
      | no Name                     | UK.OBIE.Field.Missing | Data.Name                    | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678"}}                              |
      | no Identification           | UK.OBIE.Field.Missing | Data.Identification          | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Name": "Sam"}}                                                   |
      | no SchemeName               | UK.OBIE.Field.Missing | Data.SchemeName              | {"Data": {"AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}                                                      |
      | no AccountType              | UK.OBIE.Field.Missing | Data.AccountType             | {"Data": {"SchemeName": "SortCodeAccountNumber", "Identification": "40030012345678", "Name": "Sam"}}                                          |
      | an IBAN scheme              | UK.OBIE.Field.Invalid | Data.SchemeName              | {"Data": {"SchemeName": "UK.OBIE.IBAN", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}                         |
      | a third account type        | UK.OBIE.Field.Invalid | Data.AccountType             | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Charity", "Identification": "40030012345678", "Name": "Sam"}}                 |
      | a 12-digit Identification   | UK.OBIE.Field.Invalid | Data.Identification          | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "400300123456", "Name": "Sam"}}                  |
      | a numeric Identification    | UK.OBIE.Field.Invalid | Data.Identification          | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": 40030012345678, "Name": "Sam"}}                  |
      | an empty Name               | UK.OBIE.Field.Invalid | Data.Name                    | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": ""}}                   |
      | a Name of spaces            | UK.OBIE.Field.Invalid | Data.Name                    | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "   "}}                |
      | a Name that is a number     | UK.OBIE.Field.Invalid | Data.Name                    | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": 42}}                   |
      | an empty secondary id       | UK.OBIE.Field.Invalid | Data.SecondaryIdentification | {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam", "SecondaryIdentification": ""}} |
      | Data as a string            | UK.OBIE.Field.Invalid | Data                         | {"Data": "Sam"}                                                                                                                               |

  Scenario: a Name over 140 characters is 400 UK.OBIE.Field.Invalid
    When I send a POST request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Samantha Holder Samantha Holder Samantha Holder Samantha Holder Samantha Holder Samantha Holder Samantha Holder Samantha Holder Samantha Hold"}}
      """
    Then the response status is 400
    And the response matches the "ob-error" schema
    And the response field "Errors.0.ErrorCode" equals "UK.OBIE.Field.Invalid"
    And the response field "Errors.0.Path" equals "Data.Name"

  Scenario: another method is 405 in the Open Banking shape
    When I send a GET request to "{{cop_path}}"
    Then the response status is 405
    And the response matches the "ob-error" schema
    And the response header "Allow" is "POST"

  Scenario: the participant's JWKS is public
    Given I am not authenticated
    When I send a GET request to "/v1/participants/0015800001041REAAY/jwks.json"
    Then the response status is 200
    And the JWKS of participant "0015800001041REAAY" holds one PS256 signing key

  Scenario: an unsigned request is answered and reported absent
    Given the target answers unsigned name verification requests
    And name verification requests are sent unsigned
    When I send a POST request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 200
    And the response header "x-scheme-sim-jws" is "absent"
    And the answer was signed and verified against the JWKS

  @inprocess
  Scenario: a request signed with the client's registered key is reported valid
    Given name verification requests are signed as "northwind"
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 200
    And the response header "x-scheme-sim-jws" is "valid"

  @inprocess
  Scenario: outside strict mode a signature over another body is reported invalid, never refused
    Given name verification requests are signed as "northwind" with:
      | body | {"Data": {}} |
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 200
    And the response header "x-scheme-sim-jws" is "invalid"
    And the response header "x-scheme-sim-jws-problem" contains "UK.OBIE.Signature.Invalid"

  @inprocess
  Scenario: strict mode answers a request signed with the client's registered key
    Given the simulator runs with CoP options "--cop-strict"
    And the name verification request carries the headers:
      | x-fapi-financial-id | 0015800001041REAAY |
    And name verification requests are signed as "northwind"
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 200
    And the response header "x-scheme-sim-jws" is "valid"
    And the answer was signed and verified against the JWKS

  @inprocess
  Scenario: strict mode refuses a signature over another body with UK.OBIE.Signature.Invalid
    Given the simulator runs with CoP options "--cop-strict"
    And the name verification request carries the headers:
      | x-fapi-financial-id | 0015800001041REAAY |
    And name verification requests are signed as "northwind" with:
      | body | {"Data": {}} |
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 400
    And the response matches the "ob-error" schema
    And the response field "Errors.0.ErrorCode" equals "UK.OBIE.Signature.Invalid"
    And the answer was signed and verified against the JWKS

  @inprocess
  Scenario Outline: strict mode refuses <what> with <code> at <path>
    Given the simulator runs with CoP options "--cop-strict"
    And the name verification request carries the headers:
      | x-fapi-financial-id | 0015800001041REAAY |
    And name verification requests are signed as "northwind" with:
      | <change> | <value> |
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 400
    And the response matches the "ob-error" schema
    And the response field "Errors.0.ErrorCode" equals "<code>"
    And the response field "Errors.0.Path" equals "<path>"
    And the answer was signed and verified against the JWKS

    Examples:
      | what                        | change  | value              | code                           | path                          |
      | a kid the client lacks      | kid     | not-registered     | UK.OBIE.Signature.InvalidClaim | kid                           |
      | an iat an hour ahead        | iat     | +3600              | UK.OBIE.Signature.InvalidClaim | http://openbanking.org.uk/iat |
      | another requester's iss     | iss     | 0015800000jf9GgAAI | UK.OBIE.Signature.InvalidClaim | http://openbanking.org.uk/iss |
      | an extra crit entry         | crit    | urn:example:extra  | UK.OBIE.Signature.InvalidClaim | crit                          |
      | a 3.1.3 signature (b64)     | profile | 3.1.3              | UK.OBIE.Signature.InvalidClaim | b64                           |

  @inprocess
  Scenario: --jws-profile 3.1.3 signs answers with b64 false and takes 3.1.3 request signatures
    Given the simulator runs with CoP options "--cop-strict --jws-profile 3.1.3"
    And the name verification request carries the headers:
      | x-fapi-financial-id | 0015800001041REAAY |
    And name verification requests are signed as "northwind" with:
      | profile | 3.1.3 |
    When I send the name verification request to "{{cop_path}}" with body:
      """
      {"Data": {"SchemeName": "SortCodeAccountNumber", "AccountType": "Personal", "Identification": "40030012345678", "Name": "Sam"}}
      """
    Then the response status is 200
    And the answer is signed with b64 false
    And the answer was signed and verified against the JWKS
