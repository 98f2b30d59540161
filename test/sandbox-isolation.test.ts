import { afterEach, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../src/harness/test-runtime.ts';
import { newSandbox } from './support/sandbox-client.ts';
import { findLeaks } from './support/sandbox-isolation.ts';

let rt: TestRuntime;
afterEach(() => rt?.close());

const fetchOf = (r: TestRuntime) => async (path: string, init?: RequestInit) => r.app.request(path, init);

describe('sandbox isolation', () => {
  it('finds no way from one sandbox into another, either way round', async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const a = await newSandbox(fetchOf(rt), { clock: { mode: 'frozen', start: '2026-12-21T09:00:00Z' } }, admin);
    const b = await newSandbox(fetchOf(rt), { clock: { mode: 'frozen', start: '2026-12-21T09:00:00Z' } }, admin);
    expect(await findLeaks(fetchOf(rt), a, b, admin)).toEqual([]);
    expect(await findLeaks(fetchOf(rt), b, a, admin)).toEqual([]);
  });

  it('fails when a leak is planted: two sandboxes sharing one token issuer', async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const a = await newSandbox(fetchOf(rt), {}, admin);
    const b = await newSandbox(fetchOf(rt), {}, admin);
    // The plant: B's app also takes A's tokens, as one token key shared by every world would.
    const bDeps = rt.sandboxes.get(b.id)!.world.deps;
    const own = bDeps.tokens;
    const other = rt.sandboxes.get(a.id)!.world.deps.tokens;
    bDeps.tokens = Object.assign(Object.create(own), {
      claimsOf: (token: string) => {
        const mine = own.claimsOf(token);
        return mine.ok ? mine : other.claimsOf(token);
      },
    });
    const leaks = await findLeaks(fetchOf(rt), a, b, admin);
    expect(leaks).toContain("A's token works under B's path prefix");
  });

  it('fails when a leak is planted: a request routed to the wrong world', async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const a = await newSandbox(fetchOf(rt), {}, admin);
    const b = await newSandbox(fetchOf(rt), {}, admin);
    // The plant: a router that sends B's path prefix to A's world, whatever the token says.
    const route = rt.sandboxes.route.bind(rt.sandboxes);
    rt.sandboxes.route = (path, auth) =>
      path.startsWith(`/sandboxes/${b.id}`)
        ? { entry: rt.sandboxes.get(a.id)!, path: path.slice(47) }
        : route(path, auth);
    const leaks = await findLeaks(fetchOf(rt), a, b, admin);
    expect(leaks).toContain("A's token works under B's path prefix");
  });
});
