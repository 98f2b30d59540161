import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../src/cli/proxy.ts';
import { replayCommand } from '../src/cli/replay.ts';
import type { ReplayReport } from '../src/cli/replay-report.ts';
import { HARBOUR, NORTHWIND } from '../src/harness/test-runtime.ts';
import type { RunningServer } from '../src/node/server.ts';
import { tourSimulator } from './support/divergent-simulator.ts';
import { accountBody } from './support/sandbox-client.ts';

// Two clients in one recording: Northwind creates an account, Harbour fails to read it, 404. Replayed as the CLI's client alone, Harbour's read goes as
// Northwind and is answered 200: the replay names it. With --client mapping Harbour to a client of
// the target, its requests go as that client again, and nothing diverges.

let dir: string;
let recording: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'replay-clients-'));
  recording = join(dir, 'two-clients.jsonl');
  const recorded = await tourSimulator();
  servers.push(recorded);
  const proxy = await startProxy(recorded.url, recording);
  const basic = (c: typeof NORTHWIND) => `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const token = async (init: RequestInit) =>
    (
      (await (await fetch(`${proxy.url}/v1/oauth2/token`, { method: 'POST', ...init })).json()) as {
        access_token: string;
      }
    ).access_token;
  const northwind = await token({
    headers: { authorization: basic(NORTHWIND), ...form },
    body: 'grant_type=client_credentials',
  });
  const harbour = await token({
    headers: { authorization: basic(HARBOUR), ...form },
    body: 'grant_type=client_credentials',
  });
  const id = 'c0ffee00-1111-4222-8333-444455556666';
  const created = await fetch(`${proxy.url}/v1/organisation/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${northwind}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { ...accountBody(NORTHWIND.organisation_id, 'Two Clients', '41426819').data, id } }),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const read = await fetch(`${proxy.url}/v1/organisation/accounts/${id}`, {
    headers: { authorization: `Bearer ${harbour}` },
  });
  if (read.status !== 404) throw new Error(`Harbour's read answered ${read.status}`);
  await proxy.close();
}, 60_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

async function replay(args: string[]): Promise<{ code: number; report: ReplayReport }> {
  const target = await tourSimulator();
  servers.push(target);
  const file = join(dir, `report-${servers.length}.json`);
  const env = {
    SCHEME_SIM_PROFILE: join(dir, 'no-profile.json'),
    SCHEME_SIM_CLIENT_ID: NORTHWIND.client_id,
    SCHEME_SIM_CLIENT_SECRET: NORTHWIND.client_secret,
  };
  const code = await replayCommand([recording, '--against', target.url, '--report', file, ...args], env, () => {});
  return { code, report: JSON.parse(readFileSync(file, 'utf8')) as ReplayReport };
}

describe('a recording of two clients', () => {
  it('keeps no secret of either', () => {
    const text = readFileSync(recording, 'utf8');
    expect(text).not.toContain(NORTHWIND.client_secret);
    expect(text).not.toContain(HARBOUR.client_secret);
  });

  it('replayed as one client, names the read that now succeeds', async () => {
    const { code, report } = await replay([]);
    expect(report.divergences.map((d) => `${d.scenario} ${d.case} ${d.expected} ${d.actual}`)).toEqual([
      '#4 GET /v1/organisation/accounts/{id} status (status) 404 200',
    ]);
    expect(code).toBe(1);
  }, 60_000);

  it('replayed with the second client mapped (--client), agrees', async () => {
    const { code, report } = await replay([
      '--client',
      `${HARBOUR.client_id}=${HARBOUR.client_id}:${HARBOUR.client_secret}`,
    ]);
    expect(report.divergences).toEqual([]);
    expect(code).toBe(0);
  }, 60_000);
});
