import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BASELINE_COMMIT, baselineCheckout } from './baseline-checkout.ts';

const made: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-checkout-test-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('baselineCheckout', () => {
  it('reads the constants when told to', () => {
    expect(baselineCheckout(folder(), { CREATE_BENCH_BASELINE: 'none' })).toEqual({
      dir: undefined,
      why: 'CREATE_BENCH_BASELINE=none',
    });
  });

  it('runs a named checkout, and refuses a folder that is not one', () => {
    const named = folder();
    expect(() => baselineCheckout(folder(), { CREATE_BENCH_BASELINE: named })).toThrow(/no src\/cli\.ts there/);
    mkdirSync(join(named, 'src'));
    writeFileSync(join(named, 'src', 'cli.ts'), '');
    expect(baselineCheckout(folder(), { CREATE_BENCH_BASELINE: named }).dir).toBe(named);
  });

  it('reuses a checkout an earlier run finished, and not one it left half made', () => {
    const cache = folder();
    const dir = join(cache, `scheme-sim-bench-${BASELINE_COMMIT}`);
    mkdirSync(dir);
    const notARepo = folder();
    expect(baselineCheckout(notARepo, {}, cache).dir).toBeUndefined();
    writeFileSync(join(dir, '.scheme-sim-bench-ready'), `${BASELINE_COMMIT}\n`);
    expect(baselineCheckout(notARepo, {}, cache).dir).toBe(dir);
  });

  it('says so when the clone does not hold the commit', () => {
    const repo = folder();
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(repo, 'a'), 'a');
    git('add', 'a');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'a');
    expect(baselineCheckout(repo, {}, folder())).toEqual({
      dir: undefined,
      why: `${BASELINE_COMMIT} is not in this clone's history`,
    });
  });
});
