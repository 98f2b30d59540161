// Indemnity claims. The DDIC advice a service user receives is `VocaDocument/Data/Document` as
// public parsers read it (ServiceUserNumber, NewAdvices with DateOfDebit, TotalValueOfDebits and
// DDICAdvice records, Cancellations). The paying bank's claim submission report lists the claims it
// submitted that day in the same vocabulary (structure inferred: docs/reports.md); the simulation
// gives it the real claims, references and sequence numbers.
import type { Faker } from '@faker-js/faker';
import { draw, drawItems, type ReportContext } from './report-context.ts';
import { field, type Item, toDecimal } from './report-items.ts';
import { kind } from './report-kind.ts';
import { bacsHeader, count, dashedSortCode, money, type ReportView, sum, viewField } from './report-view.ts';
import { DDIC_REASONS, describeCode } from './scheme-codes.ts';
import type { ServiceUser } from './service-users.ts';
import { el, type XmlNode, xmlDocument } from './xml-writer.ts';

interface Claim {
  seqNo: string;
  payingBankReference: string;
  suReference: string;
  serviceUserNumber: string;
  reasonCode: string;
  payerSortCode: string;
  payerName: string;
  payerAccount: string;
  totalAmount: string;
  collections: Array<{ date: string; amount: string }>;
  claimId?: string;
  claimSubmissionId?: string;
}

interface DdicData {
  report: 'advice' | 'claims';
  title: string;
  reportId: string;
  generationTime: string;
  processingDate: string;
  settlementDate: string;
  user: ServiceUser;
  advices: Claim[];
  cancellations: Claim[];
}

const DDIC_REFERENCE = /^DDIC[A-Za-z0-9]{2,14}$/;
const ddicReference = (key: string) => ({
  key,
  rule: "should match '^DDIC[A-Za-z0-9]{2,14}$'",
  read: (v: string) => (DDIC_REFERENCE.test(v) ? v : undefined),
});

const COMMON = [
  field.bacsText('SUReference'),
  field.bacsText('PayerName'),
  field.sortCode('PayerSortCode'),
  field.accountNumber('PayerAccountNumber'),
  field.code(DDIC_REASONS)('ReasonCode'),
  field.amount('Amount'),
  field.date('DateOfDirectDebit'),
];

const ADVICE_FIELDS = [...COMMON, ddicReference('PayingBankReference'), field.oneOf(['Y', 'N'])('Cancellation')];

// The keys the claims timeline gives (src/sim/claims/claim-timeline.ts), each a field a client may give too.
const CLAIM_FIELDS = [
  ...COMMON,
  ddicReference('Reference'),
  field.digits(12)('SequenceNumber'),
  field.digits(6)('OriginatorSUN'),
  field.count('NumberOfClaims'),
  field.digits(6)('ClearingId'),
  field.text('ClaimId'),
  field.text('ClaimSubmissionId'),
  field.date('SettlementDate'),
];

/** Drawn original collections: one to three monthly Direct Debits before the processing date. */
function collections(f: Faker, ctx: ReportContext): Array<{ date: string; amount: string }> {
  const n = f.number.int({ min: 1, max: 3 });
  return Array.from({ length: n }, (_, i) => ({
    date: ctx.workingDaysBefore(ctx.processingDate, 20 * (i + 1) + f.number.int({ min: 0, max: 3 })),
    amount: draw.amount(f, 500, 40_000),
  })).reverse();
}

function drawn(ctx: ReportContext): Item {
  const f = ctx.faker;
  const cs = collections(f, ctx);
  return {
    SUReference: draw.reference(f),
    PayingBankReference: draw.reference(f, 'DDIC'),
    Reference: draw.reference(f, 'DDIC'),
    SequenceNumber: f.string.numeric(12),
    OriginatorSUN: f.string.numeric(6),
    PayerName: draw.holder(f),
    PayerSortCode: draw.sortCode(f),
    PayerAccountNumber: draw.accountNumber(f),
    ReasonCode: f.helpers.arrayElement(DDIC_REASONS).code,
    Amount: sum(cs.map((c) => c.amount)),
    Collections: JSON.stringify(cs),
    Cancellation: 'N',
  };
}

/** The original collections of a claim: the simulation's disputed transactions, else one of its amount. */
function collectionsOf(it: Item, given: Record<string, unknown> | undefined, ctx: ReportContext) {
  const disputed = given?.DisputedTransactions;
  if (Array.isArray(disputed)) {
    const valid = (disputed as Array<{ date?: unknown; amount?: unknown }>).filter(
      (t) => typeof t.date === 'string' && typeof t.amount === 'string' && /^\d+(\.\d{1,2})?$/.test(t.amount),
    );
    if (valid.length > 0) return valid.map((t) => ({ date: t.date as string, amount: toDecimal(t.amount as string) }));
  }
  if (given && (given.Amount !== undefined || given.DateOfDirectDebit !== undefined)) {
    return [{ date: it.DateOfDirectDebit ?? ctx.workingDaysBefore(ctx.processingDate, 20), amount: it.Amount! }];
  }
  return JSON.parse(it.Collections!) as Array<{ date: string; amount: string }>;
}

function claimOf(it: Item, given: Record<string, unknown> | undefined, ctx: ReportContext, paying: boolean): Claim {
  const cs = collectionsOf(it, given, ctx);
  return {
    seqNo: it.SequenceNumber!,
    payingBankReference: paying ? it.Reference! : it.PayingBankReference!,
    suReference: it.SUReference!,
    serviceUserNumber: paying ? it.OriginatorSUN! : ctx.user.service_user_number,
    reasonCode: it.ReasonCode!,
    payerSortCode: it.PayerSortCode!,
    payerName: it.PayerName!,
    payerAccount: it.PayerAccountNumber!,
    totalAmount: sum(cs.map((c) => c.amount)),
    collections: cs,
    ...(it.ClaimId ? { claimId: it.ClaimId } : {}),
    ...(it.ClaimSubmissionId ? { claimSubmissionId: it.ClaimSubmissionId } : {}),
  };
}

function build(report: DdicData['report'], ctx: ReportContext): DdicData {
  const fields = report === 'advice' ? ADVICE_FIELDS : CLAIM_FIELDS;
  const items = drawItems(ctx, fields, () => drawn(ctx), report === 'advice' ? 0 : 1, 10);
  const claims = items.map((it, i) => claimOf(it, ctx.given?.[i], ctx, report === 'claims'));
  const cancelled = items.map((it) => it.Cancellation === 'Y');
  // A drawn advice also lists up to two cancellations (claims the service user challenged).
  const extra =
    report === 'advice' && !ctx.given
      ? Array.from({ length: ctx.faker.number.int({ min: 0, max: 2 }) }, () =>
          claimOf(drawn(ctx), undefined, ctx, false),
        )
      : [];
  const given = ctx.given?.[0]?.SettlementDate;
  return {
    report,
    title: ctx.title,
    reportId: ctx.reportId,
    generationTime: ctx.generationTime,
    processingDate: ctx.processingDate,
    // Settlement: 14 working days after submission, 13 after the processing day (D0+1).
    settlementDate: typeof given === 'string' ? given : ctx.workingDaysAfter(ctx.processingDate, 13),
    user: ctx.user,
    advices: claims.filter((_, i) => !cancelled[i]),
    cancellations: [...claims.filter((_, i) => cancelled[i]), ...extra],
  };
}

function claimNode(name: string, c: Claim, paying: boolean): XmlNode {
  const text = (n: string, v: string | undefined) => (v === undefined ? undefined : el(n, {}, v));
  return el(name, {}, [
    text('SeqNo', c.seqNo),
    text('PayingBankReference', c.payingBankReference),
    text('SUReference', c.suReference),
    paying ? text('ServiceUserNumber', c.serviceUserNumber) : undefined,
    text('ReasonCode', c.reasonCode),
    text('ReasonCodeMeaning', describeCode(DDIC_REASONS, c.reasonCode)),
    text('PayerSortCode', c.payerSortCode),
    text('PayerName', c.payerName),
    text('PayerAccount', c.payerAccount),
    text('TotalAmount', c.totalAmount),
    el(
      'DDCollections',
      {},
      c.collections.map((x) => el('DDCollection', {}, [text('DateOfDirectDebit', x.date), text('Amount', x.amount)])),
    ),
    text('ClaimId', c.claimId),
    text('ClaimSubmissionId', c.claimSubmissionId),
  ]);
}

function xml(d: DdicData): string {
  const text = (n: string, v: string) => el(n, {}, v);
  const document =
    d.report === 'advice'
      ? [
          text('ServiceUserNumber', d.user.service_user_number),
          el('NewAdvices', {}, [
            text('DateOfDebit', d.settlementDate),
            text('TotalValueOfDebits', sum(d.advices.map((c) => c.totalAmount))),
            ...d.advices.map((c) => claimNode('DDICAdvice', c, false)),
          ]),
          el('Cancellations', {}, [
            text('TotalValueOfCancellations', sum(d.cancellations.map((c) => c.totalAmount))),
            ...d.cancellations.map((c) => claimNode('DDICCancellation', c, false)),
          ]),
        ]
      : [
          text('PayingBankName', d.user.sponsor_name),
          text('ProcessingDate', d.processingDate),
          el('SubmittedClaims', {}, [
            text('SettlementDate', d.settlementDate),
            text('NumberOfClaims', String(d.advices.length)),
            text('TotalValueOfClaims', sum(d.advices.map((c) => c.totalAmount))),
            ...d.advices.map((c) => claimNode('DDICClaim', c, true)),
          ]),
        ];
  return xmlDocument(el('VocaDocument', {}, [el('Data', {}, [el('Document', {}, document)])]));
}

function section(heading: string, claims: Claim[], paying: boolean) {
  const ids = paying && claims.some((c) => c.claimId);
  return {
    heading,
    fields: [],
    columns: [
      { label: 'Seq. no.' },
      { label: paying ? 'DDIC reference' : 'Paying bank reference' },
      { label: 'SU reference' },
      { label: 'Reason' },
      { label: 'Payer' },
      { label: 'Sort code' },
      { label: 'Account' },
      { label: 'Collections' },
      { label: 'Amount', align: 'right' as const },
      ...(ids ? [{ label: 'Claim id' }] : []),
    ],
    rows: claims.map((c) => [
      c.seqNo,
      c.payingBankReference,
      c.suReference,
      `${c.reasonCode} ${describeCode(DDIC_REASONS, c.reasonCode)}`,
      c.payerName,
      dashedSortCode(c.payerSortCode),
      c.payerAccount,
      c.collections.map((x) => x.date).join(', '),
      money(c.totalAmount),
      ...(ids ? [c.claimId ?? ''] : []),
    ]),
    totals: [
      viewField('Claims', 'Claims', count(claims.length)),
      viewField('Value', 'Total value', money(sum(claims.map((c) => c.totalAmount)))),
    ],
  };
}

function view(d: DdicData): ReportView {
  const paying = d.report === 'claims';
  const bySun = new Map<string, Claim[]>();
  for (const c of d.advices) bySun.set(c.serviceUserNumber, [...(bySun.get(c.serviceUserNumber) ?? []), c]);
  return {
    title: d.title,
    subtitle: paying ? `Claims submitted, processed ${d.processingDate}` : `DDIC advice, debit on ${d.settlementDate}`,
    header: [
      ...bacsHeader({
        user: d.user,
        report: paying ? 'DDIC claim submission report' : 'DDIC advice (VocaDocument)',
        numberLabel: 'Date of debit',
        number: d.settlementDate,
        processingDate: d.processingDate,
        generationTime: d.generationTime,
        reportId: d.reportId,
      }),
    ],
    sections: paying
      ? [...bySun].map(([sun, claims]) => section(`Claims against service user ${sun}`, claims, true))
      : [section('New advices', d.advices, false), section('Cancellations', d.cancellations, false)],
    totals: [
      viewField('TotalClaims', paying ? 'Claims submitted' : 'New advices', count(d.advices.length)),
      viewField(
        'TotalValue',
        paying ? 'Total value of claims' : 'Total value of debits',
        money(sum(d.advices.map((c) => c.totalAmount))),
      ),
      ...(paying
        ? []
        : [
            viewField(
              'TotalCancellations',
              'Total value of cancellations',
              money(sum(d.cancellations.map((c) => c.totalAmount))),
            ),
          ]),
      viewField('SettlementDate', paying ? 'Settles by contra on' : 'Date of debit', d.settlementDate),
    ],
    notes: [],
  };
}

export const DDIC_ADVICE = kind<DdicData>({ fields: ADVICE_FIELDS, build: (ctx) => build('advice', ctx), xml, view });
export const DDIC_CLAIMS = kind<DdicData>({
  fields: CLAIM_FIELDS,
  minRows: 1,
  build: (ctx) => build('claims', ctx),
  xml,
  view,
});
