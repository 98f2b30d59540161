// What a person reads of a submission report: each user file's entries and values, its rejected
// records, the report totals.

import { bacsHeader, count, dashedSortCode, money, type ReportView, viewField } from './report-view.ts';
import {
  acceptedDebits,
  contraOf,
  none,
  rejectedOf,
  type SubmissionData,
  sumTallies,
  type Tally,
} from './submission-data.ts';

export function submissionView(d: SubmissionData): ReportView {
  const name = { InputReport: 'Input report', ArrivalReport: 'Arrival report', WithdrawalReport: 'Withdrawal report' }[
    d.report
  ];
  const row = (label: string, accepted: Tally, rejected: Tally) => [
    label,
    count(accepted.numberOf),
    money(accepted.valueOf),
    count(rejected.numberOf),
    money(rejected.valueOf),
  ];
  const sections = d.files.flatMap((file) => {
    const accepted = acceptedDebits(file);
    const fileSection = {
      heading: `User file ${file.number}, originating account ${dashedSortCode(file.account.sort_code)} ${file.account.account_number} ${file.account.name}`,
      fields: [
        viewField('FileReference', 'File reference', file.fileReference),
        ...(file.reason ? [viewField('WithdrawalReason', 'Withdrawn because', file.reason)] : []),
      ],
      columns: [
        { label: 'Entries' },
        { label: d.report === 'InputReport' ? 'Accepted' : 'Records', align: 'right' as const },
        { label: 'Value', align: 'right' as const },
        { label: 'Rejected', align: 'right' as const },
        { label: 'Rejected value', align: 'right' as const },
      ],
      rows: [
        row('Debits', d.report === 'InputReport' ? accepted : file.debits, rejectedOf(file)),
        row('Credits', file.credits, none),
        ...(d.report === 'InputReport'
          ? [row('Debit contra', contraOf(accepted), none), row('Credit contra', contraOf(file.credits), none)]
          : []),
      ],
      totals: [
        viewField(
          'FileDebits',
          'Debit value for this account',
          money(d.report === 'InputReport' ? accepted.valueOf : file.debits.valueOf),
        ),
        viewField('FileCredits', 'Credit value for this account', money(file.credits.valueOf)),
      ],
    };
    if (file.rejected.length === 0) return [fileSection];
    return [
      fileSection,
      {
        heading: `Rejected records, user file ${file.number}`,
        fields: [],
        columns: [
          { label: 'Reference' },
          { label: 'Name' },
          { label: 'Sort code' },
          { label: 'Account' },
          { label: 'Reason' },
          { label: 'Amount', align: 'right' as const },
        ],
        rows: file.rejected.map((r) => [
          r.reference,
          r.name,
          dashedSortCode(r.sortCode),
          r.accountNumber,
          'REJECTED: destination account details invalid',
          money(r.valueOf),
        ]),
        totals: [viewField('FileRejected', 'Rejected value', money(rejectedOf(file).valueOf))],
      },
    ];
  });
  const debits = d.files.map((f) => (d.report === 'InputReport' ? acceptedDebits(f) : f.debits));
  return {
    title: d.title,
    subtitle: `${name} ${d.reportNumber}, submission ${d.submissionReference}`,
    header: [
      ...bacsHeader({
        user: d.user,
        report: `${name} (${d.reportType})`,
        numberLabel: 'Report number',
        number: d.reportNumber,
        processingDate: d.processingDate,
        generationTime: d.generationTime,
        reportId: d.reportId,
      }),
      viewField('Submission', 'Submission', `${d.submissionReference} (volume ${d.volumeSerialNumber}, BACSTEL-IP)`),
    ],
    sections,
    totals: [
      viewField('Files', 'User files', count(d.files.length)),
      viewField(
        'TotalDebits',
        d.report === 'InputReport' ? 'Debits accepted' : 'Debits',
        `${count(sumTallies(debits).numberOf)} for ${money(sumTallies(debits).valueOf)}`,
      ),
      viewField(
        'TotalCredits',
        'Credits',
        `${count(sumTallies(d.files.map((f) => f.credits)).numberOf)} for ${money(sumTallies(d.files.map((f) => f.credits)).valueOf)}`,
      ),
      ...(d.report === 'InputReport'
        ? [viewField('TotalRejected', 'Records rejected', count(d.files.reduce((n, f) => n + f.rejected.length, 0)))]
        : []),
    ],
    notes: [],
  };
}
