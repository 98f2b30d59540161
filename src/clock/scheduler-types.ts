// The records of the scheduler (scheduler.ts): jobs, their runs and what an advance answers.

/** A persisted unit of future work. `due` is an ISO instant on the scheme clock. */
export interface Job<P = unknown> {
  id: string;
  due: string;
  kind: string;
  payload: P;
  /** The organisation the job works for, if it works for one (answers show a client only its own). */
  owner?: string;
  /** Insertion sequence: breaks ties between jobs due at the same instant (first scheduled runs first). */
  seq: number;
}

/** Handlers run synchronously: each job is one unit of the store, and nothing interleaves with it. */
export type JobHandler<P = unknown> = (job: Job<P>, now: Date) => void;

/** Where jobs are kept; the simulator backs this with a store collection. */
export interface JobStore {
  values(): Job[];
  get(id: string): Job | undefined;
  put(job: Job): unknown;
  delete(id: string): unknown;
  has(id: string): boolean;
  readonly size: number;
}

export interface JobRun {
  id: string;
  kind: string;
  due: string;
  /** The job's owner: the organisation it works for, if any. */
  organisation_id?: string;
  error?: string;
}

export interface AdvanceOptions {
  /** How many runs the result lists (failed runs are always listed). */
  list?: number;
  /** The caller's reading of "now", which the target was computed from. */
  from?: Date;
  /** What the caller asked for (`to`, `working_days`, …), named when the target is refused. */
  asked?: string;
  /** The organisation asking: the result counts and lists only its runs and those of no organisation. */
  viewer?: string;
  /**
   * Runs each slice's jobs (synchronous work) for `advanceInSlices`: the server runs them as the
   * client advancing, the actor of what they change (src/sim/actor.ts). Default: runs them.
   */
  within?: Within;
}

/** Runs synchronous work: as the caller of a request (src/sim/actor.ts `runAs`), or as it is. */
export type Within = <T>(work: () => T) => T;

/** How much work one slice of an advance does before the event loop gets a turn. */
export interface SliceLimits {
  /** Wall milliseconds of work (checked every few jobs). */
  ms: number;
  /** Jobs at most (tests set a small number to see slices without depending on time). */
  jobs: number;
}

/** The state of one advance while it runs. */
export interface AdvanceRun {
  from: Date;
  limit: number;
  /** The latest time shown so far: the last job's time (never before `from`). */
  floor: number;
  list: number;
  viewer: string | undefined;
  jobs_run: JobRun[];
  byKind: Record<string, number>;
  count: number;
}

export interface AdvanceResult {
  advanced_from: string;
  now: string;
  /** The runs, in order, up to the `list` limit of the advance (failed runs are always listed). */
  jobs_run: JobRun[];
  /** How many jobs ran in all. */
  jobs_run_count: number;
  /** How many jobs of each kind ran. */
  jobs_run_by_kind: Record<string, number>;
  next_due: string | null;
}
