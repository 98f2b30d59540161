// The data of a report on the organisation's submissions (Input, Arrival, Withdrawal), and the
// sums of records and values every one of its formats writes.
import { sum } from './report-view.ts';
import type { OriginatingAccount, ServiceUser } from './service-users.ts';

/** A number of records and their value. */
export interface Tally {
  numberOf: number;
  valueOf: string;
}

export interface RejectedItem {
  reference: string;
  name: string;
  sortCode: string;
  accountNumber: string;
  valueOf: string;
}

export interface UserFile {
  number: string;
  account: OriginatingAccount;
  fileReference: string;
  debits: Tally;
  credits: Tally;
  rejected: RejectedItem[];
  reason?: string;
}

export interface SubmissionData {
  report: 'InputReport' | 'ArrivalReport' | 'WithdrawalReport';
  reportType: string;
  title: string;
  reportId: string;
  generationTime: string;
  producedTime: string;
  reportNumber: string;
  processingDate: string;
  user: ServiceUser;
  submissionReference: string;
  volumeSerialNumber: string;
  files: UserFile[];
}

export const tally = (items: string[]): Tally => ({ numberOf: items.length, valueOf: sum(items) });
export const sumTallies = (ts: Tally[]): Tally => ({
  numberOf: ts.reduce((n, t) => n + t.numberOf, 0),
  valueOf: sum(ts.map((t) => t.valueOf)),
});
export const minus = (a: Tally, b: Tally): Tally => ({
  numberOf: a.numberOf - b.numberOf,
  valueOf: sum([a.valueOf, `-${b.valueOf}`]),
});
/** A tally as the attributes files write it. */
export const attributesOf = (t: Tally) => ({ numberOf: t.numberOf, currency: 'GBP', valueOf: t.valueOf });
/** The contra of a side: one record balancing the accepted items, none when there are none. */
export const contraOf = (t: Tally): Tally =>
  t.numberOf > 0 ? { numberOf: 1, valueOf: t.valueOf } : { numberOf: 0, valueOf: '0.00' };

/** Records and their value; no records carry no value. */
export function tallyOf(numberOf: string, value: string): Tally {
  const n = Number(numberOf);
  return n === 0 ? { numberOf: 0, valueOf: '0.00' } : { numberOf: n, valueOf: value };
}

/** One record's equal share of a tally's value (whole pence, rounded down). */
export function shareOf(t: Tally): string {
  const each = BigInt(t.valueOf.replace('.', '')) / BigInt(t.numberOf);
  return `${each / 100n}.${String(each % 100n).padStart(2, '0')}`;
}

export const rejectedOf = (file: UserFile) => tally(file.rejected.map((r) => r.valueOf));
export const acceptedDebits = (file: UserFile) => minus(file.debits, rejectedOf(file));

export const none: Tally = { numberOf: 0, valueOf: '0.00' };
