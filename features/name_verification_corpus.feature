@cop
Feature: Name verification of the CoP corpus on any target
  Every case of the corpus (fixtures/cop/cases.json, rules in docs/cop.md) whose answer depends
  only on the account it registers runs here, on every target, staging included. The harness
  registers the case's account on the target itself, under the target's sort code and BIC (staging:
  CONFORMANCE_SORT_CODE and CONFORMANCE_BIC) with a fresh account number, waits until the target
  answers for it (CONFORMANCE_COP_WAIT_SECONDS, default 30), asks the target's participant (staging:
  CONFORMANCE_COP_PARTICIPANT_ID) with the case's request, and removes the account after the
  scenario, whether it passed or failed. Matched, ReasonCode and Name are compared exactly; a
  difference is a divergence naming the case, the expected and the actual answer. The two AC01
  cases ask for a fresh number nobody holds at the target's sort code.
  The other corpus cases stay on the simulator (features/name_verification.feature), each under
  the reason why: the simulator's seed sort codes, or a threshold of its own matcher.
  Every request is signed by the target's requester, and every answer must verify against the
  participant's published JWKS.

  Background:
    Given I am authenticated as "northwind"

  Scenario Outline: corpus case <case> on the target
    Given the account of CoP case "<case>" is registered on the target
    When the target is asked to verify the name of CoP case "<case>"
    Then the target answers as CoP case "<case>" expects
    And the answer was signed and verified against the JWKS

    Examples:
      | case |
      | full-exact |
      | full-upper |
      | full-lower |
      | full-spacing |
      | full-diacritics-request |
      | full-diacritics-account |
      | full-cedilla |
      | full-eszett |
      | full-ae-ligature |
      | full-o-slash |
      | full-apostrophe |
      | full-apostrophe-space |
      | full-curly-apostrophe |
      | full-hyphen-space |
      | full-hyphen-joined |
      | full-mac-spacing |
      | full-dots |
      | full-comma-free-text |
      | full-trailing-dot |
      | full-tab |
      | full-business-case |
      | full-business-punct |
      | full-ampersand-and |
      | full-and-ampersand |
      | full-limited |
      | full-ltd-dots |
      | full-plc |
      | full-plc-dots |
      | full-llp |
      | full-llp-dots |
      | full-digits |
      | full-split-name |
      | full-split-name-middle |
      | title-mr |
      | title-mrs |
      | title-miss |
      | title-ms |
      | title-mx |
      | title-dr |
      | title-sir |
      | title-prof |
      | title-rev |
      | title-dotted |
      | title-two |
      | title-surname-lord |
      | title-only-surname |
      | structured-full |
      | structured-no-salutation |
      | structured-fullname |
      | structured-fullname-business |
      | structured-split-account |
      | structured-initial |
      | structured-double-surname |
      | structured-surname-differs |
      | structured-other-surname |
      | structured-nickname |
      | alt-acronym |
      | alt-acronym-dots |
      | alt-trading |
      | alt-second |
      | alt-close |
      | alt-maiden |
      | alt-not-acronym |
      | alt-primary-still |
      | joint-both |
      | joint-reversed |
      | joint-and |
      | joint-reversed-and |
      | joint-first |
      | joint-second |
      | joint-shared-surname |
      | joint-titles |
      | joint-close-one |
      | joint-close-one-of-two |
      | joint-initial-both |
      | joint-nickname |
      | joint-different-surnames |
      | joint-one-holder-other-surname |
      | joint-stranger |
      | joint-stranger-with-holder |
      | joint-three |
      | joint-held-and |
      | joint-request-to-single |
      | close-initial |
      | close-initial-dot |
      | close-initials-two |
      | close-initial-middle |
      | close-initial-held |
      | close-initials-run |
      | none-initial-wrong |
      | none-initials-wrong-middle |
      | close-short-sam |
      | close-short-bob |
      | close-short-bill |
      | close-short-liz |
      | close-short-peggy |
      | close-short-jim |
      | close-short-dick |
      | close-short-ted |
      | close-short-harry |
      | close-short-kate |
      | close-short-sally |
      | close-short-tony |
      | close-short-chris |
      | close-short-alex |
      | close-short-dan |
      | close-short-ben |
      | close-short-mike |
      | close-short-steve |
      | close-short-reverse |
      | close-short-split |
      | close-missing-middle |
      | close-missing-two-middles |
      | close-extra-middle |
      | close-middle-used |
      | none-different-middle |
      | close-split-middle |
      | close-typo-missing-letter |
      | close-typo-extra-letter |
      | close-typo-business |
      | close-typo-both |
      | close-typo-diacritic-and-typo |
      | close-order |
      | close-business-no-suffix |
      | close-business-other-suffix |
      | close-business-extra-suffix |
      | none-business-other |
      | none-business-word-missing |
      | none-business-suffix-only |
      | ta-whole |
      | ta-left |
      | ta-right |
      | ta-trading-as |
      | ta-left-close |
      | ta-right-close |
      | ta-neither |
      | charity-without-rc |
      | charity-with-rc |
      | charity-registered-charity |
      | charity-rcn |
      | charity-other-name |
      | none-different-surname |
      | none-different-forename |
      | none-different-person |
      | none-surname-only |
      | none-forename-only |
      | close-double-barrel-second |
      | close-double-barrel-first |
      | none-double-barrel-other |
      | none-surname-prefix |
      | none-punctuation-only |
      | none-business-person |
      | none-nickname-other-family |
      | ac01 |
      | ac01-business |
      | acns |
      | acns-before-opto |
      | opto |
      | opto-status |
      | opto-before-cass |
      | cass |
      | cass-status |
      | cass-before-ivcr |
      | ivcr-missing |
      | ivcr-wrong |
      | ivcr-before-name |
      | ivcr-ok |
      | ivcr-ok-format |
      | ivcr-ok-then-close |
      | secondary-not-required |
      | banm |
      | banm-alt |
      | banm-sole-trader |
      | panm |
      | panm-joint |
      | panm-structured |
      | bamm |
      | bamm-ta |
      | bamm-charity |
      | pamm |
      | pamm-joint |
      | pamm-initial |
      | annm-wrong-type |
      | annm-wrong-type-personal |
      | mbam-business |
      | classification-default |
