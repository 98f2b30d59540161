// `scheme-sim conformance --generate --differential`, end to end with listening simulators: the
// command docs/conformance.md shows, as written, with the same seed, once against two faithful
// simulators (no divergence, exit 0) and once against a faithful one and one with three planted
// divergences (test/support/divergent-simulator.ts: a report format removed, the typo threshold
// moved, a field renamed): each named, and nothing else, exit 1; the report's divergences are what
// --baseline compares.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../src/cli/baseline.ts';
import type { GeneratedDivergence } from '../src/cli/generate-differential.ts';
import type { RunningServer } from '../src/node/server.ts';
import { ALL_PLANTINGS, type Plantings, tourSimulator } from './support/divergent-simulator.ts';

const ROOT = resolve(import.meta.dirname, '..');

interface Run {
  code: number;
  out: string;
  err: string;
  report: { divergences: GeneratedDivergence[]; differential: { exchanges: number; allowed: GeneratedDivergence[] } };
  reportFile: string;
}

const dirs: string[] = [];
const servers: RunningServer[] = [];

async function simulator(plantings: Plantings = {}): Promise<string> {
  const server = await tourSimulator(plantings);
  servers.push(server);
  return server.url;
}

/** The command as the page writes it, $SIM and $SECOND standing for the two simulators. */
function pageCommand(): string[] {
  const page = readFileSync(join(ROOT, 'docs', 'conformance.md'), 'utf8');
  const command =
    /## Generated differential runs[\s\S]*?```sh\n(npx scheme-sim conformance --generate[^\n]*)\n```/.exec(page)?.[1];
  if (!command) throw new Error('docs/conformance.md shows no generated differential command');
  return command.split(/\s+/).slice(2);
}

/** The rows of the divergence table the page shows: operation and where. */
function pageDivergences(): string[] {
  const page = readFileSync(join(ROOT, 'docs', 'conformance.md'), 'utf8');
  const section = page.slice(page.indexOf('## Generated differential runs'));
  const output = /```\n(Differential:[\s\S]*?)```/.exec(section)?.[1] ?? '';
  const table = output.slice(output.indexOf('Divergences ('), output.indexOf('Allowed (')).split('\n').slice(2);
  return table
    .filter((l) => l.startsWith('  '))
    .map((l) =>
      l
        .trim()
        .split(/\s{2,}/)
        .slice(0, 2)
        .join(' '),
    )
    .sort();
}

async function differential(second: Plantings): Promise<Run> {
  const [first, other] = [await simulator(), await simulator(second)];
  const dir = mkdtempSync(join(tmpdir(), 'generate-differential-'));
  dirs.push(dir);
  const args = pageCommand().map((a) => a.replace('$SIM', first).replace('$SECOND', other));
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'src', 'cli', 'main.ts'), ...args],
    {
      cwd: dir,
      env: { ...process.env, CONFORMANCE_REPORTS_DIR: '', SCHEME_SIM_PROFILE: join(dir, 'no-profile.json') },
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
  const reportFile = join(dir, 'reports', 'conformance-sim.json');
  return { code, out, err, report: JSON.parse(readFileSync(reportFile, 'utf8')), reportFile };
}

/** A divergence as the table names it: the operation whose answer differs, and where. */
const named = (run: Run) => run.report.divergences.map((d) => `${d.scenario} ${d.case}`).sort();

const NAME_VERIFICATION = 'POST /v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification';
const PLANTED = [
  // The typo threshold moved: the generated typo of the held name is no longer a close match.
  `${NAME_VERIFICATION} $.Data.VerificationReport.Name (missing)`,
  `${NAME_VERIFICATION} $.Data.VerificationReport.ReasonCode (value)`,
  // ... and so in every answer carrying a name verification's outcome through Form3's API: the
  // payer's side (its submission) and the payee's (its admission; the known account is the
  // caller's own organisation's).
  ...['actual_name (missing)', 'reason (value)', 'reason_code (value)'].flatMap((field) => [
    `GET /v1/organisation/nameverifications/{id} $.data.relationships.name_verification_submission.data[*].attributes.${field}`,
    `GET /v1/organisation/nameverifications $.data[*].relationships.name_verification_submission.data[*].attributes.${field}`,
    `GET /v1/organisation/nameverifications $.data[*].relationships.name_verification_admission.data[*].attributes.${field}`,
  ]),
  // settlement_date renamed in the submission's answers: the create's and the read's.
  'POST /v1/transaction/claims/{id}/submissions $.data.attributes.settlement_date (renamed)',
  'GET /v1/transaction/claims/{id}/submissions/{id} $.data.attributes.settlement_date (renamed)',
  // The claim submission report's pdf format removed: the reports listed offer one format fewer.
  'GET /v1/notification/reports $.data[*].attributes.formats[*] (missing)',
].sort();

let faithful: Run;
let divergent: Run;

beforeAll(async () => {
  // Two runs at once, each on simulators of its own (a run changes its targets).
  [faithful, divergent] = await Promise.all([differential({}), differential(ALL_PLANTINGS)]);
}, 170_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('conformance --generate --differential', () => {
  it('between two faithful simulators: the generated checks pass, no divergence, exit 0', () => {
    expect(faithful.code, faithful.out + faithful.err).toBe(0);
    expect(faithful.out).toMatch(/^conformance: \d+ passed, 0 failed/m);
    expect(faithful.report.divergences).toEqual([]);
    expect(faithful.report.differential.exchanges).toBeGreaterThan(200);
    expect(faithful.out).toMatch(/the second's answers compared with the first's: 0 divergences/);
  });

  it('against the divergent simulator: each planted divergence named, nothing else, exit 1', () => {
    expect(divergent.code, divergent.out + divergent.err).toBe(1);
    // The generated checks themselves pass on the first target: the exit is the divergences'.
    expect(divergent.out).toMatch(/^conformance: \d+ passed, 0 failed/m);
    expect(named(divergent)).toEqual(PLANTED);
    // Each with the generated case whose requests met it first, and the values on either side.
    const byName = new Map(divergent.report.divergences.map((d) => [`${d.scenario} ${d.case}`, d]));
    expect(byName.get(PLANTED.find((p) => p.includes('ReasonCode'))!)).toMatchObject({
      expected: 'MBAM',
      actual: 'ANNM',
      cases: [expect.stringMatching(/^valid POST \/v1\/participants\/\{open_banking_id\}/)],
    });
    expect(byName.get(PLANTED.find((p) => p.startsWith('POST /v1/transaction'))!)).toMatchObject({
      expected: 'settlement_date',
      actual: 'settlement_day',
    });
    expect(byName.get(PLANTED.find((p) => p.includes('formats'))!)).toMatchObject({ expected: 'pdf' });
    for (const line of PLANTED) {
      const [operation, where] = [line.slice(0, line.indexOf(' $') + 1).trim(), line.slice(line.indexOf(' $') + 1)];
      expect(divergent.out).toMatch(new RegExp(`^  ${literally(operation)}\\s+${literally(where)}\\s`, 'm'));
    }
  });

  it('the table docs/conformance.md shows is the one the divergent run prints', () => {
    expect(pageDivergences()).toEqual(named(divergent));
  });

  it('what differs by nature between any two targets is shown as allowed, never counted', () => {
    const allowed = faithful.report.differential.allowed.map((d) => d.scenario);
    expect(allowed.length).toBeGreaterThan(0);
    for (const operation of allowed)
      expect(operation).toMatch(/^(GET|POST) \/v1\/(platform\/security\/signing_keys|simulator\/)/);
  });

  it('writes the divergences where --baseline reads them: new against the faithful run, known against its own', () => {
    const faithfulReport = JSON.parse(readFileSync(faithful.reportFile, 'utf8'));
    const divergentReport = JSON.parse(readFileSync(divergent.reportFile, 'utf8'));
    expect(compareWithBaseline(divergentReport, faithfulReport).new).toHaveLength(PLANTED.length);
    expect(compareWithBaseline(divergentReport, divergentReport)).toMatchObject({ new: [], fixed: [] });
    expect(compareWithBaseline(faithfulReport, divergentReport).fixed).toHaveLength(PLANTED.length);
  });
});

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
