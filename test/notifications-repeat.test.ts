import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The notifications feature once failed now and then under load: its first delivery reused a
// keep-alive connection the receiver had closed, and in process the manual wall clock never brought
// the retry. Both are fixed (the transport resends once at once; the in-process target moves its
// wall clock to a due retry). This runs the whole feature 20 times in one cucumber process, under the
// load of the rest of the suite (vitest runs test files in parallel on every core), and needs all of
// it green.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
const RUNS = 20;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'notifications-repeat-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the notifications feature under load', () => {
  it(`passes ${RUNS} times in a row`, async () => {
    const copies = join(dir, 'features');
    mkdirSync(copies);
    for (let i = 1; i <= RUNS; i++)
      copyFileSync(join(ROOT, 'features', 'notifications.feature'), join(copies, `notifications-${i}.feature`));
    const config = join(dir, 'cucumber.mjs');
    writeFileSync(
      config,
      `export default ${JSON.stringify({
        paths: [copies],
        import: [join(ROOT, 'features/support/**/!(*.test).ts'), join(ROOT, 'features/steps/**/!(*.test).ts')],
        format: ['summary'],
      })};`,
    );
    const run = await promisify(execFile)(process.execPath, [CUCUMBER, '--config', relative(ROOT, config)], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '--import tsx' },
      timeout: 240_000,
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
    expect(run.code, run.out.slice(-3000)).toBe(0);
    const scenarios = Number(/(\d+) scenarios \(\1 passed\)/.exec(run.out)?.[1] ?? 0);
    expect(scenarios).toBeGreaterThanOrEqual(RUNS * 10);
  }, 300_000);
});
