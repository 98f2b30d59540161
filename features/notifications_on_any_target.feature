@notifications
Feature: Notifications on any target
  A subscription delivers to the harness's webhook receiver on any target, staging included. On
  staging the receiver must be reachable: set CONFORMANCE_CALLBACK_URL to a public URL that
  forwards to it, and CONFORMANCE_RECEIVER_PORT to the local port it should listen on (README).
  The harness deletes its subscriptions after each scenario.

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
    And the notification is signed as Form3 signs them

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
