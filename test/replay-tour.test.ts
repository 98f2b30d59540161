import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecording } from '../src/cli/exchange-record.ts';
import { startProxy } from '../src/cli/proxy.ts';
import { replayCommand } from '../src/cli/replay.ts';
import type { ReplayReport } from '../src/cli/replay-report.ts';
import type { RunningServer } from '../src/node/server.ts';
import { ALL_PLANTINGS, type Plantings, tourSimulator } from './support/divergent-simulator.ts';
import { runReadmeTour } from './support/readme-tour.ts';

// Record and replay, end to end with listening simulators: the README's five-minute tour (account,
// name verification, claim, submission, 14 working days, the contra, the claim report), then one
// name verification with a typo in the surname, run through `scheme-sim proxy` in front of one
// simulator. The recording is replayed against a fresh one (no divergence), against one with three
// planted divergences (each named, nothing else), and against both at once (differential); a
// baseline turns a divergence from new to known. A replay moves its target's clock 14 working days,
// so every replay gets simulators of its own.

const ROOT = resolve(import.meta.dirname, '..');
/** Samantha Holder's seed account asked as "Samantha Holdre": a typo (Jaro-Winkler 0.967) the double calls close. */
const TYPO_REQUEST = `curl -s -X POST $SIM/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification -H "$AUTH" -H "$JSON" \\
  -d '{"Data":{"SchemeName":"SortCodeAccountNumber","AccountType":"Personal","Identification":"40030012345678","Name":"Samantha Holdre"}}'`;

let dir: string;
let recording: string;
const servers: RunningServer[] = [];

async function simulator(plantings: Plantings = {}): Promise<RunningServer> {
  const server = await tourSimulator(plantings);
  servers.push(server);
  return server;
}

/** replayCommand as the CLI runs it, as the tour's client, with what it printed. */
async function replay(args: string[]): Promise<{ code: number; out: string; report: ReplayReport; file: string }> {
  const lines: string[] = [];
  const file = join(dir, `report-${servers.length}-${Math.random().toString(36).slice(2)}.json`);
  const env = {
    SCHEME_SIM_PROFILE: join(dir, 'no-profile.json'),
    SCHEME_SIM_CLIENT_ID: 'northwind-dev',
    SCHEME_SIM_CLIENT_SECRET: 'northwind-dev-secret',
  };
  const code = await replayCommand([recording, '--report', file, ...args], env, (l) => lines.push(l));
  return { code, out: lines.join('\n'), report: JSON.parse(readFileSync(file, 'utf8')) as ReplayReport, file };
}

/** The divergences as the report names them: exchange, JSON path and what differs. */
const named = (report: ReplayReport) => report.divergences.map((d) => `${d.scenario} ${d.case}`).sort();

const NAME_VERIFICATION = 'POST /v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification';
const THRESHOLD = [
  // The matcher's typo threshold moved: Holdre is no longer a typo of Holder.
  `#14 ${NAME_VERIFICATION} $.Data.VerificationReport.Name (missing)`,
  `#14 ${NAME_VERIFICATION} $.Data.VerificationReport.ReasonCode (value)`,
];
const RENAMED = ['#8 POST /v1/transaction/claims/{id}/submissions $.data.attributes.settlement_date (renamed)'];
const FORMAT = [
  // The report format removed: the list offers one format fewer, and the PDF is refused.
  '#12 GET /v1/notification/reports $.data[0].attributes.formats[0] (missing)',
  '#13 GET /v1/notification/reports/{id} status (status)',
];
const PLANTED = [...THRESHOLD, ...RENAMED, ...FORMAT].sort();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'replay-tour-'));
  recording = join(dir, 'tour.jsonl');
  const recorded = await simulator();
  const proxy = await startProxy(recorded.url, recording);
  const tour = await runReadmeTour(ROOT, proxy.url, dir, [TYPO_REQUEST]);
  await proxy.close();
  if (tour.code !== 0) throw new Error(`the tour failed through the proxy: ${tour.out}`);
}, 120_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the README tour recorded through the proxy', () => {
  it('holds every exchange in order, bodies kept, no secret or token', () => {
    const exchanges = readRecording(recording);
    expect(
      exchanges.map((e) => `#${e.seq} ${e.request.method} ${e.request.path.split('?')[0]} ${e.response?.status}`),
    ).toEqual([
      '#1 POST /v1/oauth2/token 200',
      '#2 POST /v1/organisation/accounts 201',
      '#3 GET /v1/organisation/accounts/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc 200',
      '#4 GET /v1/organisation/accounts 200',
      '#5 DELETE /v1/organisation/accounts/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc 204',
      `#6 ${NAME_VERIFICATION} 200`,
      '#7 POST /v1/transaction/claims 201',
      '#8 POST /v1/transaction/claims/6d7e2c1a-3b4f-4a5e-8c9d-0e1f2a3b4c5d/submissions 201',
      '#9 POST /v1/simulator/clock/advance 200',
      '#10 GET /v1/transaction/payments 200',
      '#11 GET /v1/transaction/payments 200',
      '#12 GET /v1/notification/reports 200',
      expect.stringMatching(/^#13 GET \/v1\/notification\/reports\/[0-9a-f-]{36} 200$/),
      `#14 ${NAME_VERIFICATION} 200`,
    ]);
    // Bodies are kept: JSON as text, the PDF as base64.
    expect(JSON.parse(exchanges[1]!.request.body!).data.attributes.account_number).toBe('41426819');
    expect(JSON.parse(exchanges[13]!.response!.body!).Data.VerificationReport.ReasonCode).toBe('MBAM');
    expect(exchanges[12]!.response!.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(exchanges[12]!.response!.body!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    // Secrets are not: the client secret, the token (its fingerprint stays), the answers' signatures.
    const text = readFileSync(recording, 'utf8');
    expect(text).not.toContain('northwind-dev-secret');
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{20,}/);
    expect(exchanges[0]!.request.headers.authorization).toBe('Basic <masked>');
    expect(exchanges[0]!.request.auth).toEqual({ scheme: 'basic', client_id: 'northwind-dev' });
    const issued = JSON.parse(exchanges[0]!.response!.body!).access_token as string;
    expect(issued).toMatch(/^<masked token [0-9a-f]{16}>$/);
    expect(exchanges[1]!.request.headers.authorization).toBe(`Bearer ${issued}`);
    expect(exchanges[5]!.response!.headers['x-jws-signature']).toBe('<masked>');
  });
});

describe('replayed', () => {
  it('against a fresh simulator: no divergence, exit 0', async () => {
    const run = await replay(['--against', (await simulator()).url]);
    expect(named(run.report), run.out).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/: 14 exchanges, 0 diverging/);
  }, 60_000);

  it('against a simulator with three planted divergences: each named, nothing else, exit 1', async () => {
    const run = await replay(['--against', (await simulator(ALL_PLANTINGS)).url]);
    expect(named(run.report), run.out).toEqual(PLANTED);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/: 14 exchanges, 4 diverging\n\nDivergences \(5\):\n/);
    expect(run.out).toMatch(
      /#8 POST \/v1\/transaction\/claims\/\{id\}\/submissions +\$\.data\.attributes\.settlement_date \(renamed\) +"settlement_date" +"settlement_day"/,
    );
    expect(run.out).toMatch(
      /#13 GET \/v1\/notification\/reports\/\{id\} +status \(status\) +200 +"406 \(Accept application\/pdf/,
    );
    expect(run.out).toMatch(/\$\.Data\.VerificationReport\.ReasonCode \(value\) +"MBAM" +"ANNM"/);
  }, 60_000);

  it('with those divergences in an allow-list: shown as allowed, exit 0', async () => {
    const allow = join(dir, 'allow.txt');
    writeFileSync(
      allow,
      [
        '# the planted ones',
        'POST /v1/participants/*/name-verification $.Data.VerificationReport.*',
        '* /v1/transaction/claims/{id}/submissions $.data.attributes.settlement_date',
        'GET /v1/notification/reports* *',
      ].join('\n'),
    );
    const run = await replay(['--against', (await simulator(ALL_PLANTINGS)).url, '--allow', allow]);
    expect(run.report.divergences).toEqual([]);
    expect(run.report.allowed.map((d) => `${d.scenario} ${d.case}`).sort()).toEqual(PLANTED);
    expect(run.out).toMatch(/Allowed by the allow-list \(5\):/);
    expect(run.code).toBe(0);
  }, 60_000);
});

describe('differential', () => {
  it('the same requests to a fresh and a divergent simulator: each planted divergence named', async () => {
    const [first, second] = [await simulator(), await simulator(ALL_PLANTINGS)];
    const run = await replay(['--against', first.url, '--differential', second.url]);
    expect(named(run.report), run.out).toEqual(PLANTED);
    expect(run.report.compared_with).toBe(second.url);
    expect(run.out).toMatch(/exchange +path +first +second/);
    expect(run.code).toBe(1);
  }, 60_000);

  it('to two faithful simulators: no divergence', async () => {
    const run = await replay(['--against', (await simulator()).url, '--differential', (await simulator()).url]);
    expect(named(run.report), run.out).toEqual([]);
    expect(run.code).toBe(0);
  }, 60_000);
});

describe('against a baseline', () => {
  it('a divergence the baseline lacks is new and fails; once in the baseline, the run passes', async () => {
    // Yesterday's run: the target already had the threshold and the report format planted.
    const yesterday = await replay([
      '--against',
      (await simulator({ ...ALL_PLANTINGS, renameSubmissionAttribute: undefined })).url,
    ]);
    expect(named(yesterday.report)).toEqual([...THRESHOLD, ...FORMAT].sort());
    // Today the field is renamed too: one new divergence, the exit status 1.
    const today = await replay(['--against', (await simulator(ALL_PLANTINGS)).url, '--baseline', yesterday.file]);
    expect(today.code).toBe(1);
    expect(today.out).toMatch(
      /Against the baseline \S+ \(run [^)]+\): 1 new, 0 fixed, 4 still diverging\nNew \(1\):\n {2}submissions: #8 POST \/v1\/transaction\/claims\/\{id\}\/submissions: \$\.data\.attributes\.settlement_date \(renamed\)\nStill diverging \(4\):/,
    );
    // Tomorrow nothing changed: the same divergences, all in the baseline, and the run passes.
    const tomorrow = await replay(['--against', (await simulator(ALL_PLANTINGS)).url, '--baseline', today.file]);
    expect(tomorrow.out).toMatch(/: 0 new, 0 fixed, 5 still diverging/);
    expect(tomorrow.code).toBe(0);
    // The day it is fixed: shown as fixed, and the run passes.
    const fixed = await replay(['--against', (await simulator()).url, '--baseline', today.file]);
    expect(fixed.out).toMatch(/: 0 new, 5 fixed, 0 still diverging/);
    expect(fixed.code).toBe(0);
  }, 120_000);
});
