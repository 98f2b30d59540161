import { readFileSync } from 'node:fs';
import { BacsCalendar, type CalendarOverrides } from '../clock/calendar.ts';
import { systemClock, type Clock } from '../clock/clock.ts';
import { Scheduler, type Job } from '../clock/scheduler.ts';
import { SchemeClock, type ClockState } from '../clock/scheme-clock.ts';
import { Accounts } from './accounts.ts';
import { EventBus } from './events.ts';
import { Organisations, type Organisation } from './organisations.ts';
import { loadCatalogue, type CatalogueEntry } from './reports/catalogue.ts';
import { Reports } from './reports/reports.ts';
import type { Store } from './store.ts';

export interface SimulatorOptions {
  store: Store;
  organisations: Organisation[];
  /** Initial clock state when the store has none (a restart keeps the stored one). */
  clock?: ClockState;
  calendarOverrides?: CalendarOverrides;
  /** Wall time, for what must not follow the scheme clock. */
  wall?: Clock;
  /** The report catalogue (default fixtures/reports/catalogue.json). */
  reportCatalogue?: CatalogueEntry[];
  /** Seed the daily report arrivals at start-up (default true). */
  scheduledReports?: boolean;
}

/**
 * The composition root of the domain: one store, one scheme clock, one scheduler, one event bus,
 * and the services of each flow built on them. Knows nothing of HTTP.
 */
export class Simulator {
  readonly store: Store;
  readonly wall: Clock;
  readonly clock: SchemeClock;
  readonly calendar: BacsCalendar;
  readonly scheduler: Scheduler;
  readonly events = new EventBus();
  readonly organisations: Organisations;
  readonly accounts: Accounts;
  readonly reports: Reports;

  constructor(options: SimulatorOptions) {
    this.store = options.store;
    this.wall = options.wall ?? systemClock;
    this.organisations = new Organisations(options.organisations);
    this.calendar = new BacsCalendar(options.calendarOverrides);
    this.clock = new SchemeClock({
      initial: options.clock ?? SchemeClock.runningFrom(this.wall.now(), 1, this.wall),
      wall: this.wall,
      persistence: {
        load: () => this.store.getMeta<ClockState>('clock'),
        save: (state) => this.store.setMeta('clock', state),
      },
    });
    this.scheduler = new Scheduler(this.clock, this.store.collection<Job>('scheduler_jobs'));
    const ctx = { store: this.store, clock: this.clock, events: this.events };
    this.accounts = new Accounts(ctx);
    this.reports = new Reports(
      { ...ctx, calendar: this.calendar, scheduler: this.scheduler, organisations: this.organisations },
      options.reportCatalogue ?? loadCatalogue(),
    );
    if (options.scheduledReports !== false) this.reports.seedSchedule();
  }
}

export function readJsonFile<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
}
