import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccount } from '../../../test/support/testing.ts';
import { TEST_START, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

// Long work (an advance, a reset) runs in slices; reads are answered between them, changes wait.
// Slices of a few jobs, and the store's commits held at a slice boundary until the test lets them
// go, make the slicing visible without depending on how fast the machine is: every assertion is
// about order, never about time.

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
  rt.sim.scheduler.slice = { ms: 20, jobs: 5 };
});
afterEach(() => rt.close());

const DAY = 86_400_000;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Schedules `n` jobs over two years; resolves `started` when the first one runs. */
function manyJobs(n: number): { started: Promise<void>; ran: string[] } {
  const ran: string[] = [];
  let first: () => void;
  const started = new Promise<void>((resolve) => {
    first = resolve;
  });
  rt.sim.scheduler.handle('tick', (job) => {
    ran.push(job.id);
    first();
  });
  for (let i = 0; i < n; i++)
    rt.sim.scheduler.schedule('tick', new Date(Date.parse(TEST_START) + (i + 1) * ((2 * 365 * DAY) / n)), {}, `t${i}`);
  return { started, ran };
}

/** Holds every commit of the store until `release` (reads never wait for one; a slice boundary does). */
function holdCommits(): { held: Promise<void>; release: () => void } {
  const store = rt.sim.store;
  const commit = store.commit.bind(store);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let first!: () => void;
  const held = new Promise<void>((resolve) => {
    first = resolve;
  });
  store.commit = () => {
    first();
    return gate.then(commit);
  };
  return {
    held,
    release: () => {
      store.commit = commit;
      release();
    },
  };
}

/**
 * Starts a two-year advance and returns once it waits at its first slice boundary (commits held);
 * the log gets "advance" when its answer is in.
 */
async function startAdvance(log: string[], n = 2000): Promise<{ advance: Promise<Response>; release: () => void }> {
  manyJobs(n);
  const { held, release } = holdCommits();
  const advance = rt.call('POST', '/v1/simulator/clock/advance', { days: 730 }).then((res) => {
    log.push('advance');
    return res;
  });
  await held;
  expect(rt.sim.scheduler.advancing).toBe(true);
  return { advance, release };
}

/** A few turns of the event loop: enough for anything not held back to go on. */
async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await turn();
}

describe('a long advance', () => {
  it('answers /health and reads while it runs, at a slice boundary', async () => {
    const account = await openAccount(rt);
    const log: string[] = [];
    const { advance, release } = await startAdvance(log);
    const health = await rt.app.request('/health');
    log.push('health');
    expect(health.status).toBe(200);
    const read = await rt.call('GET', `/v1/organisation/accounts/${account}`);
    log.push('read');
    expect(read.status).toBe(200);
    const clock = await (await rt.call('GET', '/v1/simulator/clock')).json();
    // A slice boundary: the clock shows the last job's time, past the start and short of the target.
    expect(clock.data.now > TEST_START).toBe(true);
    expect(clock.data.now < '2028-12-20T09:00:00.000Z').toBe(true);
    release();
    expect((await advance).status).toBe(200);
    expect(log).toEqual(['health', 'read', 'advance']);
  });

  it('holds a change request until it has finished, and the change then succeeds', async () => {
    const log: string[] = [];
    const { advance, release } = await startAdvance(log);
    const opened = openAccount(rt).then((id) => {
      log.push('create');
      return id;
    });
    await turns();
    expect(log).toEqual([]);
    release();
    const res = await advance;
    const id = await opened;
    expect(res.status).toBe(200);
    expect(log).toEqual(['advance', 'create']);
    const read = await (await rt.call('GET', `/v1/organisation/accounts/${id}`)).json();
    // Made after the advance: on the advanced clock.
    expect(read.data.created_on >= '2028-12-20').toBe(true);
  });

  it('refuses a second advance while one runs, in the error shape', async () => {
    const log: string[] = [];
    const { advance, release } = await startAdvance(log);
    const second = await rt.call('POST', '/v1/simulator/clock/advance', { days: 1 });
    expect(second.status).toBe(409);
    const body = await second.json();
    expect(body.error_message).toMatch(/an advance of the scheme clock is already running/);
    expect(body.error_code).toEqual(expect.any(String));
    expect(log).toEqual([]);
    release();
    const done = await (await advance).json();
    expect(done.data.jobs_run_count).toBe(2000);
    expect(done.data.now).toBe('2028-12-20T09:00:00.000Z');
  });

  it('makes a reset wait for it', async () => {
    const log: string[] = [];
    const { advance, release } = await startAdvance(log, 500);
    const reset = rt.call('POST', '/v1/simulator/reset', { scope: 'all' }).then((res) => {
      log.push('reset');
      return res;
    });
    await turns();
    expect(log).toEqual([]);
    release();
    const advanced = await advance;
    expect(advanced.status).toBe(200);
    expect((await advanced.json()).data.now).toBe('2028-12-20T09:00:00.000Z');
    expect((await reset).status).toBe(200);
    // Which answer reaches its client first is up to the event loop; the order of the work is
    // not: the reset ran after the whole advance, so the clock is back at the start.
    expect(log.sort()).toEqual(['advance', 'reset']);
    expect(rt.sim.clock.now().toISOString()).toBe(TEST_START);
  });

  it('opens the gate when it fails', async () => {
    const log: string[] = [];
    manyJobs(50);
    const store = rt.sim.store;
    const commit = store.commit.bind(store);
    // The disk fails every write: the slice's commit and the one the next slice queues behind it.
    const failing: Array<(err: Error) => void> = [];
    store.commit = () =>
      new Promise<void>((_, reject) => {
        failing.push(reject);
      });
    const advance = rt.call('POST', '/v1/simulator/clock/advance', { days: 730 }).then((res) => {
      log.push('advance');
      return res;
    });
    while (!rt.sim.scheduler.advancing) await turn();
    const opened = openAccount(rt).then(() => log.push('create'));
    await turns();
    expect(log).toEqual([]);
    store.commit = commit;
    for (const fail of failing) fail(new Error('disk full'));
    expect((await advance).status).toBe(500);
    await opened; // 201, or openAccount throws
    expect(log.sort()).toEqual(['advance', 'create']);
    expect(rt.sim.longWork.running).toBeUndefined();
    expect(rt.sim.scheduler.advancing).toBe(false);
  });
});
