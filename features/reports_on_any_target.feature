@reports
Feature: Reports on any target
  The reports that arrived for the organisation, on any target, staging included: the list, each
  report and its admission, and a download in each format the report offers. On staging these are
  the day's real reports; a simulator has those its clock has brought, and the one it is given
  through its injection route so that the list is never empty. Staging's list may be: the scenario
  is then skipped, saying so, for a step that loops over no report checks nothing.

  Background:
    Given I am authenticated as "northwind"

  @smoke
  Scenario: List the reports, fetch each, and download each format it offers
    Given a report the target lists, injected when the target is a simulator
    When I send a GET request to "/v1/notification/reports"
    Then the response status is 200
    And the response matches the "report-list" schema
    And every listed report fetches, with its admission, and downloads in each format it offers

  Scenario Outline: Each <report_type> report of the last working days downloads in every format it offers
    The window is CONFORMANCE_REPORT_DAYS Bacs working days (default 5) before today (London's date,
    or CONFORMANCE_TODAY) by processing_date. A target that lists no report of the type in it skips
    the scenario, saying so: it passes only on reports it really served. Each format is asked for
    with its Accept type and opened: a PDF with pages, the XML valid against its type's XSD
    (fixtures/reports/xsd, with xmllint), the zip's report.xhtml parsed as XHTML.
    Given the "<report_type>" reports the target lists for the last working days
    Then each of them offers the formats the double offers for its type
    And each of them fetches, with its admission naming it, and downloads in each format it offers

    Examples:
      | report_type                |
      | BACS_INPUT                 |
      | BACS_ARRIVAL               |
      | BACS_WITHDRAWAL            |
      | BACS_ARUCS                 |
      | BACS_ARUDD                 |
      | BACS_AUDDIS                |
      | BACS_AUDDIS_ACCEPTANCE     |
      | BACS_AUDDIS_REJECTION      |
      | BACS_ADDACS                |
      | BACS_AWACS                 |
      | BACS_DDIC_ADVICE           |
      | BACS_DDIC_CLAIM_SUBMISSION |
      | FPS_SETTLEMENT             |
      | FPS_SPONSORED_PARTICIPANT  |
      | FPS_TRANSACTION_SUMMARY    |
      | FPS_REJECTED_PAYMENTS      |
