@reports
Feature: Reports on any target
  The reports that arrived for the organisation, on any target, staging included: the list, each
  report and its admission, and a download in each format the report offers. On staging these are
  the day's real reports; a simulator has those its clock has brought (the in-process target
  injects none here, so its list may be empty: the steps then check the empty list's shape).

  Background:
    Given I am authenticated as "northwind"

  @smoke
  Scenario: List the reports, fetch each, and download each format it offers
    When I send a GET request to "/v1/notification/reports"
    Then the response status is 200
    And the response matches the "report-list" schema
    And every listed report fetches, with its admission, and downloads in each format it offers
