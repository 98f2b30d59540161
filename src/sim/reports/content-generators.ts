import type { Faker } from '@faker-js/faker';
import type { ContentKind } from './catalogue.ts';

/** A column of a report table: `key` names the field (XML element), `label` heads the column. */
export interface Column {
  key: string;
  label: string;
}

export interface GeneratedTable {
  columns: Column[];
  rows: Array<Record<string, string>>;
}

const col = (key: string, label: string): Column => ({ key, label });

const sortCode = (f: Faker) => f.string.numeric(6);
const accountNumber = (f: Faker) => f.string.numeric(8);
/** An amount in pounds as a decimal string, from whole pence. */
const amount = (f: Faker, min = 100, max = 250_000) => (f.number.int({ min, max }) / 100).toFixed(2);
const reference = (f: Faker, prefix = '') => `${prefix}${f.string.alphanumeric({ length: 10, casing: 'upper' })}`;
const holder = (f: Faker) => `${f.person.lastName().toUpperCase()} ${f.person.firstName().charAt(0)}`.slice(0, 18);

type RowMaker = (f: Faker, i: number, date: string) => Record<string, string>;

function table(f: Faker, date: string, columns: Column[], make: RowMaker, min = 3, max = 20): GeneratedTable {
  const n = f.number.int({ min, max });
  const rows: Array<Record<string, string>> = [];
  for (let i = 0; i < n; i++) rows.push(make(f, i, date));
  return { columns, rows };
}

const ARUDD_REASONS = [
  '0 Refer to payer',
  '1 Instruction cancelled',
  '2 Payer deceased',
  '3 Account transferred',
  '5 No account',
  '6 No instruction',
  'B Account closed',
];
const ADDACS_REASONS = [
  '0 Instruction cancelled by payer',
  '1 Payer deceased',
  '3 Account transferred',
  'B Account closed',
  'C Account transferred to a new bank',
  'E Instruction amended',
];
const AUDDIS_REASONS = [
  '1 Instruction cancelled by payer',
  '2 Payer deceased',
  '5 No account',
  'B Account closed',
  'F Invalid account type',
  'G Bank will not accept Direct Debits on account',
  'L Incorrect payer account details',
];
const ARUCS_REASONS = [
  '1 Beneficiary deceased',
  '2 Account transferred',
  '3 Beneficiary deceased',
  '5 No account',
  '6 Beneficiary advised no longer required',
  'B Account closed',
];
const FPS_REJECTS = [
  'AC01 Incorrect account number',
  'AC04 Closed account number',
  'AM04 Insufficient funds',
  'BE05 Unrecognised initiating party',
  'AG01 Transaction forbidden',
];
const FPS_TYPES = ['SIP', 'SOP', 'FDP', 'RTN'];

const GENERATORS: Record<ContentKind, (f: Faker, date: string) => GeneratedTable> = {
  input_totals: (f, date) =>
    table(
      f,
      date,
      [
        col('FileNumber', 'File'),
        col('ServiceUserNumber', 'SUN'),
        col('ProcessingDate', 'Processing date'),
        col('DebitCount', 'Debits'),
        col('DebitValue', 'Debit value'),
        col('CreditCount', 'Credits'),
        col('CreditValue', 'Credit value'),
        col('Status', 'Status'),
      ],
      (f, i, d) => ({
        FileNumber: String(i + 1).padStart(3, '0'),
        ServiceUserNumber: f.string.numeric(6),
        ProcessingDate: d,
        DebitCount: String(f.number.int({ min: 1, max: 900 })),
        DebitValue: amount(f, 10_000, 9_000_000),
        CreditCount: String(f.number.int({ min: 0, max: 3 })),
        CreditValue: amount(f, 10_000, 9_000_000),
        Status: f.helpers.arrayElement(['ACCEPTED', 'ACCEPTED', 'ACCEPTED', 'REJECTED']),
      }),
      1,
      6,
    ),
  arrivals: (f, date) =>
    table(
      f,
      date,
      [
        col('SubmissionSerial', 'Submission'),
        col('ServiceUserNumber', 'SUN'),
        col('ArrivalTime', 'Arrived'),
        col('FileCount', 'Files'),
        col('RecordCount', 'Records'),
      ],
      (f) => ({
        SubmissionSerial: f.string.numeric(6),
        ServiceUserNumber: f.string.numeric(6),
        ArrivalTime: `${String(f.number.int({ min: 7, max: 21 })).padStart(2, '0')}:${String(f.number.int({ min: 0, max: 59 })).padStart(2, '0')}`,
        FileCount: String(f.number.int({ min: 1, max: 4 })),
        RecordCount: String(f.number.int({ min: 1, max: 5000 })),
      }),
      1,
      8,
    ),
  withdrawals: (f, date) =>
    table(
      f,
      date,
      [
        col('SubmissionSerial', 'Submission'),
        col('ServiceUserNumber', 'SUN'),
        col('FileNumber', 'File'),
        col('WithdrawnBy', 'Withdrawn by'),
        col('Reason', 'Reason'),
      ],
      (f) => ({
        SubmissionSerial: f.string.numeric(6),
        ServiceUserNumber: f.string.numeric(6),
        FileNumber: f.string.numeric(3),
        WithdrawnBy: f.person.fullName(),
        Reason: f.helpers.arrayElement([
          'Duplicate file',
          'Incorrect processing date',
          'Wrong amounts',
          'Requested by service user',
        ]),
      }),
      0,
      3,
    ),
  returned_credits: (f, date) =>
    table(
      f,
      date,
      [
        col('Reference', 'Reference'),
        col('PayeeName', 'Payee'),
        col('SortCode', 'Sort code'),
        col('AccountNumber', 'Account'),
        col('Amount', 'Amount'),
        col('ReturnCode', 'Reason'),
      ],
      (f) => ({
        Reference: reference(f),
        PayeeName: holder(f),
        SortCode: sortCode(f),
        AccountNumber: accountNumber(f),
        Amount: amount(f),
        ReturnCode: f.helpers.arrayElement(ARUCS_REASONS),
      }),
    ),
  returned_debits: (f, date) =>
    table(
      f,
      date,
      [
        col('Reference', 'Reference'),
        col('PayerName', 'Payer'),
        col('SortCode', 'Sort code'),
        col('AccountNumber', 'Account'),
        col('Amount', 'Amount'),
        col('OriginalProcessingDate', 'Debit date'),
        col('ReturnCode', 'Reason'),
      ],
      (f, _i, d) => ({
        Reference: reference(f),
        PayerName: holder(f),
        SortCode: sortCode(f),
        AccountNumber: accountNumber(f),
        Amount: amount(f),
        OriginalProcessingDate: d,
        ReturnCode: f.helpers.arrayElement(ARUDD_REASONS),
      }),
    ),
  ddi_rejections: (f, date) =>
    table(
      f,
      date,
      [
        col('Reference', 'Reference'),
        col('PayerName', 'Payer'),
        col('SortCode', 'Sort code'),
        col('AccountNumber', 'Account'),
        col('TransactionCode', 'Code'),
        col('ReasonCode', 'Reason'),
      ],
      (f) => ({
        Reference: reference(f),
        PayerName: holder(f),
        SortCode: sortCode(f),
        AccountNumber: accountNumber(f),
        TransactionCode: f.helpers.arrayElement(['0N', '0C', '0S']),
        ReasonCode: f.helpers.arrayElement(AUDDIS_REASONS),
      }),
    ),
  ddi_amendments: (f, date) =>
    table(
      f,
      date,
      [
        col('Reference', 'Reference'),
        col('PayerName', 'Payer'),
        col('SortCode', 'Sort code'),
        col('AccountNumber', 'Account'),
        col('NewSortCode', 'New sort code'),
        col('NewAccountNumber', 'New account'),
        col('ReasonCode', 'Reason'),
        col('EffectiveDate', 'Effective'),
      ],
      (f, _i, d) => {
        const reason = f.helpers.arrayElement(ADDACS_REASONS);
        const moves = reason.startsWith('3') || reason.startsWith('C') || reason.startsWith('E');
        return {
          Reference: reference(f),
          PayerName: holder(f),
          SortCode: sortCode(f),
          AccountNumber: accountNumber(f),
          NewSortCode: moves ? sortCode(f) : '',
          NewAccountNumber: moves ? accountNumber(f) : '',
          ReasonCode: reason,
          EffectiveDate: d,
        };
      },
    ),
  account_changes: (f, date) =>
    table(
      f,
      date,
      [
        col('Reference', 'Reference'),
        col('PayeeName', 'Payee'),
        col('OldSortCode', 'Old sort code'),
        col('OldAccountNumber', 'Old account'),
        col('NewSortCode', 'New sort code'),
        col('NewAccountNumber', 'New account'),
        col('EffectiveDate', 'Effective'),
      ],
      (f, _i, d) => ({
        Reference: reference(f),
        PayeeName: holder(f),
        OldSortCode: sortCode(f),
        OldAccountNumber: accountNumber(f),
        NewSortCode: sortCode(f),
        NewAccountNumber: accountNumber(f),
        EffectiveDate: d,
      }),
    ),
  ddic_advices: (f, date) =>
    table(
      f,
      date,
      [
        col('DDICReference', 'DDIC reference'),
        col('PayingBank', 'Paying bank'),
        col('PayerName', 'Payer'),
        col('OriginalReference', 'DD reference'),
        col('ReasonCode', 'Reason'),
        col('TotalAmount', 'Amount'),
        col('SettlementDate', 'Settles'),
      ],
      (f, _i, d) => ({
        DDICReference: reference(f, 'DDIC'),
        PayingBank: sortCode(f),
        PayerName: holder(f),
        OriginalReference: reference(f),
        ReasonCode: String(f.number.int({ min: 1, max: 8 })),
        TotalAmount: amount(f),
        SettlementDate: d,
      }),
      0,
      10,
    ),
  ddic_claims: (f, date) =>
    table(
      f,
      date,
      [
        col('Reference', 'Reference'),
        col('SequenceNumber', 'Sequence number'),
        col('OriginatorSUN', 'Originator SUN'),
        col('ReasonCode', 'Reason'),
        col('Amount', 'Amount'),
      ],
      (f) => ({
        Reference: reference(f, 'DDIC'),
        SequenceNumber: f.string.numeric(10),
        OriginatorSUN: f.string.numeric(6),
        ReasonCode: String(f.number.int({ min: 1, max: 8 })),
        Amount: amount(f),
      }),
      1,
      10,
    ),
  settlement_positions: (f, date) =>
    table(
      f,
      date,
      [
        col('Cycle', 'Cycle'),
        col('SentCount', 'Sent'),
        col('SentValue', 'Sent value'),
        col('ReceivedCount', 'Received'),
        col('ReceivedValue', 'Received value'),
        col('NetPosition', 'Net position'),
      ],
      (f, i) => {
        const sent = f.number.int({ min: 100_000, max: 900_000_000 });
        const received = f.number.int({ min: 100_000, max: 900_000_000 });
        return {
          Cycle: String(i + 1),
          SentCount: String(f.number.int({ min: 10, max: 50_000 })),
          SentValue: (sent / 100).toFixed(2),
          ReceivedCount: String(f.number.int({ min: 10, max: 50_000 })),
          ReceivedValue: (received / 100).toFixed(2),
          NetPosition: ((received - sent) / 100).toFixed(2),
        };
      },
      3,
      3,
    ),
  sponsored_positions: (f, date) =>
    table(
      f,
      date,
      [
        col('ParticipantName', 'Sponsored participant'),
        col('SortCode', 'Sort code'),
        col('SentCount', 'Sent'),
        col('SentValue', 'Sent value'),
        col('ReceivedCount', 'Received'),
        col('ReceivedValue', 'Received value'),
      ],
      (f) => ({
        ParticipantName: f.company.name(),
        SortCode: sortCode(f),
        SentCount: String(f.number.int({ min: 0, max: 5000 })),
        SentValue: amount(f, 0, 90_000_000),
        ReceivedCount: String(f.number.int({ min: 0, max: 5000 })),
        ReceivedValue: amount(f, 0, 90_000_000),
      }),
      1,
      6,
    ),
  transaction_summary: (f, date) =>
    table(
      f,
      date,
      [col('PaymentType', 'Payment type'), col('Direction', 'Direction'), col('Count', 'Count'), col('Value', 'Value')],
      (f, i) => ({
        PaymentType: FPS_TYPES[Math.floor(i / 2) % FPS_TYPES.length]!,
        Direction: i % 2 === 0 ? 'Outbound' : 'Inbound',
        Count: String(f.number.int({ min: 0, max: 20_000 })),
        Value: amount(f, 0, 500_000_000),
      }),
      FPS_TYPES.length * 2,
      FPS_TYPES.length * 2,
    ),
  rejected_payments: (f, date) =>
    table(
      f,
      date,
      [
        col('FPID', 'FPID'),
        col('PaymentType', 'Type'),
        col('Amount', 'Amount'),
        col('BeneficiarySortCode', 'Beneficiary sort code'),
        col('BeneficiaryAccount', 'Beneficiary account'),
        col('RejectReason', 'Reason'),
      ],
      (f) => ({
        FPID: f.string.alphanumeric({ length: 18, casing: 'upper' }),
        PaymentType: f.helpers.arrayElement(FPS_TYPES),
        Amount: amount(f),
        BeneficiarySortCode: sortCode(f),
        BeneficiaryAccount: accountNumber(f),
        RejectReason: f.helpers.arrayElement(FPS_REJECTS),
      }),
      0,
      12,
    ),
};

/** Rows of a report of this kind, drawn from `f` (seeded by the caller). */
export function generateTable(kind: ContentKind, f: Faker, processingDate: string): GeneratedTable {
  return GENERATORS[kind](f, processingDate);
}
