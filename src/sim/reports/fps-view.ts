// What a person reads of a Faster Payments report: the participant, each group's cycles and totals.
import { type FpsData, net, PAYMENT_TYPE_NAMES, type Position, REPORT_NAMES, sumPositions } from './fps-data.ts';
import { count, dashedSortCode, money, type ReportView, sum, viewField } from './report-view.ts';
import { describeCode, FPS_RETURN_REASONS } from './scheme-codes.ts';

const positionRow = (p: Position) => [
  p.label,
  count(p.sent.numberOf),
  money(p.sent.valueOf),
  count(p.received.numberOf),
  money(p.received.valueOf),
  money(net(p)),
];
const POSITION_COLUMNS = [
  { label: 'Cycle' },
  { label: 'Sent', align: 'right' as const },
  { label: 'Sent value', align: 'right' as const },
  { label: 'Received', align: 'right' as const },
  { label: 'Received value', align: 'right' as const },
  { label: 'Net position', align: 'right' as const },
];
const positionTotals = (prefix: string, p: Position) => [
  viewField(`${prefix}Sent`, 'Sent', `${count(p.sent.numberOf)} for ${money(p.sent.valueOf)}`),
  viewField(`${prefix}Received`, 'Received', `${count(p.received.numberOf)} for ${money(p.received.valueOf)}`),
  viewField(`${prefix}Net`, 'Net position', money(net(p))),
];

export function fpsView(d: FpsData): ReportView {
  const all = d.groups.flatMap((g) => g.positions);
  const header = [
    viewField(
      'Participant',
      'Participant',
      `${d.organisationName} (sort code ${dashedSortCode(d.user.fps_participant_sort_code)})`,
    ),
    viewField('Report', 'Faster Payments report', REPORT_NAMES[d.report]),
    viewField('ReportNumber', 'Report number', d.reportNumber),
    viewField('ProcessingDate', 'Settlement date', d.settlementDate),
    viewField('Generated', 'Produced', `${d.generationTime.slice(0, 10)} ${d.generationTime.slice(11, 19)} UTC`),
    viewField('ReportId', 'Report id', d.reportId),
  ];
  const notes =
    d.settlementDay || d.report === 'RejectedPayments' || d.report === 'TransactionSummary'
      ? []
      : [
          `${d.settlementDate} is not a settlement day: payments of this day settle in the first cycle of the next working day.`,
        ];
  const base = { title: d.title, subtitle: `${REPORT_NAMES[d.report]} ${d.reportNumber}`, header, notes };
  switch (d.report) {
    case 'SettlementReport':
    case 'SponsoredParticipantReport':
      return {
        ...base,
        sections: d.groups.map((g) => ({
          heading: `${g.name} (sort code ${dashedSortCode(g.sortCode)})`,
          fields: [],
          columns: POSITION_COLUMNS,
          rows: g.positions.map(positionRow),
          totals: positionTotals('Group', sumPositions(g.name, g.positions)),
        })),
        totals: positionTotals(d.report === 'SettlementReport' ? 'Day' : 'Sponsor', sumPositions('all', all)),
      };
    case 'TransactionSummary':
      return {
        ...base,
        sections: [
          {
            heading: 'Payments by type',
            fields: [],
            columns: [
              { label: 'Payment type' },
              { label: 'Outbound', align: 'right' as const },
              { label: 'Outbound value', align: 'right' as const },
              { label: 'Inbound', align: 'right' as const },
              { label: 'Inbound value', align: 'right' as const },
            ],
            rows: all.map((p) => [
              `${p.label} ${PAYMENT_TYPE_NAMES[p.label]}`,
              count(p.sent.numberOf),
              money(p.sent.valueOf),
              count(p.received.numberOf),
              money(p.received.valueOf),
            ]),
            totals: [],
          },
        ],
        totals: positionTotals('Day', sumPositions('all', all)),
      };
    case 'RejectedPayments':
      return {
        ...base,
        sections: [
          {
            heading: 'Rejected payments',
            fields: [],
            columns: [
              { label: 'FPID' },
              { label: 'Type' },
              { label: 'Beneficiary sort code' },
              { label: 'Beneficiary account' },
              { label: 'Reason' },
              { label: 'Amount', align: 'right' as const },
            ],
            rows: d.rejected.map((r) => [
              r.FPID!,
              r.PaymentType!,
              dashedSortCode(r.BeneficiarySortCode!),
              r.BeneficiaryAccount!,
              `${r.ReasonCode} ${describeCode(FPS_RETURN_REASONS, r.ReasonCode!)}`,
              money(r.Amount!),
            ]),
            totals: [],
          },
        ],
        totals: [
          viewField('TotalRejected', 'Payments rejected', count(d.rejected.length)),
          viewField('TotalValue', 'Total value', money(sum(d.rejected.map((r) => r.Amount!)))),
        ],
      };
  }
}
