import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import { openAccount } from '../../test/support/testing.ts';
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

describe('scheme-sim logs', () => {
  it('prints requests and delivery attempts oldest first, without its own polling; --follow picks up new ones', async () => {
    await target.rt.call('GET', '/v1/transaction/claims?filter[colour]=red');
    const out: string[] = [];
    await logsCommand([], (l) => out.push(l), target.env);
    expect(out.some((l) => /GET \/v1\/transaction\/claims 400 [\d.]+ms error_code=/.test(l))).toBe(true);
    expect(out.some((l) => l.includes(' delivery '))).toBe(true);
    expect(out.some((l) => l.includes('GET /v1/simulator/requests '))).toBe(false);
    const stop = new AbortController();
    const followed: string[] = [];
    const running = logsCommand(['--follow', '--interval', '50'], (l) => followed.push(l), target.env, stop.signal);
    await until(() => followed.length > 0, 'the first read');
    await target.rt.call('GET', '/v1/transaction/payments?filter[amount]=ten');
    await until(() => followed.some((l) => l.includes('GET /v1/transaction/payments 400')), 'the new request');
    stop.abort();
    await running;
    await expect(logsCommand(['--interval', '5'], () => undefined, target.env)).rejects.toThrow(UsageError);
  }, 30_000);
});
