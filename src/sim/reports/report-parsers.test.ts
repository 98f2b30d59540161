// A parser for each report type, as a bank's operations team writes one: XPath expressions of the
// kind public parsers use (so-sure's BacsService, xml2js walks of ARUDD), run over the XML file the
// simulator serves, checked against the report's data (the rows a client gave, the report's
// attributes, the service user of fixtures/reports/service-users.json).
import { describe, expect, it } from 'vitest';
import { HARBOUR_SUN, reportParsingRuntime } from '../../../test/support/injected-report-xml.ts';

const xmlOf = reportParsingRuntime();

describe('ARUDD', () => {
  it('reads //ReturnedDebitItem/@returnCode, descriptions, amounts, payer accounts and totals', async () => {
    const q = await xmlOf('BACS_ARUDD', [
      {
        Reference: 'SOSURE01',
        PayerName: 'Fred Smith',
        PayerSortCode: '01-02-03',
        PayerAccountNumber: '12345678',
        Amount: '65',
        ReasonCode: '1',
        TransactionCode: '17',
        OriginalProcessingDate: '2026-12-16',
      },
      { Reference: 'SOSURE02', Amount: '1000.5', ReasonCode: '0' },
      { Reference: 'SOSURE03', Amount: '0.01', ReasonCode: 'b' },
    ]);
    expect(q('//BACSDocument/Data/ARUDD/Header/@currentProcessingDate')).toEqual(['2026-12-18']);
    expect(q('//ARUDD/ServiceLicenseInformation/@userNumber')).toEqual([HARBOUR_SUN]);
    expect(q('//ReturnedDebitItem/@ref')).toEqual(['SOSURE01', 'SOSURE02', 'SOSURE03']);
    expect(q('//ReturnedDebitItem/@returnCode')).toEqual(['1012', '0128', 'B000']);
    expect(q('//ReturnedDebitItem/@returnDescription')).toEqual([
      'INSTRUCTION CANCELLED',
      'REFER TO PAYER',
      'ACCOUNT CLOSED',
    ]);
    expect(q('//ReturnedDebitItem/@valueOf')).toEqual(['65.00', '1000.50', '0.01']);
    expect(q('//ReturnedDebitItem/@currency')).toEqual(['GBP', 'GBP', 'GBP']);
    expect(q('//ReturnedDebitItem[1]/@transCode')).toEqual(['17']);
    expect(q('//ReturnedDebitItem[1]/@originalProcessingDate')).toEqual(['2026-12-16']);
    expect(q('//ReturnedDebitItem[1]/PayerAccount/@name')).toEqual(['FRED SMITH']);
    expect(q('//ReturnedDebitItem[1]/PayerAccount/@sortCode')).toEqual(['01-02-03']);
    expect(q('//ReturnedDebitItem[1]/PayerAccount/@number')).toEqual(['12345678']);
    expect(q('//OriginatingAccountRecord/OriginatingAccount/@sortCode')).toEqual(['30-96-34']);
    expect(q('//OriginatingAccountRecord/Totals/@valueOf')).toEqual(['1065.51']);
    expect(q('//OriginatingAccountRecord/Totals/@numberOf')).toEqual(['3']);
  });
});

describe('ARUCS', () => {
  it('reads //ReturnedCreditItem/@returnCode and the payee account', async () => {
    const q = await xmlOf('BACS_ARUCS', [
      { Reference: 'PAYROLL7', PayeeSortCode: '112233', Amount: '1500', ReasonCode: '5', TransactionCode: '99' },
    ]);
    expect(q('//BACSDocument/Data/ARUCS/Header/@currentProcessingDate')).toEqual(['2026-12-18']);
    expect(q('//ReturnedCreditItem/@returnCode')).toEqual(['5']);
    expect(q('//ReturnedCreditItem/@returnDescription')).toEqual(['NO ACCOUNT']);
    expect(q('//ReturnedCreditItem/@transCode')).toEqual(['99']);
    expect(q('//ReturnedCreditItem/PayeeAccount/@sortCode')).toEqual(['11-22-33']);
    expect(q('//ARUCS//Totals/@valueOf')).toEqual(['1500.00']);
  });
});

describe('ADDACS', () => {
  it('reads //MessagingAdvice/@reason-code, the header and the new account of a transfer', async () => {
    const q = await xmlOf('BACS_ADDACS', [
      { Reference: 'MANDATE1', ReasonCode: '1' },
      { Reference: 'MANDATE2', ReasonCode: '3', NewSortCode: '654321', NewAccountNumber: '87654321' },
    ]);
    expect(q('//BACSDocument/Data/MessagingAdvices/MessagingHeader/@advice-type')).toEqual(['ADDACS']);
    expect(q('//MessagingHeader/@report-type')).toEqual(['7001']);
    expect(q('//MessagingHeader/@user-number')).toEqual([HARBOUR_SUN]);
    expect(q('//MessagingAdvice/@reason-code')).toEqual(['1', '3']);
    expect(q('//MessagingAdvice/@record-type')).toEqual(['A', 'A']);
    expect(q('//MessagingAdvice/@reference')).toEqual(['MANDATE1', 'MANDATE2']);
    expect(q('//MessagingAdvice/@effective-date')).toEqual(['2026-12-18', '2026-12-18']);
    expect(q("//MessagingAdvice[@reason-code='3']/@payer-new-sort-code")).toEqual(['654321']);
    expect(q("//MessagingAdvice[@reason-code='3']/@payer-new-account-number")).toEqual(['87654321']);
    expect(q("count(//MessagingAdvice[@reason-code='1']/@payer-new-sort-code)")).toEqual(['0']);
  });
});

describe('AUDDIS', () => {
  it('reads returned instructions: record type by transaction code, //MessagingAdvice/@reason-code', async () => {
    const q = await xmlOf('BACS_AUDDIS', [
      { Reference: 'NEWDDI1', TransactionCode: '0N', ReasonCode: '5' },
      { Reference: 'CANCEL1', TransactionCode: '0C', ReasonCode: 'B' },
      { Reference: 'CONVERT1', TransactionCode: '0S', ReasonCode: 'L' },
    ]);
    expect(q('//MessagingHeader/@advice-type')).toEqual(['AUDDIS']);
    expect(q('//MessagingHeader/@report-type')).toEqual(['7002']);
    expect(q('//MessagingAdvice/@record-type')).toEqual(['N', 'D', 'S']);
    expect(q('//MessagingAdvice/@reason-code')).toEqual(['5', 'B', 'L']);
  });

  it('reads a file acceptance (AUDACC 7003, record type V)', async () => {
    const q = await xmlOf('BACS_AUDDIS_ACCEPTANCE', [{ FileNumber: '010', AcceptedDDIs: 12 }]);
    expect(q('//MessagingHeader/@advice-type')).toEqual(['AUDACC']);
    expect(q('//MessagingHeader/@report-type')).toEqual(['7003']);
    expect(q('//MessagingAdvice/@record-type')).toEqual(['V']);
    expect(q('//MessagingAdvice/@originator-file-number')).toEqual(['010']);
    expect(q('//MessagingAdvice/@accepted-ddi')).toEqual(['12']);
    expect(q('//MessagingAdvice/@rejected-ddi')).toEqual(['0']);
    expect(q('//MessagingAdvice/@processing-date')).toEqual(['2026-12-18']);
  });

  it('reads a file rejection (AUDREJ 7004, record type R) and its //MessagingError/@line1', async () => {
    const q = await xmlOf('BACS_AUDDIS_REJECTION', [{ FileNumber: '009', RejectedDDIs: 1 }]);
    expect(q('//MessagingHeader/@advice-type')).toEqual(['AUDREJ']);
    expect(q('//MessagingAdvice/@record-type')).toEqual(['R']);
    expect(q('//MessagingAdvice/@file-error-code')).toEqual(['30264']);
    expect(q('//BACSDocument/Data/MessagingAdvices/MessagingError/@line1')).toEqual([
      'User Status is TEST on Arrival Day',
    ]);
  });
});

describe('AWACS', () => {
  it('reads record type W with the new sort code and account', async () => {
    const q = await xmlOf('BACS_AWACS', [
      { Reference: 'SUPPLIER9', ReasonCode: '3', NewSortCode: '20-00-00', NewAccountNumber: '55556666' },
    ]);
    expect(q('//MessagingHeader/@advice-type')).toEqual(['AWACS']);
    expect(q('//MessagingAdvice/@record-type')).toEqual(['W']);
    expect(q('//MessagingAdvice/@reference')).toEqual(['SUPPLIER9']);
    expect(q('//MessagingAdvice/@payer-new-sort-code')).toEqual(['200000']);
    expect(q('//MessagingAdvice/@payer-new-account-number')).toEqual(['55556666']);
  });
});

describe('Input report', () => {
  it('reads the processing date, user file, account totals and rejected items where so-sure reads them', async () => {
    const q = await xmlOf('BACS_INPUT', [
      { UserFileNumber: '012', DebitCount: 4, DebitValue: '100', CreditCount: 0, RejectedDebitCount: 1 },
    ]);
    const file = '//BACSDocument/Data/InputReport/Submission/UserFile/InputUserFile';
    expect(q('//BACSDocument/Data/InputReport/Header/ProcessingDate/@date')).toEqual(['2026-12-18']);
    expect(q('//BACSDocument/Data/InputReport/Header/@reportType')).toEqual(['REFT2013']);
    expect(q(`${file}/UserFileInformation/@userNumber`)).toEqual([HARBOUR_SUN]);
    expect(q(`${file}/UserFileInformation/@userFileNumber`)).toEqual(['012']);
    expect(q(`${file}/InputReportSummary/AccountTotals/AccountTotal/DebitEntry/AcceptedRecords/@numberOf`)).toEqual([
      '3',
    ]);
    expect(q(`${file}/InputReportSummary/AccountTotals/AccountTotal/DebitEntry/AcceptedRecords/@valueOf`)).toEqual([
      '75.00',
    ]);
    expect(q(`${file}/InputReportSummary/AccountTotals/AccountTotal/DebitEntry/RejectedRecords/@valueOf`)).toEqual([
      '25.00',
    ]);
    expect(q(`${file}/InputReportSummary/AccountTotals/AccountTotal/DebitEntry/TotalsRecords/@valueOf`)).toEqual([
      '100.00',
    ]);
    expect(
      q(`${file}/InputReportSummary/AccountTotals/AccountTotal/DebitContraEntry/AcceptedRecords/@valueOf`),
    ).toEqual(['75.00']);
    expect(q(`${file}/Errors/Error/ErrorItem/@valueOf`)).toEqual(['25.00']);
    expect(q(`${file}/Errors/Error/ErrorMessage/@type`)).toEqual(['REJECTED']);
    expect(q(`${file}/Errors/TotalNumberOfErrors/@rejectedRecords`)).toEqual(['1']);
    expect(q(`${file}/DaySection/Totals/Debit/@valueOf`)).toEqual(['75.00']);
    expect(q(`${file}/DaySection/Totals/Debit/Contra/@valueOf`)).toEqual(['75.00']);
  });
});

describe('Arrival and Withdrawal reports', () => {
  it('read the arrived file totals', async () => {
    const q = await xmlOf('BACS_ARRIVAL', [
      { UserFileNumber: '003', DebitCount: 2, DebitValue: '40.5', CreditCount: 1, CreditValue: '40.5' },
    ]);
    const totals = '//BACSDocument/Data/ArrivalReport/Submission/UserFile/ArrivalUserFile/DaySection/Totals';
    expect(q(`${totals}/Debit/@valueOf`)).toEqual(['40.50']);
    expect(q(`${totals}/Credit/@numberOf`)).toEqual(['1']);
  });

  it('read the withdrawn file where so-sure reads it, the bureau number being the SUN', async () => {
    const q = await xmlOf('BACS_WITHDRAWAL', [
      { UserFileNumber: '004', DebitCount: 1, DebitValue: '9.99', CreditCount: 0, Reason: 'Duplicate file' },
    ]);
    expect(q('//BACSDocument/Data/WithdrawalReport/Submission/SubmissionInformation/@bureauNumber')).toEqual([
      HARBOUR_SUN,
    ]);
    const totals = '//BACSDocument/Data/WithdrawalReport/Submission/UserFile/WithdrawalUserFile/DaySection/Totals';
    expect(q(`${totals}/Debit/@valueOf`)).toEqual(['9.99']);
    expect(q(`${totals}/Credit/@valueOf`)).toEqual(['0.00']);
    expect(q('//WithdrawalUserFile/WithdrawalInformation/@reason')).toEqual(['Duplicate file']);
  });
});
