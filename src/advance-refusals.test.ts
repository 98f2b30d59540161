import { afterEach, describe, expect, it } from 'vitest';
import { AdvanceRefused, type AdvanceRequest } from './clock/advance.ts';
import { SchemeClock } from './clock/scheme-clock.ts';
import { TEST_START, type TestRuntime, testRuntime } from './harness/test-runtime.ts';
import { advance } from './index.ts';

// The clock's advance checks live once, in src/clock: advance() from code and the HTTP route
// refuse the same targets with the same message (issue 28: advance() once ran 641,715 jobs to
// reach 2300 where the route answered 400).

let rt: TestRuntime | undefined;
afterEach(async () => {
  await rt?.close();
  rt = undefined;
});

/** What advance() from code refuses with, or undefined when it advanced. */
async function fromCode(runtime: TestRuntime, request: AdvanceRequest): Promise<AdvanceRefused | undefined> {
  try {
    await advance(runtime, request);
    return undefined;
  } catch (err) {
    if (err instanceof AdvanceRefused) return err;
    throw err;
  }
}

async function overHttp(runtime: TestRuntime, request: AdvanceRequest): Promise<{ status: number; message: string }> {
  const res = await runtime.call('POST', '/v1/simulator/clock/advance', request);
  return { status: res.status, message: ((await res.json()) as { error_message: string }).error_message };
}

describe('advance() and POST /v1/simulator/clock/advance refuse alike', () => {
  it.each<[string, AdvanceRequest, number, RegExp]>([
    ['a target before the clock', { to: '2026-12-20T09:00:00Z' }, 409, /^to \(2026-12-20T09:00:00\.000Z\) is before/],
    [
      'the year 2300 (outside the dates)',
      { to: '2300-01-01T00:00:00Z' },
      400,
      /outside the dates the simulator supports/,
    ],
    ['more than five years on', { to: '2031-12-21T09:00:00.001Z' }, 400, /more than 5 years after the scheme clock/],
    ['an instant that is no instant', { to: '2026-12-31T23:59:60Z' }, 400, /^to is not a valid instant$/],
  ])('%s: same refusal, clock and jobs untouched', async (_, request, status, message) => {
    rt = await testRuntime();
    const before = rt.sim.clock.now().toISOString();
    const refused = await fromCode(rt, request);
    expect(refused?.message).toMatch(message);
    expect(refused?.reason).toBe(status === 409 ? 'backward' : 'unreachable');
    expect(await overHttp(rt, request)).toEqual({ status, message: refused?.message });
    expect(rt.sim.clock.now().toISOString()).toBe(before);
    expect(before).toBe(TEST_START);
  });

  it('a count that leaves the calendar, near its end: same refusal', async () => {
    rt = await testRuntime({ clockState: SchemeClock.frozenAt('2199-12-28T09:00:00Z') });
    for (const request of [{ working_days: 5 }, { days: 4 }, { hours: 96 }] as AdvanceRequest[]) {
      const refused = await fromCode(rt, request);
      expect(refused?.message).toMatch(/outside the dates the simulator supports \(1900-01-01 to 2199-12-31\)/);
      expect(await overHttp(rt, request)).toEqual({ status: 400, message: refused?.message });
    }
    expect(rt.sim.clock.now().toISOString()).toBe('2199-12-28T09:00:00.000Z');
  });

  it('what one accepts, the other accepts: the five-year limit itself', async () => {
    rt = await testRuntime();
    expect(await fromCode(rt, { to: '2031-12-21T09:00:00Z' })).toBeUndefined();
    const res = await rt.call('POST', '/v1/simulator/clock/advance', { to: '2036-12-21T09:00:00Z' });
    expect(res.status).toBe(200);
    expect(rt.sim.clock.now().toISOString()).toBe('2036-12-21T09:00:00.000Z');
  });
});
