// Faster Payments reports. No FPS report file is public, so the structure is ours (docs/reports.md):
// `FPSDocument/Data/<report>` with a Header naming the participant and the settlement date, then
// the report's records and totals that add up: net position = received − sent, per settlement
// cycle, per participant and for the day. Settlement runs three cycles on working days only.

import {
  type Flow,
  type FpsData,
  flow,
  net,
  PAYMENT_TYPE_NAMES,
  type Position,
  sumPositions,
  total,
} from './fps-data.ts';
import { fpsView } from './fps-view.ts';
import { adviceNumber, draw, drawItems, type ReportContext } from './report-context.ts';
import { type FieldSpec, field, type Item } from './report-items.ts';
import { kind } from './report-kind.ts';
import { sum } from './report-view.ts';
import { describeCode, FPS_PAYMENT_TYPES, FPS_RETURN_REASONS } from './scheme-codes.ts';
import { el, type XmlNode, xmlDocument } from './xml-writer.ts';

const positionFields = [
  field.count('SentCount'),
  field.amount('SentValue'),
  field.count('ReceivedCount'),
  field.amount('ReceivedValue'),
];
const CYCLES = ['1', '2', '3'] as const;

const FIELDS: Record<FpsData['report'], readonly FieldSpec[]> = {
  SettlementReport: [field.oneOf(CYCLES)('Cycle'), ...positionFields],
  SponsoredParticipantReport: [
    field.text('ParticipantName'),
    field.sortCode('SortCode'),
    field.oneOf(CYCLES)('Cycle'),
    ...positionFields,
  ],
  TransactionSummary: [
    field.oneOf(FPS_PAYMENT_TYPES)('PaymentType'),
    field.oneOf(['OUTBOUND', 'INBOUND'])('Direction'),
    field.count('Count'),
    field.amount('Value'),
  ],
  RejectedPayments: [
    field.text('FPID'),
    field.oneOf(FPS_PAYMENT_TYPES)('PaymentType'),
    field.amount('Amount'),
    field.sortCode('BeneficiarySortCode'),
    field.accountNumber('BeneficiaryAccount'),
    field.code(FPS_RETURN_REASONS)('ReasonCode'),
  ],
};

function positionItem(ctx: ReportContext, cycle: string): Item {
  const f = ctx.faker;
  return {
    Cycle: cycle,
    SentCount: String(f.number.int({ min: 10, max: 50_000 })),
    SentValue: draw.amount(f, 100_000, 900_000_000),
    ReceivedCount: String(f.number.int({ min: 10, max: 50_000 })),
    ReceivedValue: draw.amount(f, 100_000, 900_000_000),
  };
}

const position = (it: Item): Position => ({
  label: `Cycle ${it.Cycle}`,
  sent: flow(it.SentCount!, it.SentValue!),
  received: flow(it.ReceivedCount!, it.ReceivedValue!),
});

function build(report: FpsData['report'], ctx: ReportContext): FpsData {
  const f = ctx.faker;
  const reportNumber = adviceNumber(ctx);
  // FPS settles three times a working day; a weekend or holiday has no cycles (they roll to the next).
  const settlementDay = ctx.isBacsWorkingDay(ctx.processingDate);
  const cycles = settlementDay ? CYCLES : [];
  const base = {
    report,
    title: ctx.title,
    reportId: ctx.reportId,
    reportNumber,
    generationTime: ctx.generationTime,
    settlementDate: ctx.processingDate,
    settlementDay,
    user: ctx.user,
    organisationName: ctx.organisationName,
    groups: [],
    rejected: [],
  };
  const fields = FIELDS[report];
  const me = { name: ctx.organisationName, sortCode: ctx.user.fps_participant_sort_code };
  switch (report) {
    case 'SettlementReport': {
      const items = ctx.given
        ? drawItems(ctx, fields, (i) => positionItem(ctx, CYCLES[i % 3]!), 0, 0)
        : cycles.map((c) => positionItem(ctx, c));
      return { ...base, groups: [{ ...me, positions: items.map(position) }] };
    }
    case 'SponsoredParticipantReport': {
      const sponsored =
        ctx.user.sponsored_participants.length > 0
          ? ctx.user.sponsored_participants
          : [{ name: f.company.name(), sort_code: draw.sortCode(f) }];
      const items = ctx.given
        ? drawItems(
            ctx,
            fields,
            (i) => ({
              ...positionItem(ctx, CYCLES[i % 3]!),
              ParticipantName: sponsored[0]!.name,
              SortCode: sponsored[0]!.sort_code,
            }),
            0,
            0,
          )
        : sponsored.flatMap((p) =>
            cycles.map((c) => ({ ...positionItem(ctx, c), ParticipantName: p.name, SortCode: p.sort_code })),
          );
      // Every sponsored participant is listed, with no cycles on a day without settlement.
      const names = [
        ...new Set([
          ...(ctx.given ? [] : sponsored.map((p) => `${p.name}|${p.sort_code}`)),
          ...items.map((it) => `${it.ParticipantName}|${it.SortCode}`),
        ]),
      ];
      return {
        ...base,
        groups: names.map((key) => {
          const [name, sortCode] = key.split('|') as [string, string];
          const mine = items.filter((it) => `${it.ParticipantName}|${it.SortCode}` === key);
          return { name, sortCode, positions: mine.map(position) };
        }),
      };
    }
    case 'TransactionSummary': {
      const items = drawItems(
        ctx,
        fields,
        (i) => ({
          PaymentType: FPS_PAYMENT_TYPES[Math.floor(i / 2) % FPS_PAYMENT_TYPES.length]!,
          Direction: i % 2 === 0 ? 'OUTBOUND' : 'INBOUND',
          Count: String(f.number.int({ min: 0, max: 20_000 })),
          Value: draw.amount(f, 100, 500_000_000),
        }),
        FPS_PAYMENT_TYPES.length * 2,
        FPS_PAYMENT_TYPES.length * 2,
      );
      const types = FPS_PAYMENT_TYPES.filter((t) => items.some((it) => it.PaymentType === t));
      const of = (t: string, dir: string) =>
        total(
          items.filter((it) => it.PaymentType === t && it.Direction === dir).map((it) => flow(it.Count!, it.Value!)),
        );
      return {
        ...base,
        groups: [
          { ...me, positions: types.map((t) => ({ label: t, sent: of(t, 'OUTBOUND'), received: of(t, 'INBOUND') })) },
        ],
      };
    }
    case 'RejectedPayments': {
      const items = drawItems(
        ctx,
        fields,
        () => ({
          FPID: f.string.alphanumeric({ length: 18, casing: 'upper' }),
          PaymentType: f.helpers.arrayElement(FPS_PAYMENT_TYPES),
          Amount: draw.amount(f),
          BeneficiarySortCode: draw.sortCode(f),
          BeneficiaryAccount: draw.accountNumber(f),
          ReasonCode: f.helpers.arrayElement(FPS_RETURN_REASONS).code,
        }),
        0,
        12,
      );
      return { ...base, rejected: items };
    }
  }
}

const flowNode = (name: string, fl: Flow) => el(name, { numberOf: fl.numberOf, valueOf: fl.valueOf, currency: 'GBP' });
const netNode = (p: { sent: Flow; received: Flow }) => {
  const v = net(p);
  const position = v.startsWith('-') ? 'DEBIT' : /[1-9]/.test(v) ? 'CREDIT' : 'NIL';
  return el('NetPosition', { valueOf: v, currency: 'GBP', position });
};
const positionNodes = (p: Position) => [flowNode('Sent', p.sent), flowNode('Received', p.received), netNode(p)];
const cycleNode = (p: Position) => el('SettlementCycle', { cycle: p.label.replace('Cycle ', '') }, positionNodes(p));

function xml(d: FpsData): string {
  const header = el('Header', {
    reportType: d.report,
    reportNumber: d.reportNumber,
    participantSortCode: d.user.fps_participant_sort_code,
    participantName: d.organisationName,
    settlementDate: d.settlementDate,
    settlementDay: d.settlementDay ? 'true' : 'false',
    producedOn: d.generationTime,
    currency: 'GBP',
  });
  const all = d.groups.flatMap((g) => g.positions);
  let body: XmlNode[];
  switch (d.report) {
    case 'SettlementReport':
      body = [...all.map(cycleNode), el('DailyTotals', {}, positionNodes(sumPositions('day', all)))];
      break;
    case 'SponsoredParticipantReport':
      body = [
        ...d.groups.map((g) =>
          el('SponsoredParticipant', { name: g.name, sortCode: g.sortCode }, [
            ...g.positions.map(cycleNode),
            el('ParticipantTotals', {}, positionNodes(sumPositions(g.name, g.positions))),
          ]),
        ),
        el('SponsorTotals', {}, positionNodes(sumPositions('sponsor', all))),
      ];
      break;
    case 'TransactionSummary':
      body = [
        ...all.map((p) =>
          el('PaymentType', { type: p.label, description: PAYMENT_TYPE_NAMES[p.label] }, [
            flowNode('Outbound', p.sent),
            flowNode('Inbound', p.received),
          ]),
        ),
        el('Totals', {}, [
          flowNode('Outbound', total(all.map((p) => p.sent))),
          flowNode('Inbound', total(all.map((p) => p.received))),
          netNode(sumPositions('day', all)),
        ]),
      ];
      break;
    case 'RejectedPayments':
      body = [
        ...d.rejected.map((r) =>
          el('RejectedPayment', {
            fpid: r.FPID,
            paymentType: r.PaymentType,
            valueOf: r.Amount,
            currency: 'GBP',
            reasonCode: r.ReasonCode,
            reasonDescription: describeCode(FPS_RETURN_REASONS, r.ReasonCode!),
            beneficiarySortCode: r.BeneficiarySortCode,
            beneficiaryAccount: r.BeneficiaryAccount,
          }),
        ),
        el('Totals', { numberOf: d.rejected.length, valueOf: sum(d.rejected.map((r) => r.Amount!)), currency: 'GBP' }),
      ];
      break;
  }
  return xmlDocument(el('FPSDocument', {}, [el('Data', {}, [el(d.report, {}, [header, ...body])])]));
}

const fps = (report: FpsData['report']) =>
  kind<FpsData>({ fields: FIELDS[report], build: (ctx) => build(report, ctx), xml, view: fpsView });

export const FPS_SETTLEMENT = fps('SettlementReport');
export const FPS_SPONSORED = fps('SponsoredParticipantReport');
export const FPS_TRANSACTION_SUMMARY = fps('TransactionSummary');
export const FPS_REJECTED = fps('RejectedPayments');
