// A parser for each report type, as a bank's operations team writes one: XPath expressions of the
// kind public parsers use (so-sure's BacsService, xml2js walks of ARUDD), run over the XML file the
// simulator serves, checked against the report's data (the rows a client gave, the report's
// attributes, the service user of fixtures/reports/service-users.json).
import { describe, expect, it } from 'vitest';
import { HARBOUR_SUN, reportParsingRuntime } from '../../../test/support/injected-report-xml.ts';
import { NORTHWIND } from '../../harness/test-runtime.ts';
import { difference, sum } from './report-view.ts';

const xmlOf = reportParsingRuntime();

describe('DDIC advice', () => {
  it('reads VocaDocument NewAdvices as so-sure does: date of debit, total, each advice', async () => {
    const q = await xmlOf('BACS_DDIC_ADVICE', [
      {
        SUReference: 'POLICY1',
        PayingBankReference: 'DDICNW0001',
        ReasonCode: '5',
        Amount: '30',
        DateOfDirectDebit: '2026-11-02',
      },
      { SUReference: 'POLICY2', PayingBankReference: 'DDICNW0002', ReasonCode: '1', Amount: '12.5', Cancellation: 'Y' },
    ]);
    expect(q('//VocaDocument/Data/Document/ServiceUserNumber')).toEqual([HARBOUR_SUN]);
    expect(q('//VocaDocument/Data/Document/NewAdvices/DDICAdvice/SUReference')).toEqual(['POLICY1']);
    expect(q('//NewAdvices/DDICAdvice/PayingBankReference')).toEqual(['DDICNW0001']);
    expect(q('//NewAdvices/DDICAdvice/ReasonCode')).toEqual(['5']);
    expect(q('//NewAdvices/DDICAdvice/ReasonCodeMeaning')).toEqual([
      'No instruction held / payer disputes having given authority',
    ]);
    expect(q('//NewAdvices/DDICAdvice/TotalAmount')).toEqual(['30.00']);
    expect(q('//NewAdvices/DDICAdvice/DDCollections/DDCollection/DateOfDirectDebit')).toEqual(['2026-11-02']);
    expect(q('//NewAdvices/TotalValueOfDebits')).toEqual(['30.00']);
    // 14 working days after submission: D0 = 17 Dec; 25, 28 Dec and 1 Jan are holidays.
    expect(q('//NewAdvices/DateOfDebit')).toEqual(['2027-01-11']);
    expect(q('//Cancellations/DDICCancellation/SUReference')).toEqual(['POLICY2']);
    expect(q('//Cancellations/TotalValueOfCancellations')).toEqual(['12.50']);
  });
});

describe('DDIC claim submission report', () => {
  it('reads each claim: references, sequence number, service user, amount, and the day total', async () => {
    const q = await xmlOf('BACS_DDIC_CLAIM_SUBMISSION', [
      {
        Reference: 'DDICHB0001',
        SequenceNumber: '000000000101',
        OriginatorSUN: '123456',
        ReasonCode: '2',
        Amount: '20',
      },
      {
        Reference: 'DDICHB0002',
        SequenceNumber: '000000000102',
        OriginatorSUN: '123456',
        ReasonCode: '7',
        Amount: '0.5',
      },
    ]);
    expect(q('//VocaDocument/Data/Document/ProcessingDate')).toEqual(['2026-12-18']);
    expect(q('//SubmittedClaims/DDICClaim/PayingBankReference')).toEqual(['DDICHB0001', 'DDICHB0002']);
    expect(q('//SubmittedClaims/DDICClaim/SeqNo')).toEqual(['000000000101', '000000000102']);
    expect(q('//SubmittedClaims/DDICClaim/ServiceUserNumber')).toEqual(['123456', '123456']);
    expect(q('//SubmittedClaims/NumberOfClaims')).toEqual(['2']);
    expect(q('//SubmittedClaims/TotalValueOfClaims')).toEqual(['20.50']);
  });
});

describe('Faster Payments reports', () => {
  it('settlement: each cycle nets received − sent, and the day totals add the cycles up', async () => {
    const q = await xmlOf('FPS_SETTLEMENT', undefined, NORTHWIND, '2026-12-21');
    expect(q('//FPSDocument/Data/SettlementReport/Header/@settlementDate')).toEqual(['2026-12-21']);
    expect(q('count(//SettlementCycle)')).toEqual(['3']);
    for (const c of ['1', '2', '3']) {
      const at = `//SettlementCycle[@cycle='${c}']`;
      expect(q(`${at}/NetPosition/@valueOf`)).toEqual([
        difference(q(`${at}/Received/@valueOf`)[0]!, q(`${at}/Sent/@valueOf`)[0]!),
      ]);
    }
    expect(q('//DailyTotals/Sent/@valueOf')).toEqual([sum(q('//SettlementCycle/Sent/@valueOf'))]);
    expect(q('//DailyTotals/Received/@valueOf')).toEqual([sum(q('//SettlementCycle/Received/@valueOf'))]);
    expect(q('//DailyTotals/NetPosition/@valueOf')).toEqual([sum(q('//SettlementCycle/NetPosition/@valueOf'))]);
  });

  it('settlement: no cycles on a Saturday, a nil position', async () => {
    const q = await xmlOf('FPS_SETTLEMENT', undefined, NORTHWIND, '2026-12-19');
    expect(q('count(//SettlementCycle)')).toEqual(['0']);
    expect(q('//Header/@settlementDay')).toEqual(['false']);
    expect(q('//DailyTotals/NetPosition/@position')).toEqual(['NIL']);
  });

  it('sponsored participants: each participant from the fixture, and the sponsor total of their net positions', async () => {
    const q = await xmlOf('FPS_SPONSORED_PARTICIPANT', undefined, NORTHWIND, '2026-12-21');
    expect(q('//SponsoredParticipant/@name')).toEqual([
      'Fenwick Payments Ltd',
      'Lanyard Credit Union',
      'Quayside Money Ltd',
    ]);
    for (const p of q('//SponsoredParticipant/@sortCode')) {
      const at = `//SponsoredParticipant[@sortCode='${p}']`;
      expect(q(`${at}/ParticipantTotals/NetPosition/@valueOf`)).toEqual([
        sum(q(`${at}/SettlementCycle/NetPosition/@valueOf`)),
      ]);
    }
    expect(q('//SponsorTotals/NetPosition/@valueOf')).toEqual([sum(q('//ParticipantTotals/NetPosition/@valueOf'))]);
  });

  it('transaction summary: given counts by payment type and direction, totals and net', async () => {
    const q = await xmlOf(
      'FPS_TRANSACTION_SUMMARY',
      [
        { PaymentType: 'SIP', Direction: 'OUTBOUND', Count: 10, Value: '100' },
        { PaymentType: 'SIP', Direction: 'INBOUND', Count: 5, Value: '250' },
        { PaymentType: 'RTN', Direction: 'inbound', Count: 1, Value: '3' },
      ],
      NORTHWIND,
    );
    expect(q("//PaymentType[@type='SIP']/Outbound/@numberOf")).toEqual(['10']);
    expect(q("//PaymentType[@type='SIP']/Inbound/@valueOf")).toEqual(['250.00']);
    expect(q("//PaymentType[@type='RTN']/Inbound/@valueOf")).toEqual(['3.00']);
    expect(q('//TransactionSummary/Totals/Inbound/@valueOf')).toEqual(['253.00']);
    expect(q('//TransactionSummary/Totals/NetPosition/@valueOf')).toEqual(['153.00']);
  });

  it('rejected payments: //RejectedPayment/@reasonCode with its description and the total', async () => {
    const q = await xmlOf('FPS_REJECTED_PAYMENTS', [{ FPID: 'FP1', Amount: '12', ReasonCode: '00000002' }], NORTHWIND);
    expect(q('//RejectedPayment/@reasonCode')).toEqual(['00000002']);
    expect(q('//RejectedPayment/@reasonDescription')).toEqual(['Beneficiary account closed']);
    expect(q('//RejectedPayments/Totals/@valueOf')).toEqual(['12.00']);
  });
});
