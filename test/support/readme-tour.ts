// The README's five-minute tour as a client would type it, sent to any base URL: the commands of
// its sh blocks from "Five-minute tour" to the next section, in one bash, with the simulator's
// address replaced by the URL given (a recording proxy, in the replay tests).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shBlocksOf } from './doc-blocks.ts';

const NPM_START = /^npm start\b/;

/** The README's "Five-minute tour" section as Markdown, up to the next section. */
export function readmeTourSection(root: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const from = readme.indexOf('## Five-minute tour');
  return readme.slice(from, readme.indexOf('\n## ', from + 1));
}

/** The tour's commands as the README writes them, `npm start` left out (the caller starts the target). */
export function readmeTourCommands(root: string): string[] {
  return shBlocksOf(readmeTourSection(root))
    .flatMap((b) => b.commands.map((c) => c.text))
    .filter((c) => !NPM_START.test(c));
}

/**
 * Runs the tour against `base` from `cwd`, then the `after` commands in the same shell (the tour's
 * variables, $SIM and $AUTH, set); resolves with bash's exit code and what it printed.
 */
export function runReadmeTour(
  root: string,
  base: string,
  cwd: string,
  after: string[] = [],
): Promise<{ code: number; out: string }> {
  const address = new URL(base).host;
  const commands = [...readmeTourCommands(root), ...after].map((c) => c.replaceAll('127.0.0.1:8080', address));
  const script = ['set -e', ...commands].join('\n');
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}
