// Issue 43's delivery across a failover: three nodes (real processes) on one real PostgreSQL, a
// sandbox with a webhook subscription whose receiver fails every attempt, the sandbox's owner
// killed with -9 while its retries are pending. The next owner delivers every notification of
// every acknowledged change at least once, each with one webhook-id on all its attempts, and makes
// no second notification of any change (the outbox is committed with the change, and a job of a
// stale owner is refused).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killNodes, type NodeProcess, roundRobin, startCluster, untilHealth } from '../support/node-cluster.ts';
import { postgresForTests } from '../support/postgres-for-tests.ts';
import { accountBody, newSandbox } from '../support/sandbox-client.ts';
import { TestReceiver } from '../support/webhook-receiver.ts';

const postgres = postgresForTests();
const nodes: NodeProcess[] = [];
const receiver = new TestReceiver();

beforeAll(async () => {
  await receiver.up();
}, 60_000);
afterAll(async () => {
  await killNodes(nodes);
  await receiver.down();
});

/** The account a notification is about, and its webhook-id. */
function about(body: string, headers: Record<string, unknown>): { account: string; webhookId: string; id: string } {
  const n = JSON.parse(body) as { id: string; data: { data: { id: string } } };
  return { account: n.data.data.id, webhookId: String(headers['webhook-id']), id: n.id };
}

describe.skipIf(!postgres.available)('a shared double delivering notifications across kill -9', () => {
  it('delivers every acknowledged change at least once, under one webhook-id, and notifies none twice', async () => {
    // Retries every 300 ms, so attempts are pending when the owner dies.
    const started = await startCluster(await postgres.server.createDatabase(), 3, nodes, [
      '--retry-schedule',
      '0,300ms',
    ]);
    const live = new Set(started);
    const rr = roundRobin(() => [...live].map((n) => n.url));
    const s = await newSandbox(rr.fetch);
    const org = s.admin.organisation_id;
    const send = (method: string, path: string, body?: unknown) =>
      rr.fetch(path, {
        method,
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    receiver.otherwise = 500;
    const sub = await send('POST', '/v1/notification/subscriptions', {
      data: {
        id: randomUUID(),
        organisation_id: org,
        type: 'subscriptions',
        attributes: {
          callback_uris: [{ callback_transport: 'http', callback_uri: receiver.url }],
          event_type: 'created',
          record_type: 'accounts',
        },
      },
    });
    expect(sub.status, await sub.clone().text()).toBe(201);

    const acknowledged: string[] = [];
    const create = async (i: number) => {
      const body = accountBody(org, `Holder ${i}`, String(40_000_000 + i));
      const res = await send('POST', '/v1/organisation/accounts', body);
      if (res.status === 201) acknowledged.push(body.data.id);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 15; i++) await create(i);
    // Every change so far has met its receiver failing at least once: its retries are pending.
    await TestReceiver.until(
      () => new Set(receiver.requests.map((r) => about(r.body, r.headers).account)).size >= acknowledged.length,
      'a first attempt of every notification',
      30_000,
    );

    let owner: NodeProcess | undefined;
    for (const n of live) if ((await untilHealth(n.url, () => true)).node.owns.includes(s.id)) owner = n;
    expect(owner, 'the sandbox has an owner').toBeDefined();
    owner!.child.kill('SIGKILL');
    live.delete(owner!);
    await owner!.exited;
    receiver.otherwise = 200;
    // Changes the next owner acknowledges (held until it serves the sandbox, then answered).
    for (let i = 15; i < 25; i++) await create(i);
    expect(acknowledged.length).toBe(25);

    const deliveredAccounts = () => new Set(receiver.delivered.map((r) => about(r.body, r.headers).account));
    await TestReceiver.until(
      () => acknowledged.every((id) => deliveredAccounts().has(id)),
      'a delivery of every acknowledged account',
      60_000,
    );
    // One notification per change: every attempt about one account carries the same notification
    // id and the same webhook-id, whichever node sent it.
    const byAccount = new Map<string, Set<string>>();
    for (const r of receiver.requests) {
      const n = about(r.body, r.headers);
      expect(n.webhookId, 'webhook-id is the notification id').toBe(n.id);
      byAccount.set(n.account, (byAccount.get(n.account) ?? new Set()).add(n.webhookId));
    }
    for (const id of acknowledged)
      expect([...(byAccount.get(id) ?? [])], `notifications of account ${id}`).toHaveLength(1);
    // The pending ones were retried by the next owner: the first 15 saw a failed attempt before the kill.
    const failedFirst = acknowledged
      .slice(0, 15)
      .filter((id) => receiver.requests.some((r) => r.status === 500 && about(r.body, r.headers).account === id));
    expect(failedFirst).toHaveLength(15);
  }, 180_000);
});
