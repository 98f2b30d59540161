@cop
Feature: Name verification against a known account
  Runs on every target, staging included: the known account is the target's own (staging:
  CONFORMANCE_COP_PARTICIPANT_ID, CONFORMANCE_COP_ACCOUNT, CONFORMANCE_COP_ACCOUNT_NAME and
  CONFORMANCE_COP_ACCOUNT_TYPE; the simulator: the seed account of Samantha Holder at Northwind).
  The answers are the Open Banking CoP reason codes: none for a match, MBAM for a close match with
  the held name returned, ANNM for no match, AC01 for an account that does not exist.
  Every request is signed by the harness's requester (staging: CONFORMANCE_COP_SIGNING_KEY and
  CONFORMANCE_COP_SIGNING_KID; a simulator: the bundled development key of northwind-dev) and
  every answer must verify against the participant's published JWKS. The two scenarios about a
  target that demands signatures run in process against --cop-strict; elsewhere they run when the
  preflight found the target strict, and are skipped, saying so, when it is not.

  Background:
    Given I am authenticated as "northwind"
    And the known CoP account is registered

  @smoke
  Scenario: The held name matches
    When I verify the known CoP account with "its held name"
    Then the response status is 200
    And the response matches the "name-verification-response" schema
    And the response field "Data.VerificationReport.Matched" equals "true"

  @smoke
  Scenario: A typo of the name is a close match, and the answer gives the held name
    When I verify the known CoP account with "a typo of its name"
    Then the response status is 200
    And the response field "Data.VerificationReport.Matched" equals "false"
    And the response field "Data.VerificationReport.ReasonCode" equals "MBAM"
    And the response field "Data.VerificationReport.Name" equals "{{cop_name}}"

  Scenario: An unrelated name does not match
    When I verify the known CoP account with "an unrelated name"
    Then the response status is 200
    And the response field "Data.VerificationReport.Matched" equals "false"
    And the response field "Data.VerificationReport.ReasonCode" equals "ANNM"

  Scenario: An account that does not exist
    When I verify an account number that does not exist at the known CoP account’s sort code
    Then the response status is 200
    And the response field "Data.VerificationReport.Matched" equals "false"
    And the response field "Data.VerificationReport.ReasonCode" equals "AC01"

  Scenario: A target that demands signed requests answers a signed one
    Given the target demands signed name verification requests
    And the known CoP account is registered
    When I verify the known CoP account with "its held name"
    Then the response status is 200
    And the response field "Data.VerificationReport.Matched" equals "true"
    And the answer was signed and verified against the JWKS

  Scenario: A target that demands signed requests refuses an unsigned one
    Given the target demands signed name verification requests
    And name verification requests are sent unsigned
    When I verify the known CoP account with "its held name"
    Then the response status is 400
    And the response matches the "ob-error" schema
    And the response field "Errors.0.ErrorCode" equals "UK.OBIE.Signature.Missing"
    And the response field "Errors.0.Path" equals "x-jws-signature"
    And the answer was signed and verified against the JWKS
