import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// .ci/run's closing line counts only the report files the run wrote (issue 45: after a failed run
// the tally could count a stale partial file, or the JUnit file a test's own cucumber run left in
// reports/). The tally is .ci/tally.mjs; the features' run writes to CONFORMANCE_REPORTS_DIR.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TALLY = join(ROOT, '.ci', 'tally.mjs');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ci-tally-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tally(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TALLY, ...args], { cwd: dir });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const vitestReport = (passed: number, failed: number) =>
  JSON.stringify({ numPassedTests: passed, numFailedTests: failed, testResults: [] });
const junitReport = (tests: number, failures: number, skipped: number) =>
  `<?xml version="1.0"?>\n<testsuite name="scheme-sim conformance" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">\n</testsuite>\n`;

/** A run's folder: its marker, then the files given, written after it (or before it, `stale`). */
function run(name: string, files: Record<string, string>, stale: string[] = []): string {
  const at = join(dir, name);
  mkdirSync(at);
  writeFileSync(join(at, '.run-started'), '');
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const [file, text] of Object.entries(files)) {
    writeFileSync(join(at, file), text);
    if (stale.includes(file)) utimesSync(join(at, file), hourAgo, hourAgo);
  }
  return at;
}

describe('.ci/tally.mjs', () => {
  it('adds up the files this run wrote, and the extra counts, in the closing line', async () => {
    const at = run('fresh', {
      'vitest.json': vitestReport(10, 0),
      'cucumber.junit.xml': junitReport(7, 0, 2),
    });
    const r = await tally([
      '--since',
      join(at, '.run-started'),
      '--add',
      '2,0',
      `vitest:${join(at, 'vitest.json')}`,
      `junit:${join(at, 'cucumber.junit.xml')}`,
    ]);
    expect(r.out.trim().split('\n').at(-1)).toBe('tests: 17 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('counts a file older than the run as one failure, never its numbers', async () => {
    // A passing JUnit file left by an earlier run (or by a test's own cucumber run before the marker).
    const at = run('stale', { 'vitest.json': vitestReport(10, 0), 'cucumber.junit.xml': junitReport(500, 0, 0) }, [
      'cucumber.junit.xml',
    ]);
    const r = await tally([
      '--since',
      join(at, '.run-started'),
      `vitest:${join(at, 'vitest.json')}`,
      `junit:${join(at, 'cucumber.junit.xml')}`,
    ]);
    expect(r.out).toMatch(/cucumber\.junit\.xml: written at .*, before this run .*: not counted, 1 failed/);
    expect(r.out.trim().split('\n').at(-1)).toBe('tests: 10 passed, 1 failed');
    expect(r.code).toBe(1);
  });

  it('counts a missing file, an unreadable one and a test file that did not load as failures', async () => {
    const unloaded = JSON.stringify({
      numPassedTests: 3,
      numFailedTests: 0,
      testResults: [{ status: 'failed', assertionResults: [] }],
    });
    const at = run('broken', { 'vitest.json': unloaded, 'cucumber.junit.xml': '<?xml version="1.0"?>\n<testsu' });
    const r = await tally([
      '--since',
      join(at, '.run-started'),
      `vitest:${join(at, 'vitest.json')}`,
      `vitest:${join(at, 'vitest-load.json')}`,
      `junit:${join(at, 'cucumber.junit.xml')}`,
    ]);
    expect(r.out).toMatch(/vitest-load\.json: not written by this run/);
    expect(r.out).toMatch(/cucumber\.junit\.xml: unreadable \(no <testsuite> in it\)/);
    expect(r.out.trim().split('\n').at(-1)).toBe('tests: 3 passed, 3 failed');
    expect(r.code).toBe(1);
  });
});

describe("the features' reports folder", () => {
  it('is not the one a CI run gives the features: vitest sets it back for the tests', () => {
    // cucumber.mjs reads CONFORMANCE_REPORTS_DIR; a test's cucumber run (env spread from process.env)
    // must not write into .ci/run's reports/ci, whose JUnit file the tally counts as the features'.
    expect(process.env.CONFORMANCE_REPORTS_DIR).toBe('');
  });

  it('is CONFORMANCE_REPORTS_DIR when set, and the tally counts the JUnit file written there', async () => {
    const at = run('features', {});
    const out = join(at, 'ci');
    await promisify(execFile)(process.execPath, [CUCUMBER, 'features/reports.feature:10'], {
      cwd: ROOT,
      env: { ...process.env, CONFORMANCE_REPORTS_DIR: out },
      timeout: 120_000,
    });
    for (const file of ['cucumber.junit.xml', 'cucumber.html', 'cucumber.ndjson', 'conformance-inprocess.json'])
      expect(existsSync(join(out, file)), file).toBe(true);
    const r = await tally(['--since', join(at, '.run-started'), `junit:${join(out, 'cucumber.junit.xml')}`]);
    expect(r.out.trim()).toBe('tests: 1 passed, 0 failed');
  }, 150_000);
});
