// Journeys that span scheme days: a scenario tagged @journey runs one stage per harness run and
// keeps its state (remembered values, the stages done, the date the next one is due) in a ledger
// file that CI keeps between runs (docs/conformance.md, Journeys).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { addBacsWorkingDays, londonToday } from '../../src/harness/bacs-days.ts';
import type { Settings } from './settings.ts';

export interface JourneyInstance {
  id: string;
  journey: string;
  /** Where it runs: a journey is resumed only against the target and organisation it began on. */
  base_url: string;
  organisation_id: string;
  /** The scheme date of day 0. */
  started_on: string;
  /** Stages done, by day, with the date each ran. */
  done: Record<string, string>;
  /** The day of the stage that waits, and the date it is due (day N = N Bacs working days on). */
  waiting?: { day: number; due: string };
  status: 'in_progress' | 'complete' | 'failed';
  failure?: string;
  vars: Record<string, string>;
}

interface LedgerFile {
  journeys: JourneyInstance[];
}

/** The ledger's path: CONFORMANCE_LEDGER, else reports/journeys.json. */
export function ledgerPath(settings: Settings): string {
  return resolve(settings.CONFORMANCE_LEDGER ?? 'reports/journeys.json');
}

/** The scheme date today: CONFORMANCE_TODAY (a replay, or a test moving a simulator's clock), else London's date. */
export function schemeToday(settings: Settings, now: Date = new Date()): string {
  const given = settings.CONFORMANCE_TODAY;
  if (given !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(given) || Number.isNaN(Date.parse(given)))
      throw new Error(`CONFORMANCE_TODAY must be a date such as 2026-12-21, got ${given}`);
    return given;
  }
  return londonToday(now);
}

/** The date a journey's day `day` falls on. */
export function dueDate(instance: Pick<JourneyInstance, 'started_on'>, day: number): string {
  return addBacsWorkingDays(instance.started_on, day);
}

export class JourneyLedger {
  readonly file: string;
  readonly #data: LedgerFile;

  constructor(file: string) {
    this.file = file;
    if (!existsSync(file)) {
      this.#data = { journeys: [] };
      return;
    }
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as LedgerFile;
      if (!Array.isArray(parsed?.journeys)) throw new Error('it has no "journeys" list');
      this.#data = parsed;
    } catch (err) {
      throw new Error(`the journey ledger ${file} cannot be read: ${(err as Error).message}`);
    }
  }

  get journeys(): readonly JourneyInstance[] {
    return this.#data.journeys;
  }

  /**
   * What a run does for `journey`: resume the oldest instance in progress on this target whose
   * next stage is due today; else start a new one, unless one began today already; else wait.
   */
  choose(
    journey: string,
    where: { base_url: string; organisation_id: string },
    today: string,
    newId: () => string,
  ): { resume: JourneyInstance } | { start: JourneyInstance } | { wait: JourneyInstance } {
    const mine = this.#data.journeys.filter(
      (j) => j.journey === journey && j.base_url === where.base_url && j.organisation_id === where.organisation_id,
    );
    const open = mine.filter((j) => j.status === 'in_progress');
    const due = open.find((j) => j.waiting !== undefined && j.waiting.due <= today);
    if (due) return { resume: due };
    const waiting = open[0];
    if (waiting && mine.some((j) => j.started_on === today)) return { wait: waiting };
    const started: JourneyInstance = {
      id: newId(),
      journey,
      ...where,
      started_on: today,
      done: {},
      status: 'in_progress',
      vars: {},
    };
    this.#data.journeys.push(started);
    return { start: started };
  }

  /** Writes the ledger (to a temporary file first: a run killed mid-write leaves the old one). */
  save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.tmp`;
    writeFileSync(temp, `${JSON.stringify(this.#data, null, 2)}\n`);
    renameSync(temp, this.file);
  }
}
