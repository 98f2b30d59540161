import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import { openAccount } from '../../test/support/testing.ts';
import { NORTHWIND, testRuntime } from '../harness/test-runtime.ts';
import { listen } from '../node/server.ts';
import { UsageError } from './cli-errors.ts';
import { logsCommand } from './follow.ts';
import { listenCommand } from './listen.ts';

let target: CliTarget;
beforeAll(async () => {
  target = await cliTarget();
});
afterAll(() => target.close());

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i++) {
    await target.rt.delivery.runDue();
    await new Promise((r) => setTimeout(r, 25));
  }
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe('scheme-sim listen', () => {
  it('prints each notification, forwards it with its signature, and removes its subscriptions on stop', async () => {
    const forwarded: Array<{ headers: Record<string, unknown>; body: string }> = [];
    const app = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        forwarded.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    const appUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/webhooks`;
    const out: string[] = [];
    const stop = new AbortController();
    const running = listenCommand(
      ['--types', 'accounts', '--events', 'created', '--forward-to', appUrl],
      (l) => out.push(l),
      target.env,
      stop.signal,
    );
    await until(() => out.some((l) => l.startsWith('listening on')), 'the listener');
    expect(out[0]).toMatch(
      /^listening on http:\/\/127\.0\.0\.1:\d+\/ for created of accounts, forwarding to .* \(1 subscriptions;/,
    );
    const accountId = await openAccount(target.rt);
    await until(() => forwarded.length > 0 && out.some((l) => l.includes('→')), 'the forwarded notification');
    expect(out.some((l) => l.endsWith(`created accounts ${accountId}`))).toBe(true);
    expect(JSON.parse(forwarded[0]!.body).data.data.id).toBe(accountId);
    expect(forwarded[0]!.headers.signature).toBeDefined();
    stop.abort();
    await running;
    const subs = (await (await target.rt.call('GET', '/v1/notification/subscriptions')).json()) as { data: unknown[] };
    expect(subs.data).toEqual([]);
    await new Promise<void>((r) => app.close(() => r()));
  }, 30_000);

  it('refuses a --forward-to that is not a URL as a usage error', async () => {
    await expect(listenCommand(['--forward-to', 'localhost:3000'], () => undefined, target.env)).rejects.toThrow(
      UsageError,
    );
  });
});

describe('scheme-sim listen across a reset and a restart', () => {
  /** A forward-to app that records what reaches it. */
  async function forwardTo() {
    const forwarded: string[] = [];
    const app = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        forwarded.push(JSON.parse(body).data.data.id);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(app.address() as { port: number }).port}/`,
      forwarded,
      close: () => new Promise<void>((r) => app.close(() => r())),
    };
  }

  it('keeps its subscriptions through a reset, says so once, and loses no notification after it', async () => {
    const app = await forwardTo();
    const out: string[] = [];
    const stop = new AbortController();
    const running = listenCommand(
      ['--types', 'accounts', '--events', 'created', '--forward-to', app.url],
      (l) => out.push(l),
      target.env,
      stop.signal,
      () => undefined,
    );
    await until(() => out.some((l) => l.startsWith('listening on')), 'the listener');
    // The listener holds its subscription once its stream is open.
    await until(() => target.rt.sim.listeners.size === 1, 'the stream to hold the subscription');
    const reset = await target.rt.call('POST', '/v1/simulator/reset');
    expect(reset.status).toBe(200);
    // At once after the reset's answer: nothing waits for the listener.
    const accountId = await openAccount(target.rt);
    await until(() => app.forwarded.includes(accountId), 'the notification after the reset');
    const said = out.filter((l) => l.startsWith('the simulator was reset'));
    expect(said).toEqual([
      `the simulator was reset (organisation ${NORTHWIND.organisation_id}); listen's subscriptions were kept (1)`,
    ]);
    stop.abort();
    await running;
    expect(target.rt.sim.listeners.size).toBe(0);
    await app.close();
  }, 60_000);

  it('makes its subscriptions again when a restarted simulator has lost them, and says so once', async () => {
    const app = await forwardTo();
    const first = await testRuntime();
    let server = await listen(first, 0);
    const port = server.port;
    const env = { ...target.env, SCHEME_SIM_URL: server.url };
    const out: string[] = [];
    const stop = new AbortController();
    const running = listenCommand(
      ['--types', 'accounts', '--events', 'created', '--forward-to', app.url],
      (l) => out.push(l),
      env,
      stop.signal,
      () => undefined,
    );
    await until(() => first.sim.listeners.size === 1, 'the stream to hold the subscription');
    await server.close();
    // The same port, a fresh simulator in memory: the subscription is gone.
    const second = await testRuntime();
    server = await listen(second, port);
    await until(() => second.sim.listeners.size === 1, 'the listener to come back and subscribe again');
    expect(out.filter((l) => l.startsWith('the subscriptions were gone'))).toEqual([
      'the subscriptions were gone (the simulator was reset or restarted): 1 made again',
    ]);
    // Said at most once, however long the simulator was away.
    expect(out.filter((l) => l.startsWith('lost the simulator')).length).toBeLessThanOrEqual(1);
    const accountId = await openAccount(second);
    for (let i = 0; i < 200 && !app.forwarded.includes(accountId); i++) {
      await second.delivery.runDue();
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(app.forwarded).toContain(accountId);
    stop.abort();
    await running;
    await server.close();
    await app.close();
  }, 60_000);
});

describe('scheme-sim logs', () => {
  it("prints requests and delivery attempts oldest first, without the tools' own reads", async () => {
    await target.rt.call('GET', '/v1/transaction/claims?filter[colour]=red');
    const out: string[] = [];
    await logsCommand(
      [],
      (l) => out.push(l),
      target.env,
      undefined,
      () => undefined,
    );
    expect(out.some((l) => /GET \/v1\/transaction\/claims 400 [\d.]+ms error_code=/.test(l))).toBe(true);
    expect(out.some((l) => l.includes(' delivery '))).toBe(true);
    expect(out.some((l) => l.includes('/v1/simulator/requests') || l.includes('/v1/simulator/deliveries'))).toBe(false);
  }, 30_000);

  it('--follow --status 4xx streams only those lines and adds nothing to the journal', async () => {
    await target.rt.call('GET', '/v1/transaction/claims?filter[colour]=blue');
    const journal = target.rt.deps.journal!;
    const all = () => journal.list(undefined, { own: 'true,false' }).length;
    const stop = new AbortController();
    const followed: string[] = [];
    const running = logsCommand(
      ['--follow', '--status', '4xx'],
      (l) => followed.push(l),
      target.env,
      stop.signal,
      () => undefined,
    );
    await until(() => followed.length > 0, 'the backlog');
    const before = all();
    await target.rt.call('GET', '/v1/transaction/payments?filter[amount]=ten');
    await target.rt.call('GET', '/v1/transaction/payments');
    await until(() => followed.some((l) => l.includes('GET /v1/transaction/payments 400')), 'the new 400');
    expect(followed.every((l) => / 4\d\d /.test(l))).toBe(true);
    // Two requests made here; the stream and the command's reads added none.
    expect(all()).toBe(before + 2);
    stop.abort();
    await running;
    await expect(logsCommand(['--status', 'bad'], () => undefined, target.env)).rejects.toThrow(UsageError);
  }, 30_000);
});
