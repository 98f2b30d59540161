Feature: Notifications on any target
  A subscription delivers to the harness's webhook receiver on any target, staging included. On
  staging the receiver must be reachable: set CONFORMANCE_CALLBACK_URL to a public URL that
  forwards to it, and CONFORMANCE_RECEIVER_PORT to the local port it should listen on (README).
  The harness deletes its subscriptions after each scenario.

  Background:
    Given I am authenticated as "northwind"

  Scenario: A created account is notified to the subscription's webhook
    Given I subscribe to "created" events of "accounts"
    When I send a GET request to "/v1/notification/subscriptions/{{subscription_id}}"
    Then the response status is 200
    And the response matches the "subscription-single" schema
    Given an account exists remembered as "acc"
    Then a "created" notification for "accounts" with "data.data.id" equal to "{{acc}}" arrives
    And the notification field "data.data.organisation_id" equals "{{organisation_id}}"

  Scenario: A deleted account is notified, and the subscription is listed until it is deleted
    Given I subscribe to "deleted" events of "accounts"
    And an account exists remembered as "acc"
    When I send a DELETE request to "/v1/organisation/accounts/{{acc}}?version=0"
    Then the response status is 204
    And a "deleted" notification for "accounts" with "data.data.id" equal to "{{acc}}" arrives
    When I send a GET request to "/v1/notification/subscriptions?filter[event_type]=deleted"
    Then the response status is 200
    And the response matches the "subscription-list" schema
