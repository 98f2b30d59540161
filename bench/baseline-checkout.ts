// bench/create.ts's baseline: f2c51ff's own server, measured in the same rounds as this one. The
// ratio a constant stands for moves more between days than the budget's margin: f2c51ff's create
// CPU ÷ bare Hono's read 2.23, 1.77, 1.54, 1.90 and 1.53 in same-run measurements (bench/RESULTS.md).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BASELINE_COMMIT = 'f2c51ff';

/** A checkout of the baseline to run, or why there is none (the bench then reads its constants). */
export type BaselineCheckout = { dir: string; how: string } | { dir: undefined; why: string };

/**
 * CREATE_BENCH_BASELINE names a checkout (npm ci run in it), or `none` for the constants.
 * Unset, the commit is taken from `repo`'s own history with `git archive` (no worktree is
 * registered in the user's repository) into `cacheRoot`, and `npm ci` is run there once; later
 * runs reuse it. A clone without the commit (a shallow one, or a packed package) gets the constants.
 */
export function baselineCheckout(
  repo: string,
  env: Record<string, string | undefined> = process.env,
  cacheRoot: string = tmpdir(),
): BaselineCheckout {
  const given = env.CREATE_BENCH_BASELINE;
  if (given === 'none') return { dir: undefined, why: 'CREATE_BENCH_BASELINE=none' };
  if (given) {
    if (!existsSync(join(given, 'src', 'cli.ts')))
      throw new Error(`CREATE_BENCH_BASELINE=${given}: no src/cli.ts there (a checkout of ${BASELINE_COMMIT}?)`);
    return { dir: given, how: `CREATE_BENCH_BASELINE=${given}` };
  }
  const dir = join(cacheRoot, `scheme-sim-bench-${BASELINE_COMMIT}`);
  // Written last: a checkout interrupted half way is made again, not run.
  const ready = join(dir, '.scheme-sim-bench-ready');
  if (existsSync(ready)) return { dir, how: `${dir}, made by an earlier run` };
  try {
    execFileSync('git', ['-C', repo, 'cat-file', '-e', `${BASELINE_COMMIT}^{commit}`], { stdio: 'ignore' });
  } catch {
    return { dir: undefined, why: `${BASELINE_COMMIT} is not in this clone's history` };
  }
  const tar = `${dir}.tar`;
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['-C', repo, 'archive', '--format=tar', '-o', tar, BASELINE_COMMIT], { stdio: 'ignore' });
    execFileSync('tar', ['-xf', tar, '-C', dir], { stdio: 'ignore' });
    // --ignore-scripts: its `prepare` builds dist/, and the bench runs its sources through tsx.
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { dir: undefined, why: `could not make ${dir}: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    rmSync(tar, { force: true });
  }
  writeFileSync(ready, `${BASELINE_COMMIT}\n`);
  return { dir, how: `${dir}, made now from this clone's history` };
}
