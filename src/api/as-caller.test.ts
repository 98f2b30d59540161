import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAccount, subscribeToAccounts } from '../../test/support/testing.ts';
import { SchedulerTimer } from '../clock/scheduler-timer.ts';
import { HARBOUR, NORTHWIND, TEST_START, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { SCHEME_ACTOR } from '../sim/actor.ts';

const ACCOUNTS = '/v1/organisation/accounts';
const CALLBACK: Array<[string, string]> = [['http', 'http://127.0.0.1:9/hook']];

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime({ clockTimerMs: 5 });
});
afterEach(() => rt.close());

const accountBody = (client: typeof NORTHWIND, id: string = randomUUID()) => ({
  data: {
    id,
    organisation_id: client.organisation_id,
    attributes: { country: 'GB', name: ['Ada Lovelace'], ...client.bank },
  },
});

/** Who each stored notification about the record says made the change. */
const actorsOf = (recordId: string) =>
  rt.sim.outbox
    .pending()
    .filter((e) => (e.notification.data.data as { id: string }).id === recordId)
    .map((e) => e.notification.actioned_by);

/** A turn of the event loop: every promise that can settle now has. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the actor of a change under interleaved requests (actioned_by)', () => {
  it.each([
    ['Northwind waits, Harbour creates meanwhile', NORTHWIND, HARBOUR],
    ['Harbour waits, Northwind creates meanwhile', HARBOUR, NORTHWIND],
  ])('%s: each notification names its own client', async (_, waiting, other) => {
    await subscribeToAccounts(rt, CALLBACK, NORTHWIND);
    await subscribeToAccounts(rt, CALLBACK, HARBOUR);
    // The waiting request's body arrives only when released, and is read only by its route (its
    // length is declared, so the body limit reads the header alone): it has passed the /v1 layer,
    // which ran as its client, and waits in its route while the other request runs start to end.
    const waitingBody = accountBody(waiting);
    const bytes = new TextEncoder().encode(JSON.stringify(waitingBody));
    let release = () => {};
    let reading = () => {};
    const read = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          reading();
          return new Promise<void>((resolve) => {
            release = () => {
              controller.enqueue(bytes);
              controller.close();
              resolve();
            };
          });
        },
      },
      { highWaterMark: 0 }, // pulled when read, not as it is made
    );
    const waitingAnswer = rt.app.request(ACCOUNTS, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await rt.token(waiting)}`,
        'content-type': 'application/json',
        'content-length': String(bytes.length),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    await read;
    await turn();
    const otherId = await openAccount(rt, other);
    release();
    expect((await waitingAnswer).status).toBe(201);

    expect(actorsOf(waitingBody.data.id)).toEqual([waiting.uuid]);
    expect(actorsOf(otherId)).toEqual([other.uuid]);
  });

  it("an advance's jobs are its client's in every slice, and a change waiting for it is its own client's", async () => {
    await subscribeToAccounts(rt, CALLBACK, NORTHWIND);
    const harbours = await openAccount(rt, HARBOUR);
    const deletion = await rt.call(
      'POST',
      '/v1/notification/subscriptions',
      {
        data: {
          id: randomUUID(),
          organisation_id: HARBOUR.organisation_id,
          attributes: {
            event_type: 'deleted',
            record_type: 'accounts',
            callback_uris: CALLBACK.map(([callback_transport, callback_uri]) => ({ callback_transport, callback_uri })),
          },
        },
      },
      { client: HARBOUR },
    );
    expect(deletion.status).toBe(201);
    await rt.token(HARBOUR);

    // Each job opens a Northwind account, one job per slice: the advance awaits between them.
    rt.sim.scheduler.slice = { ms: 1000, jobs: 1 };
    const opened: string[] = [];
    let harbourDelete: Promise<Response> | undefined;
    rt.sim.scheduler.handle<{ id: string }>('test-open-account', (job) => {
      rt.sim.accounts.create(accountBody(NORTHWIND, job.payload.id).data);
      opened.push(job.payload.id);
      // Between this slice and the next, Harbour's delete passes the /v1 layer and waits for the
      // advance (a change waits for long work), then runs once it is over.
      harbourDelete ??= rt.call('DELETE', `${ACCOUNTS}/${harbours}?version=0`, undefined, { client: HARBOUR });
    });
    for (const hours of [1, 2, 3])
      rt.sim.scheduler.schedule(
        'test-open-account',
        new Date(Date.parse(TEST_START) + hours * 3600_000),
        { id: randomUUID() },
        undefined,
        NORTHWIND.organisation_id,
      );

    const advanced = await rt.call('POST', '/v1/simulator/clock/advance', { hours: 4 });
    expect(advanced.status).toBe(200);
    expect(opened).toHaveLength(3);
    expect((await harbourDelete)?.status).toBe(204);

    for (const id of opened) expect(actorsOf(id)).toEqual([NORTHWIND.uuid]);
    expect(actorsOf(harbours)).toEqual([HARBOUR.uuid]);
  });

  it("a job a running clock fires is the scheme's, though a client's request resumed the clock", async () => {
    await subscribeToAccounts(rt, CALLBACK, NORTHWIND);
    const id = randomUUID();
    rt.sim.scheduler.handle<{ id: string }>('test-open-account', (job) => {
      rt.sim.accounts.create(accountBody(NORTHWIND, job.payload.id).data);
    });
    rt.sim.scheduler.schedule('test-open-account', new Date(Date.parse(TEST_START) + 60_000), { id });
    const timer = rt.workers.find((w) => w instanceof SchedulerTimer);
    if (!timer) throw new Error('the runtime has no scheduler timer');
    timer.start();
    try {
      // The resume arms the timer from inside Northwind's request; the job runs later, on its own.
      expect((await rt.call('POST', '/v1/simulator/clock/resume', { speed: 1 })).status).toBe(200);
      rt.wall.advanceMs(120_000);
      await vi.waitFor(() => expect(actorsOf(id)).toHaveLength(1), { timeout: 5000, interval: 5 });
    } finally {
      await timer.stop();
    }
    expect(actorsOf(id)).toEqual([SCHEME_ACTOR]);
  });
});
