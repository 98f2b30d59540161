@notifications
Feature: Notifications on any target
  A subscription delivers to the harness's webhook receiver on any target, staging included. On
  staging the receiver must be reachable: set CONFORMANCE_CALLBACK_URL to a public URL that
  forwards to it, and CONFORMANCE_RECEIVER_PORT to the local port it should listen on (README).
  The harness deletes its subscriptions after each scenario. Each notification is checked three
  ways: its envelope (event, record type, organisation), its signature (scheme-sim's own verifier,
  with the signing key the target publishes at /v1/platform/security/signing_keys/{id}: Form3's
  documented scheme, over the headers the simulator chose, as Form3 does not publish its own), and
  its record against a GET of the same record.

  Background:
    Given I am authenticated as "northwind"

  @smoke
  Scenario: A created account is notified to the subscription's webhook
    Given I subscribe to "created" events of "accounts"
    When I send a GET request to "/v1/notification/subscriptions/{{subscription_id}}"
    Then the response status is 200
    And the response matches the "subscription-single" schema
    Given an account exists remembered as "acc"
    Then a "created" notification for "accounts" with "data.data.id" equal to "{{acc}}" arrives
    And the notification field "data.data.organisation_id" equals "{{organisation_id}}"
    And the notification matches the "notification" schema
    And the notification field "data_record_type" equals "Account"
    And the notification field "record_type" equals "accounts"
    And the notification envelope is Form3’s for a "created" of "accounts"
    And the notification's signature verifies with scheme-sim's verifier
    And the notification record is what a GET of "/v1/organisation/accounts/{{acc}}" answers

  Scenario: A deleted account is notified, and the subscription is listed until it is deleted
    Given I subscribe to "deleted" events of "accounts"
    And an account exists remembered as "acc"
    When I send a DELETE request to "/v1/organisation/accounts/{{acc}}?version=0"
    Then the response status is 204
    And a "deleted" notification for "accounts" with "data.data.id" equal to "{{acc}}" arrives
    When I send a GET request to "/v1/notification/subscriptions?filter[event_type]=deleted"
    Then the response status is 200
    And the response matches the "subscription-list" schema

  Scenario: A subscription exactly as Form3's SDK sends it: callback_uris, no type, a filter string
    Given a new id remembered as "subscription_id"
    And a new account number remembered as "wanted"
    When I send a POST request to "/v1/notification/subscriptions" with body:
      """
      {"data": {"id": "{{subscription_id}}", "organisation_id": "{{organisation_id}}",
        "attributes": {"event_type": "created", "record_type": "accounts",
          "callback_uris": [{"callback_transport": "http", "callback_uri": "{{webhook_url}}/hooks/{{subscription_id}}"}],
          "filter": "attributes.account_number={{wanted}}", "user_id": "{{new_uuid}}"}}}
      """
    Then the response status is 201
    And the response matches the "subscription-single" schema
    And the response field "data.attributes.filter" equals "attributes.account_number={{wanted}}"
    Given an account exists with attributes {"account_number": "{{wanted}}"} remembered as "acc"
    Then a "created" notification for "accounts" with "data.data.id" equal to "{{acc}}" arrives

  Scenario: Form3's SDK updates a subscription with callback_uris null, which leaves them as they are
    Given I subscribe to "created" events of "accounts"
    When I send a PATCH request to "/v1/notification/subscriptions/{{subscription_id}}" with body:
      """
      {"data": {"id": "{{subscription_id}}", "organisation_id": "{{organisation_id}}", "version": 0,
        "attributes": {"callback_uris": null, "event_type": "updated"}}}
      """
    Then the response status is 200
    And the response field "data.attributes.event_type" equals "updated"
    And the response field "data.attributes.callback_uri" equals "{{webhook_url}}/hooks/{{subscription_id}}"

  Scenario: A record_type outside Form3's pattern is refused, naming the field
    When I send a POST request to "/v1/notification/subscriptions" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}",
        "attributes": {"event_type": "created", "record_type": "payment admissions",
          "callback_uris": [{"callback_transport": "http", "callback_uri": "{{webhook_url}}/hooks/{{new_uuid}}"}]}}}
      """
    Then the response status is 400
    And the error message contains "record_type in body should match"

  Scenario: An updated account's notification carries the record as updated
    Given I subscribe to "updated" events of "accounts"
    And an account exists remembered as "acc"
    When I patch the account "{{acc}}" with data {"version": 0, "attributes": {"alternative_names": ["Notified Holder"]}}
    Then the response status is 200
    And a "updated" notification for "accounts" with "data.data.id" equal to "{{acc}}" arrives
    And the notification envelope is Form3’s for a "updated" of "accounts"
    And the notification field "data.data.version" equals "1"
    And the notification's signature verifies with scheme-sim's verifier
    And the notification record is what a GET of "/v1/organisation/accounts/{{acc}}" answers

  Scenario: A deleted account's notification carries the record as it was before the delete
    Given I subscribe to "deleted" events of "accounts"
    And an account exists remembered as "acc"
    When I send a GET request to "/v1/organisation/accounts/{{acc}}"
    And I remember the response field "data" as "before"
    And I send a DELETE request to "/v1/organisation/accounts/{{acc}}?version=0"
    Then the response status is 204
    And a "deleted" notification for "accounts" with "data.data.id" equal to "{{acc}}" arrives
    And the notification envelope is Form3’s for a "deleted" of "accounts"
    And the notification's signature verifies with scheme-sim's verifier
    And the notification record is the one remembered as "before"

  Scenario: A created claim's notification carries the record a GET answers
    Given I subscribe to "created" events of "claims"
    And a claim "notified" disputing "1.50"
    Then a "created" notification for "claims" with "data.data.id" equal to "{{notified}}" arrives
    And the notification envelope is Form3’s for a "created" of "claims"
    And the notification's signature verifies with scheme-sim's verifier
    And the notification record is what a GET of "/v1/transaction/claims/{{notified}}" answers

  Scenario: A claim submission's notification carries the record a GET answers
    Given I subscribe to "created" events of "claim_submissions"
    And a submitted claim "notified" disputing "2.50"
    Then a "created" notification for "claim_submissions" with "data.data.id" equal to "{{notified_submission}}" arrives
    And the notification envelope is Form3’s for a "created" of "claim_submissions"
    And the notification's signature verifies with scheme-sim's verifier
    And the notification record is what a GET of "/v1/transaction/claims/{{notified}}/submissions/{{notified_submission}}" answers

  Scenario Outline: A subscription to <record_type>, a record type the flows emit, is kept as sent
    The harness cannot make these arrive without the scheme's days (a report, a contra payment, a
    reversal after the sequence number): the subscription itself is checked, and the journeys and
    the simulator's features see the notifications.
    Given I subscribe to "created" events of "<record_type>"
    When I send a GET request to "/v1/notification/subscriptions/{{subscription_id}}"
    Then the response status is 200
    And the response matches the "subscription-single" schema
    And the response field "data.attributes.record_type" equals "<record_type>"
    And the response field "data.attributes.event_type" equals "created"
    When I send a GET request to "/v1/notification/subscriptions?filter[record_type]=<record_type>"
    Then the response status is 200
    And the response matches the "subscription-list" schema

    Examples:
      | record_type                |
      | claim_reversals            |
      | claim_reversal_submissions |
      | payments                   |
      | payment_admissions         |
      | reports                    |
      | report_admissions          |
