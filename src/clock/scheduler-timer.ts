// A running scheme clock has to fire its jobs without anyone advancing it: the worker that wakes the
// scheduler as job times come.
import type { Scheduler } from './scheduler.ts';
import type { SchemeClock } from './scheme-clock.ts';

export interface SchedulerTimerOptions {
  scheduler: Scheduler;
  clock: SchemeClock;
  /** Makes what the jobs did durable; called after every run that ran a job. */
  commit: () => Promise<void>;
  /**
   * Runs a run of due jobs as the server's one long work (requests that change state wait for it);
   * default: runs it. `busy` says whether other long work (an advance, a reset) is running.
   */
  exclusive?: <T>(work: () => Promise<T>) => Promise<T>;
  busy?: () => boolean;
  /** Longest wall wait between two looks at the queue (new jobs, a resumed clock). Default 250 ms. */
  maxWaitMs?: number;
  onError?: (err: unknown) => void;
}

/**
 * While the scheme clock is running, runs due jobs as their time comes: it sleeps until the next
 * due (in wall time, at the clock's speed), at most `maxWaitMs`, then runs everything due and
 * commits. A frozen clock moves only when told, so the timer then only watches for a resume.
 * It has the shape of a runtime Worker ({start, stop}).
 */
export class SchedulerTimer {
  readonly #o: Required<Omit<SchedulerTimerOptions, 'exclusive' | 'busy'>> &
    Pick<Required<SchedulerTimerOptions>, 'exclusive' | 'busy'>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #started = false;
  #offClock: (() => void) | undefined;

  constructor(options: SchedulerTimerOptions) {
    this.#o = {
      maxWaitMs: 250,
      onError: (err) => console.error(`scheme-sim: scheduler timer: ${(err as Error)?.message ?? String(err)}`),
      exclusive: (work) => work(),
      busy: () => false,
      ...options,
    };
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    // A frozen clock keeps no timer: a resume (any change of the clock) arms one. A server with
    // many frozen worlds (sandboxes) then spends nothing on them while idle.
    this.#offClock = this.#o.clock.onChange(() => {
      if (this.#started && this.#timer === undefined && this.#running === undefined) this.#arm();
    });
    this.#arm();
  }

  async stop(): Promise<void> {
    this.#started = false;
    this.#offClock?.();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /**
   * Runs what is due now (when running) and commits; returns how many jobs ran. A backlog (a clock
   * resumed at a high speed) runs in slices, as an advance does; while other long work runs, the
   * next look tries again.
   */
  async tick(): Promise<number> {
    const { scheduler, clock, commit, exclusive, busy } = this.#o;
    if (clock.mode !== 'running' || scheduler.advancing || busy()) return 0;
    const next = scheduler.nextDue();
    if (!next || next.getTime() > clock.now().getTime()) return 0;
    const ran = await exclusive(async () =>
      clock.mode !== 'running' || scheduler.advancing ? 0 : (await scheduler.runDue({ list: 0 })).jobs_run_count,
    );
    await commit();
    return ran;
  }

  #delay(): number {
    const { scheduler, clock, maxWaitMs } = this.#o;
    if (clock.mode !== 'running') return maxWaitMs;
    const next = scheduler.nextDue();
    if (!next) return maxWaitMs;
    const wait = (next.getTime() - clock.now().getTime()) / clock.speed;
    return Math.max(0, Math.min(maxWaitMs, Math.ceil(wait)));
  }

  #arm(): void {
    this.#timer = undefined;
    if (!this.#started || this.#o.clock.mode !== 'running') return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.tick()
        .then(
          () => undefined,
          (err: unknown) => this.#o.onError(err),
        )
        .finally(() => {
          this.#running = undefined;
          this.#arm();
        });
    }, this.#delay());
    this.#timer.unref();
  }
}
