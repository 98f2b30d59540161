@notifications @simulator
Feature: Subscriptions and notifications
  A subscription asks for a notification whenever a record of a type is created, updated or
  deleted. Notifications are delivered by webhook (signed with Standard Webhooks headers when a
  secret is set) or to an SQS queue; every attempt is visible. The webhook receiver is the
  harness's own HTTP server on 127.0.0.1 and the queues live on the harness's own SQS emulator
  (read back with the AWS SDK), so these scenarios run against a simulator only.

  Background:
    Given I am authenticated as "northwind"
    And a new id remembered as "account_id"
    And a new account number remembered as "account_number"
    And a new account number remembered as "other_account_number"
    And I remember "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" as "secret"

  Scenario: A created account is notified, signed, and the delivery is logged
    Given I subscribe to "created" events of "accounts" with secret "{{secret}}"
    When I send a GET request to "/v1/notification/subscriptions/{{subscription_id}}"
    Then the response status is 200
    And the response matches the "subscription-single" schema
    And the response field "data.attributes.has_secret" equals "true"
    And the response field "data.attributes.secret" is absent
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Samantha Holder"]}}}
      """
    Then the response status is 201
    And a "created" notification for "accounts" arrives
    And the notification matches the "notification" schema
    And the notification was sent as JSON by scheme-sim
    And the notification signature is valid for secret "{{secret}}"
    And the notification field "data.data.id" equals "{{account_id}}"
    And the notification field "actioned_by" equals "{{northwind_client_id}}"
    When I send a GET request to "{{notification.data.links.self}}"
    Then the response status is 200
    And the response field "data.id" equals "{{notification.data.data.id}}"
    When I wait until "/v1/simulator/deliveries/{{notification.id}}" has field "data.attributes.status" equal to "delivered"
    And I send a GET request to "/v1/simulator/deliveries?filter[notification_id]={{notification.id}}"
    Then the response status is 200
    And the response matches the "delivery-attempt-list" schema
    And the response field "data.0.attributes.status" equals "succeeded"
    And the response field "data.0.attributes.response_code" equals "200"

  Scenario: Updates and deletes are notified to their own subscriptions
    Given I subscribe to "deleted" events of "accounts"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Sam Holder"]}}}
      """
    And I send a DELETE request to "/v1/organisation/accounts/{{account_id}}?version=0"
    Then the response status is 204
    And a "deleted" notification for "accounts" with "data.data.id" equal to "{{account_id}}" arrives
    And the notification field "data.data.version" equals "0"

  Scenario: A callback answering 410 Gone deactivates its subscription
    Given the webhook receiver answers 410
    And I subscribe to "created" events of "accounts"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Sam Holder"]}}}
      """
    Then the response status is 201
    When I wait until "/v1/notification/subscriptions/{{subscription_id}}" has field "data.attributes.deactivated" equal to "true"
    And I send a GET request to "/v1/notification/subscriptions/{{subscription_id}}/errors"
    Then the response status is 200
    And the response matches the "subscription-delivery-error-list" schema
    And the response field "data.0.attributes.error_category" equals "subscription_gone"
    And the response field "data.0.attributes.response_code" equals "410"

  Scenario: Redelivery refuses a delivery still pending (409) and comes at most once per interval (429)
    Given I subscribe to "created" events of "accounts"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Sam Holder"]}}}
      """
    Then the response status is 201
    And a "created" notification for "accounts" arrives
    When I wait until "/v1/simulator/deliveries/{{notification.id}}" has field "data.attributes.status" equal to "delivered"
    And I send a POST request to "/v1/simulator/deliveries/{{notification.id}}/redeliver"
    Then the response status is 202
    When I wait until "/v1/simulator/deliveries/{{notification.id}}" has field "data.attributes.attempts" equal to "2"
    And I send a POST request to "/v1/simulator/deliveries/{{notification.id}}/redeliver"
    Then the response status is 429
    And the error message contains "was redelivered less than 10 s ago"
    Given the webhook receiver answers 500
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{other_account_number}}",
          "name": ["Sam Holder"]}}}
      """
    Then the response status is 201
    When I wait until "/v1/simulator/deliveries?filter[subscription_id]={{subscription_id}}&filter[status]=failed" has field "data.0.attributes.attempt" equal to "1"
    And I send a GET request to "/v1/simulator/deliveries?filter[subscription_id]={{subscription_id}}&filter[status]=failed"
    And I remember the response field "data.0.attributes.notification_id" as "pending_id"
    And I send a POST request to "/v1/simulator/deliveries/{{pending_id}}/redeliver"
    Then the response status is 409
    And the error message contains "is already pending"

  Scenario: A queue subscriber reads the notification off its SQS queue
    Given I subscribe to "created" events of "accounts" on a new SQS queue
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Samantha Holder"]}}}
      """
    Then the response status is 201
    And a "created" notification for "accounts" arrives on the queue
    And the notification matches the "notification" schema
    And the notification field "data.data.id" equals "{{account_id}}"
    And the queue message attribute "event_type" equals "created"
    And the queue message attribute "record_type" equals "accounts"
    When I wait until "/v1/simulator/deliveries/{{notification.id}}" has field "data.attributes.status" equal to "delivered"
    And I send a GET request to "/v1/simulator/deliveries?filter[notification_id]={{notification.id}}"
    Then the response matches the "delivery-attempt-list" schema
    And the response field "data.0.attributes.transport" equals "queue"
    And the response field "data.0.attributes.callback_uri" equals "{{queue_url}}"
    And the response field "data.0.attributes.status" equals "succeeded"

  Scenario: A FIFO queue gets a subscription's notifications in order, grouped by the subscription
    Given I subscribe to "created" events of "accounts" on a new FIFO SQS queue
    And a new id remembered as "other_account_id"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Samantha Holder"]}}}
      """
    And I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{other_account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{other_account_number}}",
          "name": ["Robert Holder"]}}}
      """
    Then the response status is 201
    And a "created" notification for "accounts" arrives on the queue
    And the notification field "data.data.id" equals "{{account_id}}"
    And the queue message attribute "MessageGroupId" equals "{{subscription_id}}"
    And the queue message attribute "MessageDeduplicationId" equals "{{notification.id}}"
    And a "created" notification for "accounts" arrives on the queue
    And the notification field "data.data.id" equals "{{other_account_id}}"
    And the queue message attribute "MessageGroupId" equals "{{subscription_id}}"

  Scenario: A queue that does not exist is logged as an SQS error and retried
    Given I subscribe to "created" events of "accounts" on an SQS queue that does not exist
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Samantha Holder"]}}}
      """
    Then the response status is 201
    When I wait until "/v1/simulator/deliveries?filter[subscription_id]={{subscription_id}}&filter[status]=failed" has field "data.0.attributes.attempt" equal to "1"
    And I send a GET request to "/v1/notification/subscriptions/{{subscription_id}}/errors"
    Then the response status is 200
    And the response matches the "subscription-delivery-error-list" schema
    And the response field "data.0.attributes.error_category" equals "queue_error"
    And the response field "data.0.attributes.response_code" equals "400"
    And the response field "data.0.attributes.error_message" contains "QueueDoesNotExist"
    When I send a GET request to "/v1/notification/subscriptions/{{subscription_id}}"
    Then the response field "data.attributes.deactivated" equals "false"

  @inprocess
  Scenario: Finished deliveries past the history kept are pruned with their attempts
    Given the simulator keeps at most 1 finished deliveries
    And I subscribe to "created" events of "accounts"
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Samantha Holder"]}}}
      """
    Then a "created" notification for "accounts" arrives
    When I wait until "/v1/simulator/deliveries/{{notification.id}}" has field "data.attributes.status" equal to "delivered"
    And I remember "{{notification.id}}" as "first_notification_id"
    And I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{other_account_number}}",
          "name": ["Robert Holder"]}}}
      """
    Then a "created" notification for "accounts" arrives
    When I wait until "/v1/simulator/deliveries/{{notification.id}}" has field "data.attributes.status" equal to "delivered"
    And I send a GET request to "/v1/simulator/deliveries/{{first_notification_id}}"
    Then the response status is 404
    When I send a GET request to "/v1/simulator/deliveries?filter[subscription_id]={{subscription_id}}"
    Then the response field "data.0.attributes.notification_id" equals "{{notification.id}}"
    And the response field "data.1" is absent

  Scenario: A queue subscription needs an SQS queue URL
    When I send a POST request to "/v1/notification/subscriptions" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "subscriptions",
        "attributes": {"event_type": "created", "record_type": "accounts", "callback_transport": "queue",
          "callback_uri": "{{webhook_url}}"}}}
      """
    Then the response status is 400
    And the error message contains "callback_uri in body must be an SQS queue URL"

  Scenario: A subscription PATCH checks the id and organisation it repeats, and ignores undeclared attributes
    Given I subscribe to "created" events of "accounts"
    When I send a PATCH request to "/v1/notification/subscriptions/{{subscription_id}}" with body:
      """
      {"data": {"id": "{{new_uuid}}", "version": 0, "attributes": {"deactivated": true}}}
      """
    Then the response status is 400
    And the error message contains "id in body must equal the id in the path"
    When I send a PATCH request to "/v1/notification/subscriptions/{{subscription_id}}" with body:
      """
      {"data": {"id": "{{subscription_id}}", "organisation_id": "{{new_uuid}}", "version": 0, "attributes": {"deactivated": true}}}
      """
    Then the response status is 403
    And the error message contains "is not the organisation of this client"
    When I send a PATCH request to "/v1/notification/subscriptions/{{subscription_id}}" with body:
      """
      {"data": {"version": 0, "attributes": {"colour": "red"}}}
      """
    Then the response status is 200
    And the response field "data.attributes.colour" is absent

  Scenario: A filter narrows a subscription, and user-defined data travels with the notification
    Given a new id remembered as "subscription_id"
    When I send a POST request to "/v1/notification/subscriptions" with body:
      """
      {"data": {"id": "{{subscription_id}}", "organisation_id": "{{organisation_id}}", "type": "subscriptions",
        "attributes": {"event_type": "created", "record_type": "accounts", "callback_transport": "http",
          "callback_uri": "{{webhook_url}}/hooks/{{subscription_id}}", "filter": "attributes.account_number={{account_number}}",
          "user_defined_data": [{"key": "team", "value": "payments"}]}}}
      """
    Then the response status is 201
    And the response matches the "subscription-single" schema
    When I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{new_uuid}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{other_account_number}}",
          "name": ["Not Matched"]}}}
      """
    And I send a POST request to "/v1/organisation/accounts" with body:
      """
      {"data": {"id": "{{account_id}}", "organisation_id": "{{organisation_id}}", "type": "accounts",
        "attributes": {"country": "GB", "bank_id": "{{sort_code}}", "bank_id_code": "GBDSC", "bic": "{{bic}}", "account_number": "{{account_number}}",
          "name": ["Matched Holder"]}}}
      """
    Then a "created" notification for "accounts" arrives
    And the notification field "data.data.id" equals "{{account_id}}"
    And the notification field "user_defined_data.0.value" equals "payments"
    When I wait until "/v1/simulator/deliveries/{{notification.id}}" has field "data.attributes.status" equal to "delivered"
    And I send a GET request to "/v1/simulator/deliveries?filter[subscription_id]={{subscription_id}}"
    Then the response field "data" has 1 item
