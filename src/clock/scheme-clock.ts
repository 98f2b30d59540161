// Tests must move time at will and the simulator must remember it across restarts: the scheme clock
// every domain rule reads instead of the wall clock.
import { type Clock, systemClock } from './clock.ts';

export type ClockMode = 'frozen' | 'running';

/** What is persisted: enough to recompute "now" after a restart. */
export interface ClockState {
  mode: ClockMode;
  /** Virtual time (ms since epoch) at the moment `wall_ms` was read. */
  virtual_ms: number;
  /** Wall time (ms) that corresponds to `virtual_ms`; only meaningful when running. */
  wall_ms: number;
  /** Virtual milliseconds per wall millisecond while running. */
  speed: number;
}

export class ClockError extends Error {}

/** The fastest a running clock may go: a virtual day takes under a tenth of a wall second. */
export const MAX_SPEED = 1_000_000;

/** Checks a speed: a positive finite number up to MAX_SPEED. */
export function checkSpeed(speed: number): void {
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED) {
    throw new ClockError(`speed must be a number greater than 0 and at most ${MAX_SPEED}, got ${String(speed)}`);
  }
}

/** Rejects a persisted clock that cannot be read (hand-edited data file), naming what is wrong. */
export function checkState(state: unknown, where = 'clock state'): ClockState {
  const s = state as Partial<ClockState> | null;
  if (typeof s !== 'object' || s === null) throw new ClockError(`${where} must be an object`);
  if (s.mode !== 'frozen' && s.mode !== 'running')
    throw new ClockError(`${where}: mode must be frozen or running, got ${String(s.mode)}`);
  for (const k of ['virtual_ms', 'wall_ms'] as const) {
    if (typeof s[k] !== 'number' || !Number.isFinite(s[k]) || Number.isNaN(new Date(s[k]).getTime())) {
      throw new ClockError(`${where}: ${k} must be a time in milliseconds, got ${String(s[k])}`);
    }
  }
  checkSpeed(s.speed as number);
  return { mode: s.mode, virtual_ms: s.virtual_ms!, wall_ms: s.wall_ms!, speed: s.speed! };
}

/** Where the clock keeps its state; the store's meta in the simulator, a variable in tests. */
export interface ClockPersistence {
  load(): ClockState | undefined;
  save(state: ClockState): void;
}

/**
 * Virtual scheme time. Frozen: moves only when told. Running: follows the wall clock from an
 * offset at a speed. Forward-only (except `reset`). While the scheduler runs a job the clock is
 * pinned to that job's due time, so everything the job does is stamped with it.
 */
export class SchemeClock implements Clock {
  #state: ClockState;
  #pinned: number | null = null;
  readonly #wall: Clock;
  readonly #persistence: ClockPersistence | undefined;
  readonly #listeners = new Set<() => void>();
  /** True when the state came from persistence (a restart) rather than `initial`. */
  readonly restored: boolean;

  constructor(options: { initial: ClockState; wall?: Clock; persistence?: ClockPersistence }) {
    this.#wall = options.wall ?? systemClock;
    this.#persistence = options.persistence;
    const stored = options.persistence?.load();
    this.restored = stored !== undefined;
    this.#state = checkState(stored ?? options.initial, stored ? 'stored clock state' : 'initial clock state');
    this.#save();
  }

  static frozenAt(at: Date | string, wall?: Clock): ClockState {
    return {
      mode: 'frozen',
      virtual_ms: new Date(at).getTime(),
      wall_ms: (wall ?? systemClock).now().getTime(),
      speed: 1,
    };
  }

  static runningFrom(at: Date | string, speed = 1, wall?: Clock): ClockState {
    checkSpeed(speed);
    return {
      mode: 'running',
      virtual_ms: new Date(at).getTime(),
      wall_ms: (wall ?? systemClock).now().getTime(),
      speed,
    };
  }

  now(): Date {
    if (this.#pinned !== null) return new Date(this.#pinned);
    return new Date(this.#unpinnedMs());
  }

  get mode(): ClockMode {
    return this.#state.mode;
  }

  get speed(): number {
    return this.#state.speed;
  }

  get state(): Readonly<ClockState> {
    return { ...this.#state };
  }

  /** Moves virtual time forward to `target`. Refuses to go back. A running clock runs on from there. */
  setTo(target: Date): void {
    if (Number.isNaN(target.getTime())) throw new ClockError('the scheme clock cannot be set to an invalid date');
    const current = this.#unpinnedMs();
    if (target.getTime() < current) {
      throw new ClockError(
        `the scheme clock only moves forward: ${target.toISOString()} is before ${new Date(current).toISOString()}`,
      );
    }
    this.#state = { ...this.#state, virtual_ms: target.getTime(), wall_ms: this.#wall.now().getTime() };
    this.#save();
  }

  /**
   * Moves virtual time to `target` unless the clock already reads later (a running clock may have
   * passed it since it was read). Never throws: the scheduler calls it after the jobs of an advance
   * have run, when refusing would report a failure for work already done.
   */
  atLeast(target: Date): void {
    const ms = target.getTime();
    if (Number.isNaN(ms) || ms <= this.#unpinnedMs()) return;
    this.#state = { ...this.#state, virtual_ms: ms, wall_ms: this.#wall.now().getTime() };
    this.#save();
  }

  /** Stops the clock at the current virtual time. Freezing a frozen clock changes nothing. */
  freeze(): void {
    this.#state = {
      ...this.#state,
      mode: 'frozen',
      virtual_ms: this.#unpinnedMs(),
      wall_ms: this.#wall.now().getTime(),
    };
    this.#save();
  }

  /** Runs from the current virtual time at `speed` (kept from before when omitted). */
  resume(speed = this.#state.speed): void {
    checkSpeed(speed);
    this.#state = { mode: 'running', virtual_ms: this.#unpinnedMs(), wall_ms: this.#wall.now().getTime(), speed };
    this.#save();
  }

  /** Replaces the whole state, backwards included: only for a simulator reset. */
  reset(state: ClockState): void {
    this.#state = checkState(state, 'reset clock state');
    this.#pinned = null;
    this.#save();
  }

  /** Runs `fn(arg, at)` with now() reading `at`. Used by the scheduler for each job. */
  pinnedAt<A, T>(at: Date, fn: (arg: A, at: Date) => T, arg: A): T;
  pinnedAt<T>(at: Date, fn: () => T): T;
  pinnedAt<A, T>(at: Date, fn: (arg: A, at: Date) => T, arg?: A): T {
    const before = this.#pinned;
    this.#pinned = at.getTime();
    try {
      return fn(arg as A, at);
    } finally {
      this.#pinned = before;
    }
  }

  #unpinnedMs(): number {
    const s = this.#state;
    if (s.mode === 'frozen') return s.virtual_ms;
    return s.virtual_ms + Math.floor((this.#wall.now().getTime() - s.wall_ms) * s.speed);
  }

  #save(): void {
    this.#persistence?.save({ ...this.#state });
    for (const listener of this.#listeners) listener();
  }

  /** Calls `listener` after every change of the clock (set, frozen, resumed, reset); returns how to stop. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
