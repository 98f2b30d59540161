// The timeline's date arithmetic, memoised: every claim of a day shares its dates, and London
// dates need Intl, which is slow enough to dominate when 10,000 claims are filed.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { londonParts, londonTime } from '../../clock/london.ts';
import { type ClaimDates, claimDates, releaseAt, STEP_HOURS, schemeDayAt, schemeStepAt } from './claim-dates.ts';

const HOUR_MS = 3_600_000;
const MAX_ENTRIES = 10_000;

export interface BatchInstants {
  validationFrom: Date;
  release: Date;
  process: Date;
  deliver: Date;
  settle: Date;
}

function remember<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size >= MAX_ENTRIES) map.clear();
    v = make();
    map.set(key, v);
  }
  return v;
}

export class ClaimCalendar {
  readonly calendar: BacsCalendar;
  readonly #hours = new Map<number, { date: string; hour: number }>();
  readonly #dates = new Map<string, ClaimDates>();
  readonly #instants = new Map<string, BatchInstants>();
  readonly #next = new Map<string, string>();

  constructor(calendar: BacsCalendar) {
    this.calendar = calendar;
  }

  /** London date and hour of an instant. Cached per UTC hour: London's offsets are whole hours. */
  london(instant: Date): { date: string; hour: number } {
    return remember(this.#hours, Math.floor(instant.getTime() / HOUR_MS), () => {
      const p = londonParts(instant);
      return { date: p.date, hour: p.hour };
    });
  }

  /** schemeDayOf (claim-dates.ts) with this calendar's caches: the working day an instant counts for. */
  dayOf(instant: Date): string {
    return schemeDayAt(this.london(instant), this);
  }

  workingDayOnOrAfter(date: string): string {
    return this.calendar.workingDayOnOrAfter(date);
  }

  nextWorkingDay(date: string): string {
    return remember(this.#next, date, () => this.calendar.nextWorkingDay(date));
  }

  dates(d0: string): ClaimDates {
    return remember(this.#dates, d0, () => claimDates(d0, this.calendar));
  }

  /** The instants of the batch steps of D0 (validation: the earliest it may run). */
  instants(d0: string): BatchInstants {
    return remember(this.#instants, d0, () => {
      const d = this.dates(d0);
      return {
        validationFrom: londonTime(d0, STEP_HOURS.validation),
        release: releaseAt(d0),
        process: schemeStepAt(d.processing_date),
        deliver: schemeStepAt(d.delivery_date),
        settle: schemeStepAt(d.settlement_date),
      };
    });
  }
}
