import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEvents, type StreamEvent } from '../../cli/event-stream.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

/** Opens the stream; `next()` answers its next event; `close()` ends it as a client going away. */
async function follow(query = '', client = NORTHWIND) {
  const stop = new AbortController();
  const res = await rt.app.request(`/v1/simulator/stream${query}`, {
    headers: { authorization: `Bearer ${await rt.token(client)}` },
    signal: stop.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const events = readEvents(res);
  return {
    next: async (): Promise<StreamEvent & { json: any }> => {
      const { value } = await events.next();
      return { ...value!, json: JSON.parse(value!.data) };
    },
    close: async () => {
      await events.return(undefined);
      stop.abort();
    },
  };
}

const subscribe = async (client = NORTHWIND) => {
  const id = crypto.randomUUID();
  const res = await rt.call(
    'POST',
    '/v1/notification/subscriptions',
    {
      data: {
        id,
        organisation_id: client.organisation_id,
        attributes: {
          record_type: 'accounts',
          event_type: 'created',
          callback_transport: 'http',
          callback_uri: 'http://127.0.0.1:1/hook',
        },
      },
    },
    { client },
  );
  expect(res.status).toBe(201);
  return id;
};

describe('GET /v1/simulator/stream', () => {
  it("streams the organisation's requests as they happen, filtered, and is not journaled itself", async () => {
    const stream = await follow('?filter[status]=4xx&filter[kind]=request');
    expect((await stream.next()).json).toEqual({ organisation_id: NORTHWIND.organisation_id, attached: [] });
    await rt.call('GET', '/v1/transaction/claims');
    await rt.call('GET', '/v1/transaction/claims?filter[colour]=red', undefined, { client: HARBOUR });
    await rt.call('GET', '/v1/transaction/claims?filter[colour]=red');
    const line = await stream.next();
    expect(line.event).toBe('request');
    expect(line.json).toMatchObject({ method: 'GET', path: '/v1/transaction/claims', status: 400 });
    expect(line.json.headers).toBeUndefined();
    await stream.close();
    const journal = await json(await rt.call('GET', '/v1/simulator/requests?filter[own]=true,false'));
    expect(journal.data.map((e: any) => e.attributes.path)).not.toContain('/v1/simulator/stream');
    expect(journal.data.map((e: any) => e.attributes.path)).not.toContain('/v1/simulator/requests');
  });

  it('says a reset happened, with the subscriptions it held (attach), which the reset kept', async () => {
    const held = await subscribe();
    const other = await subscribe();
    const stream = await follow(`?filter[kind]=reset&attach=${held}`);
    expect((await stream.next()).json.attached).toEqual([held]);
    expect(rt.sim.listeners.holds(held)).toBe(true);
    const reset = await json(await rt.call('POST', '/v1/simulator/reset'));
    expect(reset.meta.reset.records.subscriptions).toBe(1);
    const said = await stream.next();
    expect(said.event).toBe('reset');
    expect(said.json).toEqual({
      scope: 'organisation',
      organisation_id: NORTHWIND.organisation_id,
      kept_subscriptions: [held],
    });
    expect((await rt.call('GET', `/v1/notification/subscriptions/${held}`)).status).toBe(200);
    expect((await rt.call('GET', `/v1/notification/subscriptions/${other}`)).status).toBe(404);
    // Everything (an admin's reset): the held subscription is put back after the sweep.
    await rt.call('POST', '/v1/simulator/reset', { scope: 'all' });
    expect((await stream.next()).json).toEqual({ scope: 'all', kept_subscriptions: [held] });
    expect((await rt.call('GET', `/v1/notification/subscriptions/${held}`)).status).toBe(200);
    await stream.close();
    // Released with the stream: the next reset drops it.
    for (let i = 0; i < 100 && rt.sim.listeners.holds(held); i++) await new Promise((r) => setTimeout(r, 10));
    expect(rt.sim.listeners.holds(held)).toBe(false);
    await rt.call('POST', '/v1/simulator/reset');
    expect((await rt.call('GET', `/v1/notification/subscriptions/${held}`)).status).toBe(404);
  });

  it('refuses to attach a subscription that is not the caller’s, and an unknown kind', async () => {
    const theirs = await subscribe(HARBOUR);
    const res = await rt.call('GET', `/v1/simulator/stream?attach=${theirs}`);
    expect(res.status).toBe(404);
    expect((await rt.call('GET', '/v1/simulator/stream?attach=nope')).status).toBe(400);
    const kind = await rt.call('GET', '/v1/simulator/stream?filter[kind]=gossip');
    expect(kind.status).toBe(400);
    expect((await json(kind)).error_message).toBe('filter[kind] in query should be one of [request delivery reset]');
    expect(rt.sim.listeners.size).toBe(0);
  });
});
