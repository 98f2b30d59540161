@auth
Feature: Form3's security users: who may call, and by which credentials
  Form3's security users API (`/v1/security/users`) as go-form3's users client reads it: an
  organisation's users, each with its credentials (client ids, never a secret). On the simulator
  each client of the clients file is one user of its organisation, the client its one credential
  (docs/decisions/030-clients-are-security-users.md).

  Scenario: A user lists its organisation's users, fetches one and lists its credentials
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/security/users"
    Then the response status is 200
    And the response matches the "user-list" schema
    And I remember the response field "data.0.id" as "user"
    When I send a GET request to "/v1/security/users/{{user}}"
    Then the response status is 200
    And the response matches the "user-single" schema
    And the response field "data.id" equals "{{user}}"
    And the response field "data.organisation_id" equals "{{organisation_id}}"
    When I send a GET request to "/v1/security/users/{{user}}/credentials"
    Then the response status is 200
    And the response matches the "user-credential-list" schema

  @simulator
  Scenario: Each client is a user of its organisation, with the client as its credential
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/security/users"
    Then the response field "data" has 1 item
    And the response field "data.0.attributes.client_credential_ids.0" equals "{{northwind_client_id}}"
    And I remember the response field "data.0.id" as "user"
    When I send a GET request to "/v1/security/users/{{user}}/credentials"
    Then the response field "data.0.client_id" equals "{{northwind_client_id}}"
    And the response field "data.0.client_secret" is absent

  @simulator @two-organisations
  Scenario: Another organisation's user does not exist for you
    Given I am authenticated as "harbour"
    When I send a GET request to "/v1/security/users"
    Then I remember the response field "data.0.id" as "harbour_user"
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/security/users/{{harbour_user}}"
    Then the response status is 404
    And the error message contains "record {{harbour_user}} does not exist"
