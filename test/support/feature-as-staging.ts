// The staging profile is tested without a staging environment: one feature run on it against a
// simulator standing in for staging, in a folder of its own.
import { execFile } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harbourAsStaging } from './harbour-as-staging.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

/**
 * Runs one feature file of features/ on the staging profile against a simulator at `baseUrl` used
 * as Harbour's staging, from `dir`: its reports/conformance-staging.json and ledger are that run's
 * alone. Resolves with cucumber's exit code and its output.
 */
export function runFeatureAsStaging(
  dir: string,
  baseUrl: string,
  feature: string,
): Promise<{ code: number; out: string }> {
  const args = [
    CUCUMBER,
    '--config',
    relative(dir, join(ROOT, 'cucumber.mjs')),
    '--profile',
    'staging',
    join(ROOT, 'features', feature),
  ];
  const env = { ...harbourAsStaging(baseUrl), NODE_OPTIONS: '', CONFORMANCE_LEDGER: join(dir, 'journeys.json') };
  return new Promise((done) =>
    execFile(process.execPath, args, { cwd: dir, env, timeout: 180_000 }, (err, stdout, stderr) =>
      done({ code: (err as { code?: number } | null)?.code ?? 0, out: stdout + stderr }),
    ),
  );
}
