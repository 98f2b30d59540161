// Every kind of report content the catalogue may name, with what it is built from.
import type { ContentKind } from './catalogue.ts';
import { DDIC_ADVICE, DDIC_CLAIMS } from './kind-bacs-ddic.ts';
import { ADDACS, AUDDIS_ACCEPTANCE, AUDDIS_REJECTION, AUDDIS_RETURNS, AWACS } from './kind-bacs-messaging.ts';
import { ARUCS, ARUDD } from './kind-bacs-returns.ts';
import { ARRIVAL, INPUT, WITHDRAWAL } from './kind-bacs-submissions.ts';
import { FPS_REJECTED, FPS_SETTLEMENT, FPS_SPONSORED, FPS_TRANSACTION_SUMMARY } from './kind-fps.ts';
import type { ReportKind } from './report-kind.ts';

export const REPORT_KINDS: Record<ContentKind, ReportKind> = {
  input_totals: INPUT,
  arrivals: ARRIVAL,
  withdrawals: WITHDRAWAL,
  returned_credits: ARUCS,
  returned_debits: ARUDD,
  ddi_rejections: AUDDIS_RETURNS,
  ddi_file_acceptances: AUDDIS_ACCEPTANCE,
  ddi_file_rejections: AUDDIS_REJECTION,
  ddi_amendments: ADDACS,
  account_changes: AWACS,
  ddic_advices: DDIC_ADVICE,
  ddic_claims: DDIC_CLAIMS,
  settlement_positions: FPS_SETTLEMENT,
  sponsored_positions: FPS_SPONSORED,
  transaction_summary: FPS_TRANSACTION_SUMMARY,
  rejected_payments: FPS_REJECTED,
};
