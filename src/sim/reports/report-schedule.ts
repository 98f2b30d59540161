// Scheme reports arrive at fixed London times on working days (or every day): the daily slots of
// the catalogue and when each next falls on the scheme clock.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { addDays, isIsoDate, LAST_DATE } from '../../clock/dates.ts';
import { londonDate, londonTime } from '../../clock/london.ts';
import type { CatalogueEntry, ReportCatalogue } from './catalogue.ts';

export const DAILY_REPORTS_JOB = 'reports:daily';

/** A daily arrival time shared by catalogue entries: which days, and the London time of day. */
export interface Slot {
  days: 'bacs_working_days' | 'every_day';
  london_time: string;
}

export interface DailyReportsPayload {
  organisation_id: string;
  /** London date the reports arrive on. */
  date: string;
  slot: Slot;
}

export function slotKey(slot: Slot): string {
  return `${slot.days === 'bacs_working_days' ? 'bacs' : 'fps'}-${slot.london_time.replace(':', '')}`;
}

/** The distinct daily slots of the catalogue (on_event entries have none). */
export function slotsOf(catalogue: ReportCatalogue): Slot[] {
  const out = new Map<string, Slot>();
  for (const e of catalogue.entries) {
    if (e.schedule.days === 'on_event' || !e.schedule.london_time) continue;
    const slot: Slot = { days: e.schedule.days, london_time: e.schedule.london_time };
    out.set(slotKey(slot), slot);
  }
  return [...out.values()];
}

export function inSlot(entry: CatalogueEntry, slot: Slot): boolean {
  return entry.schedule.days === slot.days && entry.schedule.london_time === slot.london_time;
}

/** Idempotent job id: one job per organisation, date and slot. */
export function dailyJobId(organisationId: string, date: string, slot: Slot): string {
  return `${DAILY_REPORTS_JOB}:${organisationId}:${date}:${slotKey(slot)}`;
}

function slotInstant(date: string, slot: Slot): Date {
  const [h, m] = slot.london_time.split(':').map(Number) as [number, number];
  return londonTime(date, h, m);
}

function slotDay(date: string, slot: Slot, calendar: BacsCalendar): boolean {
  return slot.days === 'every_day' ? calendar.isFpsWorkingDay(date) : calendar.isBacsWorkingDay(date);
}

/**
 * The first occurrence of a slot strictly after an instant: its London date and due instant; null
 * when there is none on a supported date (the schedule ends with the last date the simulator
 * supports, and a clock already outside the range schedules nothing).
 */
export function nextOccurrence(slot: Slot, after: Date, calendar: BacsCalendar): { date: string; due: Date } | null {
  let date = londonDate(after);
  if (!isIsoDate(date)) return null;
  for (let i = 0; i < 400; i++) {
    if (slotDay(date, slot, calendar)) {
      const due = slotInstant(date, slot);
      if (due.getTime() > after.getTime()) return { date, due };
    }
    if (date >= LAST_DATE) return null;
    date = addDays(date, 1);
  }
  throw new Error(`no ${slotKey(slot)} day within 400 days after ${after.toISOString()}`);
}
