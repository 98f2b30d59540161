import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../src/clock/clock.ts';
import { type TestRuntime, testRuntime } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { openAccount, subscribeToAccounts } from './support/testing.ts';
import { TestReceiver } from './support/webhook-receiver.ts';

// examples/form3-receiver.mjs, run as docs/notifications.md says: it accepts the simulator's
// signed notifications and refuses unsigned and tampered ones. (Run from the sources through the
// package's "source" export condition, so no build is needed.)

vi.setConfig({ testTimeout: 60_000 });
const ROOT = join(import.meta.dirname, '..');
let rt: TestRuntime;
let server: RunningServer;
let example: ChildProcess;
let exampleUrl: string;
const lines: string[] = [];

beforeAll(async () => {
  rt = await testRuntime({ wall: systemClock, delivery: { timeoutMs: 5000 } });
  rt.start();
  server = await listen(rt, 0);
  example = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', join(ROOT, 'examples', 'form3-receiver.mjs')],
    { cwd: ROOT, env: { ...process.env, PORT: '0', SCHEME_SIM_URL: server.url, TOKEN: await rt.token() } },
  );
  example.stdout!.on('data', (d: Buffer) => lines.push(...d.toString().trim().split('\n')));
  await TestReceiver.until(() => lines.some((l) => l.startsWith('listening on')), 'the example to listen', 30_000);
  exampleUrl = lines.find((l) => l.startsWith('listening on'))!.replace('listening on ', '');
}, 60_000);
afterAll(async () => {
  example?.kill();
  await server?.close();
  await rt?.close();
});

describe('the example receiver of docs/notifications.md', () => {
  it("accepts the simulator's notification and refuses it unsigned or tampered", async () => {
    // A second callback, a plain receiver, keeps a copy of the signed request to tamper with.
    const copy = new TestReceiver();
    await copy.up();
    await subscribeToAccounts(rt, [
      ['http', exampleUrl],
      ['http', copy.url],
    ]);
    const id = await openAccount(rt);
    await TestReceiver.until(() => lines.some((l) => l.startsWith('accepted created accounts')), 'the notification');
    await TestReceiver.until(() => copy.delivered.length === 1, 'the copy');
    const signed = copy.delivered[0]!;
    await copy.down();
    const tampered = await fetch(exampleUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        date: String(signed.headers.date),
        digest: String(signed.headers.digest),
        signature: String(signed.headers.signature),
      },
      body: signed.body.replace('"created"', '"deleted"'),
    });
    expect(tampered.status).toBe(401);
    expect(await tampered.text()).toContain('the Digest does not match the body');
    const unsigned = await fetch(exampleUrl, { method: 'POST', body: JSON.stringify({ data: { data: { id } } }) });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.text()).toContain('not signed');
  });
});
