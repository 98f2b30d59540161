// The closing line of a CI run, `tests: N passed, M failed`, counted from the runners' own report
// files, and only from files this run wrote: a file older than the run's marker (a stale one, or a
// partial one a failed run left) counts as one failure, as does a missing one (its step never ran).
//
// node .ci/tally.mjs --since MARKER [--add PASSED,FAILED] vitest:FILE… junit:FILE…
// Exits 1 when anything failed. Tested by test/ci-tally.test.ts.
import { existsSync, readFileSync, statSync } from 'node:fs';

/** Passed and failed tests of a vitest JSON report; a test file that failed to load counts as one failure. */
function vitestCounts(text) {
  const v = JSON.parse(text);
  const unloaded = (v.testResults ?? []).filter(
    (r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  return { passed: v.numPassedTests, failed: v.numFailedTests + unloaded };
}

/** Passed and failed scenarios of cucumber's JUnit report (its one testsuite's counts). */
function junitCounts(text) {
  const suite = /<testsuite\b[^>]*>/.exec(text)?.[0];
  if (!suite) throw new Error('no <testsuite> in it');
  const n = (k) => Number(new RegExp(`\\b${k}="(\\d+)"`).exec(suite)?.[1] ?? 0);
  return { passed: n('tests') - n('failures') - n('errors') - n('skipped'), failed: n('failures') + n('errors') };
}

const READERS = { vitest: vitestCounts, junit: junitCounts };

function tally(args) {
  let since;
  let passed = 0;
  let failed = 0;
  const lines = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--since') {
      since = statSync(args[++i]).mtimeMs;
      continue;
    }
    if (arg === '--add') {
      const [p, f] = args[++i].split(',').map(Number);
      passed += p;
      failed += f;
      continue;
    }
    const [kind, file] = [arg.slice(0, arg.indexOf(':')), arg.slice(arg.indexOf(':') + 1)];
    const read = READERS[kind];
    if (!read) throw new Error(`unknown report kind in ${arg}: vitest:FILE or junit:FILE`);
    if (since === undefined) throw new Error('--since MARKER comes before the report files');
    if (!existsSync(file)) {
      lines.push(`${file}: not written by this run (its step did not run): 1 failed`);
      failed += 1;
      continue;
    }
    const written = statSync(file).mtimeMs;
    if (written < since) {
      lines.push(
        `${file}: written at ${new Date(written).toISOString()}, before this run (${new Date(since).toISOString()}): not counted, 1 failed`,
      );
      failed += 1;
      continue;
    }
    try {
      const counts = read(readFileSync(file, 'utf8'));
      passed += counts.passed;
      failed += counts.failed;
    } catch (err) {
      lines.push(`${file}: unreadable (${err.message}): 1 failed`);
      failed += 1;
    }
  }
  lines.push(`tests: ${passed} passed, ${failed} failed`);
  return { lines, failed };
}

const { lines, failed } = tally(process.argv.slice(2));
for (const line of lines) console.log(line);
process.exitCode = failed > 0 ? 1 : 0;
