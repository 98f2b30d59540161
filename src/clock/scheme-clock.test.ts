import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { ClockError, type ClockState, MAX_SPEED, SchemeClock } from './scheme-clock.ts';

const T0 = '2026-12-21T09:00:00.000Z';

function memory(): { saved: ClockState | undefined; load(): ClockState | undefined; save(s: ClockState): void } {
  const p = {
    saved: undefined as ClockState | undefined,
    load: () => p.saved,
    save: (s: ClockState) => void (p.saved = s),
  };
  return p;
}

describe('SchemeClock', () => {
  it('frozen: stays put while wall time passes, moves forward only when told', () => {
    const wall = new ManualClock(T0);
    const clock = new SchemeClock({ initial: SchemeClock.frozenAt(T0, wall), wall });
    wall.advanceMs(3_600_000);
    expect(clock.now().toISOString()).toBe(T0);
    clock.setTo(new Date('2026-12-22T09:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2026-12-22T09:00:00.000Z');
    expect(() => clock.setTo(new Date(T0))).toThrow(ClockError);
    expect(() => clock.setTo(new Date(T0))).toThrow(/only moves forward/);
  });

  it('running: follows the wall clock from its offset at its speed', () => {
    const wall = new ManualClock('2030-01-01T00:00:00.000Z');
    const clock = new SchemeClock({ initial: SchemeClock.runningFrom(T0, 2, wall), wall });
    wall.advanceMs(1000);
    expect(clock.now().toISOString()).toBe('2026-12-21T09:00:02.000Z');
    clock.setTo(new Date('2026-12-22T00:00:00.000Z'));
    wall.advanceMs(500);
    expect(clock.now().toISOString()).toBe('2026-12-22T00:00:01.000Z');
  });

  it('freeze keeps the time reached; resume runs on from it at a new speed', () => {
    const wall = new ManualClock(T0);
    const clock = new SchemeClock({ initial: SchemeClock.runningFrom(T0, 1, wall), wall });
    wall.advanceMs(10_000);
    clock.freeze();
    wall.advanceMs(50_000);
    expect(clock.mode).toBe('frozen');
    expect(clock.now().toISOString()).toBe('2026-12-21T09:00:10.000Z');
    clock.freeze();
    expect(clock.now().toISOString()).toBe('2026-12-21T09:00:10.000Z');
    clock.resume(10);
    wall.advanceMs(1000);
    expect(clock.mode).toBe('running');
    expect(clock.speed).toBe(10);
    expect(clock.now().toISOString()).toBe('2026-12-21T09:00:20.000Z');
  });

  it('rejects speeds that are not positive, finite and at most MAX_SPEED', () => {
    const clock = new SchemeClock({ initial: SchemeClock.frozenAt(T0) });
    for (const bad of [0, -1, Infinity, NaN, MAX_SPEED + 1]) expect(() => clock.resume(bad)).toThrow(/speed must be/);
    expect(clock.mode).toBe('frozen');
  });

  it('persists every change; a new clock over the same persistence keeps the virtual time and offset', () => {
    const wall = new ManualClock(T0);
    const p = memory();
    const a = new SchemeClock({
      initial: SchemeClock.runningFrom('2027-01-04T09:00:00.000Z', 1, wall),
      wall,
      persistence: p,
    });
    wall.advanceMs(5000);
    const b = new SchemeClock({
      initial: SchemeClock.frozenAt('2020-01-01T00:00:00.000Z', wall),
      wall,
      persistence: p,
    });
    expect(b.mode).toBe('running');
    expect(b.now().toISOString()).toBe('2027-01-04T09:00:05.000Z');
    a.freeze();
    const c = new SchemeClock({
      initial: SchemeClock.frozenAt('2020-01-01T00:00:00.000Z', wall),
      wall,
      persistence: p,
    });
    expect(c.mode).toBe('frozen');
  });

  it('reset may go back; a broken stored state is refused with a reason', () => {
    const clock = new SchemeClock({ initial: SchemeClock.frozenAt('2027-01-01T00:00:00.000Z') });
    clock.reset(SchemeClock.frozenAt(T0));
    expect(clock.now().toISOString()).toBe(T0);
    const p = memory();
    p.saved = { mode: 'sideways', virtual_ms: 0, wall_ms: 0, speed: 1 } as unknown as ClockState;
    expect(() => new SchemeClock({ initial: SchemeClock.frozenAt(T0), persistence: p })).toThrow(
      /stored clock state: mode must be frozen or running/,
    );
    p.saved = { mode: 'frozen', virtual_ms: 'x', wall_ms: 0, speed: 1 } as unknown as ClockState;
    expect(() => new SchemeClock({ initial: SchemeClock.frozenAt(T0), persistence: p })).toThrow(/virtual_ms/);
  });

  it('pins now() while a job runs and unpins after, even when it throws', () => {
    const clock = new SchemeClock({ initial: SchemeClock.frozenAt(T0) });
    const pinned = new Date('2026-12-22T00:00:00.000Z');
    expect(clock.pinnedAt(pinned, () => clock.now().toISOString())).toBe(pinned.toISOString());
    expect(() =>
      clock.pinnedAt(pinned, () => {
        throw new Error('x');
      }),
    ).toThrow('x');
    expect(clock.now().toISOString()).toBe(T0);
  });
});

describe('SchemeClock.atLeast', () => {
  it('moves forward to the target, a running clock running on from there', () => {
    const wall = new ManualClock(T0);
    const clock = new SchemeClock({ initial: SchemeClock.runningFrom(T0, 1, wall), wall });
    clock.atLeast(new Date('2027-01-04T09:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2027-01-04T09:00:00.000Z');
    wall.advanceMs(1000);
    expect(clock.now().toISOString()).toBe('2027-01-04T09:00:01.000Z');
  });

  it('keeps a later time without throwing (a running clock that passed the target)', () => {
    const wall = new ManualClock(T0);
    const clock = new SchemeClock({ initial: SchemeClock.runningFrom(T0, 1000, wall), wall });
    const target = clock.now();
    wall.advanceMs(5); // 5 virtual seconds pass at speed 1000
    expect(() => clock.atLeast(target)).not.toThrow();
    expect(clock.now().getTime()).toBe(target.getTime() + 5000);
    expect(() => clock.atLeast(new Date(Number.NaN))).not.toThrow();
    expect(clock.now().getTime()).toBe(target.getTime() + 5000);
  });
});
