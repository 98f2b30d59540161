// What a person reads of a messaging advice: one row per advice under readable labels, the count
// of advices per reason.
import type { Flavour, MessagingData } from './messaging-data.ts';
import { bacsHeader, count, dashedSortCode, type ReportView, viewField } from './report-view.ts';
import { describeCode, type SchemeCode } from './scheme-codes.ts';

const LABELS: Record<string, string> = {
  aosn: 'AOSN',
  'record-type': 'Record type',
  reference: 'Reference',
  'payer-name': 'Name',
  'payer-sort-code': 'Sort code',
  'payer-account-number': 'Account',
  'reason-code': 'Reason',
  'payer-new-sort-code': 'New sort code',
  'payer-new-account-number': 'New account',
  'effective-date': 'Effective date',
  'processing-date': 'Processing date',
  'originator-file-number': 'File number',
  'work-code': 'Work code',
  'file-type': 'File type',
  'accepted-ddi': 'DDIs accepted',
  'rejected-ddi': 'DDIs rejected',
  'vol-serial-number': 'Volume serial number',
  'file-error-code': 'File error code',
};

function cell(attr: string, value: string | undefined, reasons?: readonly SchemeCode[]): string {
  if (value === undefined) return '';
  if (attr.endsWith('sort-code')) return dashedSortCode(value);
  if (attr === 'reason-code' && reasons) return `${value} ${describeCode(reasons, value)}`;
  return value;
}

export function messagingView(fl: Flavour, d: MessagingData): ReportView {
  const byReason = new Map<string, number>();
  for (const a of d.advices)
    if (a['reason-code']) byReason.set(a['reason-code'], (byReason.get(a['reason-code']) ?? 0) + 1);
  return {
    title: d.title,
    subtitle: `${d.adviceType} advice, document ${d.documentNumber}`,
    header: bacsHeader({
      user: d.user,
      report: `${d.adviceType} (report type ${d.reportType})`,
      numberLabel: 'Document number',
      number: d.documentNumber,
      processingDate: d.processingDate,
      generationTime: d.generationTime,
      reportId: d.reportId,
    }),
    sections: [
      {
        heading: 'Advices',
        fields: [],
        columns: fl.columns.map((c) => ({
          label: LABELS[c] ?? c,
          ...(c.endsWith('-ddi') ? { align: 'right' as const } : {}),
        })),
        rows: d.advices.map((a) => fl.columns.map((c) => cell(c, a[c], fl.reasons))),
        totals: [...byReason].map(([code, n]) =>
          viewField(`Reason${code}`, `Reason ${code} ${describeCode(fl.reasons ?? [], code)}`, count(n)),
        ),
      },
    ],
    totals: [
      viewField('TotalAdvices', 'Advices', count(d.advices.length)),
      ...d.errors.map((e, i) => viewField(`Error${i + 1}`, 'File error', e)),
    ],
    notes: [],
  };
}
