// The data of a Faster Payments report, and the sums every FPS file writes: flows (a number of
// payments and their value) and positions (sent, received, net = received − sent).
import type { Item } from './report-items.ts';
import { difference, sum } from './report-view.ts';
import type { ServiceUser } from './service-users.ts';

export interface Flow {
  numberOf: number;
  valueOf: string;
}

export interface Position {
  label: string;
  sent: Flow;
  received: Flow;
}

export interface FpsData {
  report: 'SettlementReport' | 'SponsoredParticipantReport' | 'TransactionSummary' | 'RejectedPayments';
  title: string;
  reportId: string;
  reportNumber: string;
  generationTime: string;
  settlementDate: string;
  settlementDay: boolean;
  user: ServiceUser;
  organisationName: string;
  /** Settlement and sponsored reports: groups (the participant itself, or each sponsored one) of cycle positions. */
  groups: Array<{ name: string; sortCode: string; positions: Position[] }>;
  /** Rejected payments. */
  rejected: Item[];
}

export const PAYMENT_TYPE_NAMES: Record<string, string> = {
  SIP: 'Single Immediate Payment',
  SOP: 'Standing Order Payment',
  FDP: 'Forward Dated Payment',
  RTN: 'Return Payment',
};

export const REPORT_NAMES: Record<FpsData['report'], string> = {
  SettlementReport: 'Settlement report',
  SponsoredParticipantReport: 'Sponsored participant report',
  TransactionSummary: 'Daily transaction summary',
  RejectedPayments: 'Rejected payments report',
};

export const flow = (n: string, v: string): Flow =>
  Number(n) === 0 ? { numberOf: 0, valueOf: '0.00' } : { numberOf: Number(n), valueOf: v };
export const total = (fs: Flow[]): Flow => ({
  numberOf: fs.reduce((n, f) => n + f.numberOf, 0),
  valueOf: sum(fs.map((f) => f.valueOf)),
});
export const net = (p: { sent: Flow; received: Flow }) => difference(p.received.valueOf, p.sent.valueOf);
export const sumPositions = (label: string, ps: Position[]): Position => ({
  label,
  sent: total(ps.map((p) => p.sent)),
  received: total(ps.map((p) => p.received)),
});
