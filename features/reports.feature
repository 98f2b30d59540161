@reports
Feature: Scheme reports
  Reports of the Bacs and Faster Payments schemes arrive on the scheme clock. Each arrival is a
  Report and a Report Admission; the report's JSON links every format it is offered in, and the
  same path answers the file when asked for that format's content type.

  Background:
    Given I am authenticated as "northwind"

  Scenario: Reading the report list and its errors
    When I send a GET request to "/v1/notification/reports?page[size]=5"
    Then the response status is 200
    And the response matches the "report-list" schema
    When I send a GET request to "/v1/notification/reports/{{new_uuid}}"
    Then the response status is 404
    And the response matches the "error" schema
    When I send a GET request to "/v1/notification/reports?filter[processing_date_from]=someday"
    Then the response status is 400
    And the response matches the "error" schema

  Scenario: Report downloads need a token like every other call
    Given I am not authenticated
    When I send a GET request to "/v1/notification/reports/{{new_uuid}}" with headers:
      | accept | application/pdf |
    Then the response status is 401
    And the response header "www-authenticate" contains "Bearer"

  @simulator
  Scenario: The next working day's reports arrive and download in every format
    When the scheme clock advances 1 working day
    And I send a GET request to "/v1/notification/reports?filter[report_type]=BACS_ARUDD"
    Then the response status is 200
    And the response matches the "report-list" schema
    And the response field "data" has 1 item
    And I remember the response field "data.0.id" as "report_id"
    And I remember the response field "data.0.relationships.report_admission.data.0.id" as "admission_id"
    When I send a GET request to "/v1/notification/reports/{{report_id}}" with headers:
      | accept | application/json |
    Then the response status is 200
    And the response matches the "report-single" schema
    And the response field "data.attributes.report_source" equals "bacs-originator"
    And the response field "links.self.href" equals "/v1/notification/reports/{{report_id}}"
    And I remember the response field "data.attributes.processing_date" as "processing_date"
    And I remember the response field "links" as "report_links"
    When I download the "pdf" link of "report_links"
    Then the response is a valid "pdf" file containing "Automated Return of Unpaid Direct Debits|{{report_id}}|{{processing_date}}|Service user number|Advice number|Originating account"
    When I download the "xml" link of "report_links"
    Then the response is a valid "xml" file containing "<ARUDD>|{{processing_date}}"
    And the XML file's "/BACSDocument/Data/ARUDD/Header/@currentProcessingDate" is "{{processing_date}}"
    And the XML file selects "//ReturnedDebitItem/@returnCode"
    When I download the "zipped_xhtml" link of "report_links"
    Then the response is a valid "zipped_xhtml" file containing "{{report_id}}|{{processing_date}}"
    When I send a GET request to "/v1/notification/reports/{{report_id}}/admissions/{{admission_id}}"
    Then the response status is 200
    And the response matches the "report-admission-single" schema
    And the response field "data.attributes.status" equals "delivery_confirmed"
    And the response field "data.relationships.report.data.0.id" equals "{{report_id}}"

  @simulator
  Scenario: A report injected now, with its own rows, and a format it does not offer
    When I send a POST request to "/v1/simulator/reports" with body:
      """
      {"report_type": "BACS_ARRIVAL", "processing_date": "2026-12-22",
       "rows": [{"UserFileNumber": "123", "DebitCount": 42, "DebitValue": "12345.6"}]}
      """
    Then the response status is 201
    And the response matches the "report-single" schema
    And the response field "data.attributes.formats" equals "[\"pdf\",\"xml\"]"
    And the response field "links.zipped_xhtml" is absent
    And I remember the response field "data.id" as "report_id"
    And I remember the response field "links" as "report_links"
    When I download the "pdf" link of "report_links"
    Then the response is a valid "pdf" file containing "Bacs Arrival Report|User file 123|GBP 12,345.60|2026-12-22"
    When I send a GET request to "/v1/notification/reports/{{report_id}}" with headers:
      | accept | application/xhtml+zip |
    Then the response status is 406
    And the error message contains "acceptable: application/json, application/vnd.api+json, application/pdf, application/xml"
    When I send a GET request to "/v1/notification/reports/{{report_id}}/content" with headers:
      | accept | application/xml |
    Then the response is a valid "xml" file containing "<ArrivalReport>"
    And the XML file's "//ArrivalUserFile/UserFileInformation/@userFileNumber" is "123"
    And the XML file's "//ArrivalUserFile/DaySection/Totals/Debit/@valueOf" is "12345.60"

  @simulator
  Scenario: Injected rows are bounded: a value over 200 characters is refused, naming the row and the limit
    When I send a POST request to "/v1/simulator/reports" with body:
      """
      {"report_type": "BACS_ARRIVAL", "rows": [{"Note": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}]}
      """
    Then the response status is 400
    And the error message contains "rows.0.Note in body should be at most 200 chars long"

  @simulator
  Scenario: A client's rows must be the report type's fields, in the scheme's formats
    When I send a POST request to "/v1/simulator/reports" with body:
      """
      {"report_type": "BACS_ARUDD", "rows": [{"Reference": "RENT2026", "PayerSortCode": "12-34-5"}]}
      """
    Then the response status is 400
    And the response matches the "error" schema
    And the error message contains "rows.0.PayerSortCode in body should match"
    When I send a POST request to "/v1/simulator/reports" with body:
      """
      {"report_type": "BACS_ARUDD", "rows": [{"Payer Name": "SMITH J"}]}
      """
    Then the response status is 400
    And the error message contains "rows.0.Payer Name in body is not a field of BACS_ARUDD rows; fields: Reference, PayerName"

  @simulator
  Scenario Outline: Every report type downloads in each format it offers, in its scheme's structure
    When I send a POST request to "/v1/simulator/reports" with body:
      """
      {"report_type": "<report_type>", "processing_date": "2026-12-18"}
      """
    Then the response status is 201
    And I remember the response field "data.id" as "report_id"
    And I remember the response field "links" as "report_links"
    When I download every format of "report_links", each a valid file containing "<in every format>"
    And I download the "pdf" link of "report_links"
    Then the response is a valid "pdf" file containing "{{report_id}}|<header>|Report totals"
    When I download the "xml" link of "report_links"
    Then the XML file selects "<xpath>"

    Examples:
      | report_type                | in every format                | header              | xpath                                                                                                             |
      | BACS_INPUT                 | 2026-12-18\|412785             | Service user number | /BACSDocument/Data/InputReport/Submission/UserFile/InputUserFile/UserFileInformation/@userNumber                  |
      | BACS_ARRIVAL               | 2026-12-18\|412785             | Service user number | /BACSDocument/Data/ArrivalReport/Submission/UserFile/ArrivalUserFile/DaySection/Totals/Debit/@valueOf             |
      | BACS_WITHDRAWAL            | 2026-12-18\|412785             | Service user number | /BACSDocument/Data/WithdrawalReport/Submission/SubmissionInformation/@bureauNumber                                |
      | BACS_ARUCS                 | 2026-12-18\|NORTHWIND BANK PLC | Advice number       | /BACSDocument/Data/ARUCS/Advice/OriginatingAccountRecords/OriginatingAccountRecord/ReturnedCreditItem/@returnCode |
      | BACS_ARUDD                 | 2026-12-18\|NORTHWIND BANK PLC | Advice number       | /BACSDocument/Data/ARUDD/Advice/OriginatingAccountRecords/OriginatingAccountRecord/ReturnedDebitItem/@returnCode  |
      | BACS_AUDDIS                | 2026-12-18\|412785             | Document number     | /BACSDocument/Data/MessagingAdvices/MessagingAdvice/@reason-code                                                  |
      | BACS_AUDDIS_ACCEPTANCE     | 2026-12-18\|412785             | Document number     | /BACSDocument/Data/MessagingAdvices/MessagingAdvice[@record-type='V']/@accepted-ddi                               |
      | BACS_AUDDIS_REJECTION      | 2026-12-18\|412785             | Document number     | /BACSDocument/Data/MessagingAdvices/MessagingError/@line1                                                         |
      | BACS_ADDACS                | 2026-12-18\|412785             | Document number     | /BACSDocument/Data/MessagingAdvices/MessagingHeader[@advice-type='ADDACS']/@report-type                           |
      | BACS_AWACS                 | 2026-12-18\|412785             | Document number     | /BACSDocument/Data/MessagingAdvices/MessagingAdvice[@record-type='W']/@payer-new-sort-code                        |
      | BACS_DDIC_ADVICE           | 2027-01-11\|412785             | Date of debit       | /VocaDocument/Data/Document/NewAdvices/TotalValueOfDebits                                                         |
      | BACS_DDIC_CLAIM_SUBMISSION | 2026-12-18\|NORTHWIND BANK PLC | Claims submitted    | /VocaDocument/Data/Document/SubmittedClaims/DDICClaim/SeqNo                                                       |
      | FPS_SETTLEMENT             | 2026-12-18\|Northwind Bank plc | Settlement date     | /FPSDocument/Data/SettlementReport/DailyTotals/NetPosition/@valueOf                                               |
      | FPS_SPONSORED_PARTICIPANT  | 2026-12-18\|Northwind Bank plc | Settlement date     | /FPSDocument/Data/SponsoredParticipantReport/SponsorTotals/NetPosition/@valueOf                                   |
      | FPS_TRANSACTION_SUMMARY    | 2026-12-18\|Northwind Bank plc | Settlement date     | /FPSDocument/Data/TransactionSummary/PaymentType[@type='SIP']/Outbound/@valueOf                                   |
      | FPS_REJECTED_PAYMENTS      | 2026-12-18\|Northwind Bank plc | Settlement date     | /FPSDocument/Data/RejectedPayments/Totals/@valueOf                                                                |

  @simulator
  Scenario: Only sponsors get the Faster Payments sponsored participant report
    When the scheme clock advances 1 working day
    And I send a GET request to "/v1/notification/reports?filter[report_type]=FPS_SPONSORED_PARTICIPANT"
    Then the response field "data" has 1 item
    And the response field "data.0.attributes.report_source" equals "fps-sponsor"
    Given I am authenticated as "harbour"
    When I send a GET request to "/v1/notification/reports?filter[report_type]=FPS_SPONSORED_PARTICIPANT"
    Then the response field "data" has 0 items
    When I send a POST request to "/v1/simulator/reports" with body:
      """
      {"report_type": "FPS_SPONSORED_PARTICIPANT"}
      """
    Then the response status is 422
    And the error message contains "only available to organisations that sponsor other participants"

  @simulator @notifications
  Scenario: Subscribers are notified when a report arrives, and fetch it from the notification
    Given I subscribe to "created" events of "report_admissions"
    When the scheme clock advances 1 working day
    Then a "created" notification for "report_admissions" arrives
    When I remember the report of the "BACS_ADDACS" report_admissions notification as "report_id"
    And I send a GET request to "/v1/notification/reports/{{report_id}}" with headers:
      | accept | application/json |
    Then the response status is 200
    And the response matches the "report-single" schema
    And the response field "data.attributes.report_type" equals "BACS_ADDACS"
    And I remember the response field "links" as "report_links"
    When I download the "pdf" link of "report_links"
    Then the response is a valid "pdf" file containing "Automated Direct Debit Amendment and Cancellation Service|{{report_id}}"
    When I download the "xml" link of "report_links"
    Then the response is a valid "xml" file containing "advice-type=\"ADDACS\""
    And the XML file selects "//MessagingAdvice/@reason-code"
    When I download the "zipped_xhtml" link of "report_links"
    Then the response is a valid "zipped_xhtml" file containing "{{report_id}}"

  @simulator @notifications
  Scenario: A subscriber on an SQS queue reads each arriving report off its queue
    Given I subscribe to "created" events of "report_admissions" on a new SQS queue
    When the scheme clock advances 1 working day
    Then a "created" notification for "report_admissions" with "data.data.relationships.report.data.0.attributes.report_type" equal to "BACS_ADDACS" arrives on the queue
    And the notification matches the "notification" schema
    And the queue message attribute "record_type" equals "report_admissions"
    When I send a GET request to "/v1/notification/reports/{{notification.data.data.relationships.report.data.0.id}}" with headers:
      | accept | application/json |
    Then the response status is 200
    And the response matches the "report-single" schema
    And the response field "data.attributes.report_type" equals "BACS_ADDACS"
    And I remember the response field "links" as "report_links"
    When I download the "pdf" link of "report_links"
    Then the response is a valid "pdf" file containing "Automated Direct Debit Amendment and Cancellation Service"
