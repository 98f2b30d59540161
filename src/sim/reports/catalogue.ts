// Which scheme reports exist, what each contains, in which formats and on which days it arrives
// (fixtures/reports/catalogue.json), checked at start-up so a broken entry is named at once.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { addDays } from '../../clock/dates.ts';
import type { Organisation } from '../organisations.ts';

/** The file formats a report can be downloaded in, with the media type that asks for each. */
export const REPORT_FORMATS = {
  pdf: 'application/pdf',
  xml: 'application/xml',
  zipped_xhtml: 'application/xhtml+zip',
} as const;
export type ReportFormat = keyof typeof REPORT_FORMATS;

export const CONTENT_KINDS = [
  'input_totals',
  'arrivals',
  'withdrawals',
  'returned_credits',
  'returned_debits',
  'ddi_rejections',
  'ddi_file_acceptances',
  'ddi_file_rejections',
  'ddi_amendments',
  'account_changes',
  'ddic_advices',
  'ddic_claims',
  'settlement_positions',
  'sponsored_positions',
  'transaction_summary',
  'rejected_payments',
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** Which days a report arrives: Bacs working days, every calendar day (FPS), or on an event. */
export type ScheduleDays = 'bacs_working_days' | 'every_day' | 'on_event';
/** The processing_date of a report relative to the London date it arrives on. */
export type ProcessingDateRule = 'same_day' | 'next_working_day' | 'previous_working_day' | 'previous_day';

export interface ReportSchedule {
  days: ScheduleDays;
  /** HH:MM Europe/London; absent for on_event reports. */
  london_time?: string;
  /** What triggers an on_event report (documentation). */
  event?: string;
  processing_date: ProcessingDateRule;
}

export interface CatalogueEntry {
  report_type: string;
  report_type_description: string;
  report_source: string;
  content: ContentKind;
  formats: ReportFormat[];
  schedule: ReportSchedule;
  download_mandatory: boolean;
  /** `all` organisations, or only those that sponsor other participants. */
  audience: 'all' | 'sponsors';
}

const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Checks every entry so a broken fixture fails at start-up, naming the entry and the field. */
export function validateCatalogue(entries: unknown): CatalogueEntry[] {
  if (!Array.isArray(entries) || entries.length === 0) throw new Error('report catalogue must be a non-empty array');
  const seen = new Set<string>();
  return entries.map((raw, i) => {
    const e = raw as CatalogueEntry;
    const where = `report catalogue entry ${i} (${e?.report_type ?? '?'})`;
    const need = (ok: boolean, what: string) => {
      if (!ok) throw new Error(`${where}: ${what}`);
    };
    need(typeof e === 'object' && e !== null, 'must be an object');
    need(
      typeof e.report_type === 'string' && /^[A-Z0-9_]+$/.test(e.report_type),
      'report_type must be an upper-case code',
    );
    need(!seen.has(e.report_type), 'report_type is duplicated');
    seen.add(e.report_type);
    need(
      typeof e.report_type_description === 'string' && e.report_type_description.length > 0,
      'report_type_description is required',
    );
    need(
      typeof e.report_source === 'string' && /^[a-z]+(-[a-z]+)*$/.test(e.report_source),
      'report_source must be lower-case words joined by -',
    );
    need(CONTENT_KINDS.includes(e.content), `content must be one of ${CONTENT_KINDS.join(', ')}`);
    need(
      Array.isArray(e.formats) && e.formats.length > 0 && e.formats.every((f) => f in REPORT_FORMATS),
      'formats must list pdf, xml or zipped_xhtml',
    );
    need(typeof e.download_mandatory === 'boolean', 'download_mandatory must be a boolean');
    need(e.audience === 'all' || e.audience === 'sponsors', 'audience must be all or sponsors');
    const s = e.schedule;
    need(typeof s === 'object' && s !== null, 'schedule is required');
    need(
      ['bacs_working_days', 'every_day', 'on_event'].includes(s.days),
      'schedule.days must be bacs_working_days, every_day or on_event',
    );
    need(
      s.days === 'on_event' || (typeof s.london_time === 'string' && TIME_RE.test(s.london_time)),
      'schedule.london_time must be HH:MM',
    );
    need(
      ['same_day', 'next_working_day', 'previous_working_day', 'previous_day'].includes(s.processing_date),
      'schedule.processing_date is not a known rule',
    );
    return e;
  });
}

/** Read access to the catalogue with the rules that depend on it. */
export class ReportCatalogue {
  readonly entries: readonly CatalogueEntry[];
  readonly #byType = new Map<string, CatalogueEntry>();

  constructor(entries: CatalogueEntry[]) {
    this.entries = entries;
    for (const e of entries) this.#byType.set(e.report_type, e);
  }

  get(reportType: string): CatalogueEntry | undefined {
    return this.#byType.get(reportType);
  }

  get types(): string[] {
    return this.entries.map((e) => e.report_type);
  }

  /** Whether the organisation receives reports of this entry. */
  offeredTo(entry: CatalogueEntry, organisation: Organisation): boolean {
    return entry.audience === 'all' || organisation.sponsor;
  }

  /** Whether a scheduled entry arrives on a London date. */
  arrivesOn(entry: CatalogueEntry, date: string, calendar: BacsCalendar): boolean {
    if (entry.schedule.days === 'every_day') return calendar.isFpsWorkingDay(date);
    if (entry.schedule.days === 'bacs_working_days') return calendar.isBacsWorkingDay(date);
    return false;
  }
}

/** The processing_date of a report arriving on `date` under a rule. */
export function processingDateFor(rule: ProcessingDateRule, date: string, calendar: BacsCalendar): string {
  switch (rule) {
    case 'same_day':
      return date;
    case 'next_working_day':
      return calendar.nextWorkingDay(date);
    case 'previous_working_day':
      return calendar.addWorkingDays(date, -1);
    case 'previous_day':
      return addDays(date, -1);
  }
}
