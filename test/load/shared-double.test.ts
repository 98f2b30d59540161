import { afterEach, describe, expect, it } from 'vitest';
import {
  killNodes,
  type NodeProcess,
  ownsOf,
  roundRobin,
  startCluster,
  startNodeProcess,
  untilHealth,
} from '../support/node-cluster.ts';
import { postgresForTests } from '../support/postgres-for-tests.ts';
import { accountBody, newSandbox, type SandboxClient } from '../support/sandbox-client.ts';
import { missingAnywhere, oneOwnerPerEpoch, steadyLoad } from '../support/steady-load.ts';

// Issue 43: N nodes (`scheme-sim start --node`, real processes) on one real PostgreSQL are one
// double. A client that goes round them as a load balancer gets the answers one simulator gives;
// an owner killed with -9, paused past its lease, or stopped with SIGTERM loses nothing acknowledged.

const postgres = postgresForTests();
const nodes: NodeProcess[] = [];
afterEach(() => killNodes(nodes));

async function cluster(count: number, extra: string[] = []): Promise<{ database: string; started: NodeProcess[] }> {
  const database = await postgres.server.createDatabase();
  return { database, started: await startCluster(database, count, nodes, extra) };
}

/** A token of the default sandbox's admin (the fixtures' dev client), through any node. */
async function defaultAdminToken(send: ReturnType<typeof roundRobin>['fetch']): Promise<string> {
  const basic = Buffer.from('northwind-dev:northwind-dev-secret').toString('base64');
  const res = await send('/v1/oauth2/token', {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The node that serves `world`, once one does. */
async function ownerOf(list: NodeProcess[], world: string): Promise<NodeProcess> {
  for (;;) {
    for (const [n, owns] of await ownsOf(list)) if (owns.includes(world)) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!postgres.available)('a shared double: three nodes on one PostgreSQL', () => {
  it('answers through any node as one simulator, sandboxes and all', async () => {
    const { started } = await cluster(3);
    const rr = roundRobin(() => started.map((n) => n.url));
    const sandboxes = [await newSandbox(rr.fetch), await newSandbox(rr.fetch), await newSandbox(rr.fetch)];
    const created: Array<{ s: SandboxClient; id: string }> = [];
    for (const s of sandboxes)
      for (let i = 0; i < 3; i++) {
        const body = accountBody(s.admin.organisation_id, `Round ${i}`, String(20_000_000 + created.length));
        const res = await rr.fetch('/v1/organisation/accounts', {
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(201);
        created.push({ s, id: body.data.id });
      }
    // Each sandbox sees its own accounts only, through every node.
    for (const n of started)
      for (const s of sandboxes) {
        const res = await fetch(`${n.url}/v1/organisation/accounts?page[size]=1000`, {
          headers: { authorization: `Bearer ${s.token}` },
        });
        const ids = ((await res.json()) as { data: Array<{ id: string }> }).data.map((a) => a.id);
        for (const c of created) expect(ids.includes(c.id)).toBe(c.s === s);
      }
    // Each world has one owner; the sandboxes were placed on the least-loaded nodes, so they spread.
    const owners = oneOwnerPerEpoch(rr.answers);
    for (const s of sandboxes) expect([...owners.keys()].some((k) => k.startsWith(`${s.id}@`))).toBe(true);
    const owns = await ownsOf(started);
    const all = [...owns.values()].flat();
    expect(all.sort()).toEqual(['default', ...sandboxes.map((s) => s.id)].sort());
    expect([...owns.values()].filter((o) => o.length > 0).length).toBe(3);
    for (const n of started) {
      const health = await (await fetch(`${n.url}/health`)).json();
      expect(health.node).toMatchObject({ id: n.id, database: 'reachable', owns: owns.get(n) });
    }
  }, 120_000);

  it('lists the sandboxes of every node through any node, and counts --max-sandboxes across the nodes', async () => {
    const { started } = await cluster(3, ['--max-sandboxes', '6']);
    const rr = roundRobin(() => started.map((n) => n.url));
    const sandboxes: SandboxClient[] = [];
    for (let i = 0; i < 6; i++) sandboxes.push(await newSandbox(rr.fetch));
    // Placed on the least-loaded node: each of the three owns some, fewer than the limit of six.
    const owns = await ownsOf(started);
    for (const n of started) {
      const own = sandboxes.filter((s) => owns.get(n)!.includes(s.id));
      expect(own.length, `${n.id} owns ${owns.get(n)}`).toBeGreaterThan(0);
      expect(own.length).toBeLessThan(6);
    }
    // The default sandbox's admin lists every sandbox, whichever node it asks.
    const admin = await defaultAdminToken(rr.fetch);
    const listed = async (url: string) => {
      const res = await fetch(`${url}/v1/simulator/sandboxes`, { headers: { authorization: `Bearer ${admin}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Array<{ id: string }> }).data.map((d) => d.id).sort();
    };
    for (const n of started) expect(await listed(n.url), `through ${n.id}`).toEqual(sandboxes.map((s) => s.id).sort());
    // Six are live on the double, two or so per node: a seventh is refused through every node, as
    // one simulator with --max-sandboxes 6 refuses it (decision 037).
    for (const n of started) {
      const res = await fetch(`${n.url}/v1/simulator/sandboxes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { type: 'sandboxes', attributes: {} } }),
      });
      expect(res.status, `through ${n.id}`).toBe(403);
      expect(((await res.json()) as { error_message: string }).error_message).toBe(
        "the server's limit of 6 live sandboxes is reached (--max-sandboxes); delete one first",
      );
    }
    // One deleted, through any node, frees its place for the next.
    const gone = await fetch(`${started[2]!.url}/v1/simulator/sandboxes/${sandboxes[0]!.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(gone.status).toBe(204);
    const again = await newSandbox(rr.fetch);
    expect(await listed(started[1]!.url)).toEqual([...sandboxes.slice(1).map((s) => s.id), again.id].sort());
  }, 120_000);

  it('refuses the late commit of an owner paused past its lease, and no epoch has two owners', async () => {
    const { started } = await cluster(2);
    const live = new Set(started);
    const rr = roundRobin(() => [...live].map((n) => n.url));
    const s = await newSandbox(rr.fetch);
    const owner = await ownerOf(started, s.id);
    const other = started.find((n) => n !== owner)!;
    // A create whose headers reach the owner (so it takes it on) and whose body comes after the pause.
    const body = accountBody(s.admin.organisation_id, 'Late', '30000001');
    const text = JSON.stringify(body);
    let release!: () => void;
    const rest = new Promise<void>((r) => {
      release = r;
    });
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
        await rest;
        controller.enqueue(new TextEncoder().encode(text.slice(10)));
        controller.close();
      },
    });
    const late = fetch(`${owner.url}/v1/organisation/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await new Promise((r) => setTimeout(r, 300));
    owner.child.kill('SIGSTOP');
    live.delete(owner); // a paused process answers nothing: the balancer's check takes it out
    await untilHealth(other.url, (h) => h.node.owns.includes(s.id));
    const during = await rr.fetch('/v1/organisation/accounts', {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(accountBody(s.admin.organisation_id, 'During', '30000002')),
    });
    expect(during.status).toBe(201);
    owner.child.kill('SIGCONT');
    release();
    const lateAnswer = await late;
    // Refused as Form3 answers a service that cannot take the request now: 503 with Retry-After.
    expect(lateAnswer.status).toBe(503);
    expect(lateAnswer.headers.get('retry-after')).toBe('1');
    expect(((await lateAnswer.json()) as { error_message: string }).error_message).toMatch(/the write was refused/);
    while (!owner.log().includes('the write was refused')) await new Promise((r) => setTimeout(r, 100));
    // The late create is nowhere; the one made meanwhile is, through both nodes.
    for (const n of started) {
      const gone = await fetch(`${n.url}/v1/organisation/accounts/${body.data.id}`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect(gone.status).toBe(404);
      expect(gone.headers.get('x-scheme-sim-node')).toBe(other.id);
    }
    const owners = oneOwnerPerEpoch(rr.answers);
    expect([...owners.values()]).toContain(other.id);
  }, 120_000);

  it('restarts all three nodes with SIGTERM, one at a time, under load: no request fails that was retried once', async () => {
    const { database, started } = await cluster(3);
    const live = [...started];
    const rr = roundRobin(() => live.map((n) => n.url));
    const sandboxes: SandboxClient[] = [];
    for (let i = 0; i < 5; i++) sandboxes.push(await newSandbox(rr.fetch));
    const load = steadyLoad(sandboxes, rr, { retryOnce: true, mixed: false });
    for (let i = 0; i < started.length; i++) {
      await new Promise((r) => setTimeout(r, 1500));
      const old = live[i]!;
      old.child.kill('SIGTERM');
      expect(await old.exited).toBe('0');
      // Gone: the balancer's health check takes it out until it is back.
      live.splice(i, 1);
      const fresh = await startNodeProcess(database, `${old.id}r`, old.port);
      nodes.push(fresh);
      live.splice(i, 0, fresh);
    }
    await new Promise((r) => setTimeout(r, 1500));
    await load.stop();
    expect(load.failures).toEqual([]);
    expect(load.acknowledged.length).toBeGreaterThan(20);
    expect(
      await missingAnywhere(
        load.acknowledged,
        live.map((n) => n.url),
      ),
    ).toEqual([]);
    oneOwnerPerEpoch(rr.answers);
  }, 240_000);
});
