// Everything that happens later in a flow (a claim's next step, a report's arrival) is a job due at
// a scheme time: the scheduler that keeps them and runs them in order as the clock moves.
import { randomUUID } from 'node:crypto';
import { refuseTarget } from './advance.ts';
import { MinHeap } from './heap.ts';
import type {
  AdvanceOptions,
  AdvanceResult,
  AdvanceRun,
  Job,
  JobHandler,
  JobRun,
  JobStore,
  SliceLimits,
} from './scheduler-types.ts';
import { ClockError, type SchemeClock } from './scheme-clock.ts';

export type { AdvanceResult, Job, JobStore } from './scheduler-types.ts';

/**
 * Runs jobs in due order as scheme time passes. Advancing to a target runs every job due up to it,
 * each with the clock pinned to its own due time; jobs scheduled by a job inside the window run too.
 */
export class Scheduler {
  readonly #clock: SchemeClock;
  readonly #jobs: JobStore;
  /** The pending jobs by id, mirroring the job store (which is written, never read, on the hot path). */
  readonly #pending = new Map<string, Job>();
  readonly #handlers = new Map<string, JobHandler<unknown>>();
  readonly #heap = new MinHeap<{ due: number; seq: number; id: string }>(
    (a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq),
  );
  #seq = 0;
  #advancing = false;
  /** Runs a handler as one unit of the store (changes undone if it throws); default: just runs it. */
  readonly #atomically: <T>(fn: () => T) => T;
  /** Makes a slice's work durable before the next slice (`advanceInSlices`); default: nothing to do. */
  readonly #commit: () => Promise<void>;
  /** Whether the next slice runs while the last slice's commit is written (decision 044, 045). */
  readonly #overlapCommits: boolean;
  /** The size of a slice of `advanceInSlices`. */
  slice: SliceLimits = { ms: 10, jobs: Infinity };
  /** Counts schedules and cancels, to know whether a failed handler touched the queue. */
  #changes = 0;
  /** Called with failures of handlers (after their changes are undone); the job is still removed so one bad job cannot wedge time. */
  onJobError: (job: Job, err: unknown) => void = (job, err) => {
    console.error(`scheme-sim: job ${job.kind} ${job.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  };

  constructor(
    clock: SchemeClock,
    jobs: JobStore,
    options: { atomically?: <T>(fn: () => T) => T; commit?: () => Promise<void>; overlapCommits?: boolean } = {},
  ) {
    this.#clock = clock;
    this.#jobs = jobs;
    this.#atomically = options.atomically ?? ((fn) => fn());
    this.#commit = options.commit ?? (() => Promise.resolve());
    this.#overlapCommits = options.overlapCommits ?? false;
    this.reload();
  }

  /** Rebuilds the in-memory queue from the job store (start-up, reset). */
  reload(): void {
    this.#heap.clear();
    this.#pending.clear();
    this.#seq = 0;
    for (const job of this.#jobs.values()) {
      this.#pending.set(job.id, job);
      this.#seq = Math.max(this.#seq, job.seq + 1);
      this.#heap.push({ due: Date.parse(job.due), seq: job.seq, id: job.id });
    }
  }

  /** Registers the handler of a kind of job, once (at construction of the service that owns it). */
  handle<P>(kind: string, handler: JobHandler<P>): void {
    if (this.#handlers.has(kind)) throw new Error(`a handler for job kind ${kind} is already registered`);
    // Payloads are typed where a kind is scheduled and handled; the queue itself holds them as unknown.
    this.#handlers.set(kind, handler as JobHandler<unknown>);
  }

  /** Queues a job (once per id: scheduling a pending id again keeps the first); `owner` is the organisation it works for. */
  schedule<P>(kind: string, due: Date, payload: P, id: string = randomUUID(), owner?: string): Job<P> {
    if (Number.isNaN(due.getTime())) throw new RangeError(`job ${kind} ${id}: due is not a valid date`);
    const existing = this.#pending.get(id);
    if (existing) return existing as Job<P>;
    const job: Job<P> = { id, due: due.toISOString(), kind, payload, seq: this.#seq++, ...(owner ? { owner } : {}) };
    this.#changes++;
    this.#jobs.put(job);
    this.#pending.set(id, job);
    this.#heap.push({ due: due.getTime(), seq: job.seq, id });
    return job;
  }

  cancel(id: string): void {
    if (this.#pending.delete(id)) {
      this.#changes++;
      this.#jobs.delete(id); // the heap entry is skipped when popped
    }
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * The pending jobs an organisation may see, its own and those of no organisation: how many, and
   * when the first is due. A tenant never learns of another's work.
   */
  pendingOf(viewer: string): { count: number; next: Date | null } {
    let count = 0;
    let next = Number.POSITIVE_INFINITY;
    for (const job of this.#pending.values()) {
      if (job.owner !== undefined && job.owner !== viewer) continue;
      count++;
      next = Math.min(next, Date.parse(job.due));
    }
    return { count, next: count > 0 ? new Date(next) : null };
  }

  /** Cancels every pending job of an organisation; returns how many. */
  cancelOwnedBy(owner: string): number {
    let n = 0;
    for (const job of [...this.#pending.values()]) {
      if (job.owner !== owner) continue;
      this.cancel(job.id);
      n++;
    }
    return n;
  }

  nextDue(): Date | null {
    this.#dropCancelledHead();
    const head = this.#heap.peek();
    return head ? new Date(head.due) : null;
  }

  /**
   * Runs every job due at or before `target` in due order (ties: first scheduled first), then moves
   * the clock to `target` (a running clock that has already passed it keeps its time). Each job runs with the clock pinned to its due time, or to the latest
   * time already shown when its due is earlier (a job scheduled for the past never moves time
   * back). Jobs a job schedules at or before `target` run in the same advance.
   *
   * Synchronous from start to end: nothing else can observe a half-done advance. Calls from inside
   * a job are refused; a job is removed before its handler runs, so no job runs twice. The server
   * uses `advanceInSlices` (same runs, same result), which gives the event loop back now and then.
   *
   * `options.from` is the caller's reading of "now" (a route reads the clock once per request and
   * computes the target from it); without it the clock is read here. A running clock moves on
   * between two reads, so the target is checked against that one reading only.
   *
   * `options.viewer` is the organisation asking: every due job runs, but the result counts and
   * lists only its own runs and those of no organisation (a tenant never sees another's work).
   */
  advanceTo(target: Date, options: AdvanceOptions = {}): AdvanceResult {
    const run = this.#begin(target, options);
    try {
      while (this.#step(run));
      this.#clock.atLeast(target);
    } finally {
      this.#advancing = false;
    }
    return this.#result(run);
  }

  /**
   * What `advanceTo` does, in slices: after about `slice.ms` of work (or `slice.jobs` jobs) the
   * clock moves to the last job's time, so every slice ends in a consistent "advanced to T" state;
   * the store's commit of that state starts (`commit` of the constructor) and the event loop is
   * given back before the next slice. With `overlapCommits` (a store whose writes are another
   * process's work: PostgreSQL) the next slice runs while that commit is written, and the commit
   * after it waits for it (decision 044): one commit in flight at most, so memory and writes stay
   * flat, and a failed commit fails the advance one slice later. Without it, each commit is
   * written before the next slice runs, so the process is idle while it is and requests get the
   * machine (decision 045). The last slice's commit is the caller's; the advance resolves once the
   * one before it is written. An advance that fits in one slice never awaits. `advancing` stays
   * true from the first job to the last.
   */
  async advanceInSlices(target: Date, options: AdvanceOptions = {}): Promise<AdvanceResult> {
    const run = this.#begin(target, options);
    const slice = () => {
      const started = performance.now();
      let n = 0;
      let more = this.#step(run);
      // The time is read after every job: one report job can take milliseconds, and reading the
      // clock costs nanoseconds.
      while (more && ++n < this.slice.jobs && performance.now() - started < this.slice.ms) more = this.#step(run);
      return more;
    };

    /** The commit of the slice before, still being written while this slice runs. */
    let writing: Promise<void> | undefined;
    try {
      for (;;) {
        const more = options.within ? options.within(slice) : slice();
        // `more` says a job ran, not that one is left: a slice that ended on the last due job ends
        // the advance, without a commit and a turn of the event loop for an empty slice.
        if (!more || !this.#dueBy(run.limit)) break;
        this.#clock.atLeast(new Date(run.floor));
        const before = writing;
        writing = this.#commit();
        // Its failure is taken when it is awaited (next boundary or the end), never left unheard.
        writing.catch(() => undefined);
        if (before) await before;
        if (!this.#overlapCommits) await writing;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (writing) await writing;
      this.#clock.atLeast(target);
    } finally {
      this.#advancing = false;
    }
    return this.#result(run);
  }

  #begin(target: Date, options: AdvanceOptions): AdvanceRun {
    if (this.#advancing) throw new ClockError('an advance is already running: a job cannot advance the scheme clock');
    const from = options.from ?? this.#clock.now();
    refuseTarget(from, target, options.asked);
    this.#advancing = true;
    return {
      from,
      limit: target.getTime(),
      floor: from.getTime(),
      list: options.list ?? Infinity,
      viewer: options.viewer,
      jobs_run: [],
      byKind: {},
      count: 0,
    };
  }

  /** Runs the next job due inside the advance, as one unit of the store; false when none is left. */
  #step(r: AdvanceRun): boolean {
    for (;;) {
      const head = this.#heap.peek();
      if (!head || head.due > r.limit) return false;
      this.#heap.pop();
      const job = this.#pending.get(head.id);
      if (!job || job.seq !== head.seq) continue; // cancelled (and perhaps scheduled anew under the same id)
      this.#pending.delete(job.id);
      this.#jobs.delete(job.id);
      const handler = this.#handlers.get(job.kind);
      if (head.due > r.floor) r.floor = head.due;
      const now = new Date(r.floor);
      const visible = r.viewer === undefined || job.owner === undefined || job.owner === r.viewer;
      if (visible) {
        r.count++;
        r.byKind[job.kind] = (r.byKind[job.kind] ?? 0) + 1;
      }
      const run: JobRun = {
        id: job.id,
        kind: job.kind,
        due: job.due,
        ...(job.owner ? { organisation_id: job.owner } : {}),
      };
      const changes = this.#changes;
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        this.#atomically(() => this.#clock.pinnedAt(now, handler, job));
        if (visible && r.jobs_run.length < r.list) r.jobs_run.push(run);
      } catch (err) {
        // What the handler wrote was undone; jobs it scheduled or cancelled are back as the job
        // store has them. The failed job itself stays removed (it left the store before it ran).
        if (this.#changes !== changes) this.reload();
        if (visible) r.jobs_run.push({ ...run, error: (err as Error)?.message ?? String(err) });
        this.onJobError(job, err);
      }
      return true;
    }
  }

  #result(r: AdvanceRun): AdvanceResult {
    const next = this.nextDue();
    return {
      advanced_from: r.from.toISOString(),
      now: this.#clock.now().toISOString(),
      jobs_run: r.jobs_run,
      jobs_run_count: r.count,
      jobs_run_by_kind: r.byKind,
      next_due: next ? next.toISOString() : null,
    };
  }

  /** True while an advance runs (a job handler is on the stack, or a sliced advance is between slices). */
  get advancing(): boolean {
    return this.#advancing;
  }

  /** Runs what is due at the clock's current time, in slices (the running clock's timer calls this). */
  runDue(options: { list?: number } = {}): Promise<AdvanceResult> {
    return this.advanceInSlices(this.#clock.now(), options);
  }

  #dueBy(limit: number): boolean {
    this.#dropCancelledHead();
    const head = this.#heap.peek();
    return head !== undefined && head.due <= limit;
  }

  #dropCancelledHead(): void {
    for (let head = this.#heap.peek(); head && this.#pending.get(head.id)?.seq !== head.seq; head = this.#heap.peek())
      this.#heap.pop();
  }
}
