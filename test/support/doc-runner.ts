// Runs the `sh` blocks of a Markdown page as a reader would, in order and as written, against a
// simulator the check starts, and reports every command whose exit code, HTTP status or output
// differs from what the page says. test/executable-docs.test.ts runs it over README.md and
// docs/tour.md.
//
// What it does for the reader:
// - `npm start [-- ARGS]` (alone on its line, `&` allowed) starts the simulator with ARGS, on a
//   free port instead of 8080 and, unless ARGS name a store, with a fresh data file in a temporary
//   folder; a simulator started earlier by the page is stopped first. Its banner is that
//   command's output.
// - `curl` is the real curl behind a small script: a URL naming 127.0.0.1:8080 reaches the
//   started simulator, and each answer's status is recorded.
// - The commands run in one bash, in a temporary project with scheme-sim installed (its bin is
//   what `npx scheme-sim` finds), with a CLI profile of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { type DocCommand, type ShBlock, shBlocksOf } from './doc-blocks.ts';
import { type MatchContext, outputDifferences, uuidsIn } from './doc-output-match.ts';

export interface DocRun {
  /** One entry per disagreement, naming the page's line. */
  failures: string[];
  /** Commands run. */
  ran: number;
  /** Blocks not run, with the reason their marker gives. */
  skipped: Array<{ line: number; reason: string }>;
}

const CURL_SHIM = `#!/bin/sh
# curl as the page wrote it, aimed at the simulator the docs check started; records each status.
dir="$DOCS_CHECK_DIR"
n=$(( $(cat "$dir/curl-count" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$dir/curl-count"
port=$(cat "$dir/port" 2>/dev/null || echo 8080)
for a in "$@"; do
  shift
  case "$a" in *127.0.0.1:8080*) a=$(printf '%s' "$a" | sed "s/127\\.0\\.0\\.1:8080/127.0.0.1:$port/g");; esac
  set -- "$@" "$a"
done
exec "$DOCS_CHECK_CURL" -D "$dir/curl-$n.headers" "$@"
`;

const NPM_START = /^npm start(?:\s+--\s+(.+?))?\s*&?$/;

function which(command: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, command);
    if (existsSync(path)) return path;
  }
  throw new Error(`${command} is not installed`);
}

/** One bash for the whole page: variables and exports carry from command to command. */
class Shell {
  private readonly child: ChildProcess;
  private out = '';
  private err = '';
  private seq = 0;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => {
      this.out += d.toString();
    });
    this.child.stderr!.on('data', (d: Buffer) => {
      this.err += d.toString();
    });
  }

  /** Runs one command; its stdout, stderr and exit code. */
  async run(command: string, timeoutMs: number): Promise<{ stdout: string; stderr: string; code: number }> {
    const mark = `@@docs-check-${++this.seq}`;
    this.out = '';
    this.err = '';
    this.child.stdin!.write(`${command}\n__rc=$?; printf '\\n${mark} %s\\n' "$__rc"; printf '\\n${mark}\\n' >&2\n`);
    const done = new RegExp(`\\n${mark} (\\d+)\\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = done.exec(this.out);
      if (m && this.err.includes(`\n${mark}\n`))
        return {
          stdout: this.out.slice(0, m.index),
          stderr: this.err.slice(0, this.err.indexOf(`\n${mark}\n`)),
          code: Number(m[1]),
        };
      if (Date.now() > deadline) throw new Error(`no answer within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): void {
    this.child.stdin!.end();
    this.child.kill('SIGKILL');
  }
}

/** The simulator a page starts with `npm start`. */
class Simulator {
  private child: ChildProcess | undefined;
  frozen = false;

  constructor(
    private readonly root: string,
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    /** A base URL already serving (127.0.0.1): the page's `npm start` aims its curl there and starts nothing. */
    private readonly target?: string,
  ) {}

  /** Starts it with the page's arguments; its banner, with its port shown as 8080. */
  async start(args: string[]): Promise<string> {
    await this.stop();
    if (this.target) {
      this.frozen = args.join(' ').includes('--clock frozen');
      writeFileSync(join(this.env.DOCS_CHECK_DIR!, 'port'), new URL(this.target).port);
      return '';
    }
    const store = args.some((a) => ['--memory', '--data', '--store'].includes(a));
    const all = [...args, ...(store ? [] : ['--data', join(this.dir, 'data', 'sim.json')]), '--port', '0'];
    this.frozen = args.join(' ').includes('--clock frozen');
    const child = spawn(process.execPath, [join(this.root, 'bin', 'scheme-sim.mjs'), 'start', ...all], {
      cwd: this.dir,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const deadline = Date.now() + 60_000;
    let port: string | undefined;
    while (!port) {
      port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (child.exitCode !== null) throw new Error(`npm start ${args.join(' ')} exited: ${err || out}`);
      if (Date.now() > deadline) throw new Error(`npm start ${args.join(' ')} did not listen within 60 s: ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    writeFileSync(join(this.env.DOCS_CHECK_DIR!, 'port'), port);
    // The banner is written in the same turn as "listening"; once /health answers, it is all out.
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 50));
    return out.replaceAll(`127.0.0.1:${port}`, '127.0.0.1:8080');
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

function curlStatuses(dir: string, from: number): Array<number | undefined> {
  const count = curlCount(dir);
  const statuses: Array<number | undefined> = [];
  for (let n = from + 1; n <= count; n++) {
    const headers = existsSync(join(dir, `curl-${n}.headers`))
      ? readFileSync(join(dir, `curl-${n}.headers`), 'utf8')
      : '';
    const lines = [...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)];
    statuses.push(lines.length > 0 ? Number(lines.at(-1)![1]) : undefined);
  }
  return statuses;
}

function curlCount(dir: string): number {
  return existsSync(join(dir, 'curl-count')) ? Number(readFileSync(join(dir, 'curl-count'), 'utf8')) : 0;
}

/** What is wrong with one command's statuses: every answer 2xx/3xx but the stated one. */
function statusProblems(command: DocCommand, statuses: Array<number | undefined>): string[] {
  const problems: string[] = [];
  if (command.status !== undefined && statuses.length === 0)
    problems.push(`the page states status ${command.status}, but the command sent no request`);
  statuses.forEach((status, k) => {
    const last = k === statuses.length - 1;
    if (status === undefined) problems.push('a request got no answer');
    else if (last && command.status !== undefined) {
      if (status !== command.status) problems.push(`answered ${status} where the page states ${command.status}`);
    } else if (status >= 400) problems.push(`answered ${status}, which the page does not state (# ${status})`);
  });
  return problems;
}

/**
 * Runs the page at `page` (a path) from the checkout at `root`; with `target`, against that
 * running double (its `npm start` starts nothing) rather than a simulator of its own.
 */
export async function runDoc(root: string, page: string, target?: string): Promise<DocRun> {
  const markdown = readFileSync(page, 'utf8');
  const blocks: ShBlock[] = shBlocksOf(markdown);
  const given = uuidsIn(blocks.map((b) => b.text).join('\n'));
  const run: DocRun = { failures: [], ran: 0, skipped: [] };

  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-docs-'));
  const check = join(dir, '.docs-check');
  const bin = join(check, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'curl'), CURL_SHIM);
  chmodSync(join(bin, 'curl'), 0o755);
  // A project with scheme-sim installed, as a reader's would be: `npx scheme-sim` finds its bin.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'docs-reader', private: true }));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', 'scheme-sim'), 'dir');
  symlinkSync(join('..', 'scheme-sim', 'bin', 'scheme-sim.mjs'), join(dir, 'node_modules', '.bin', 'scheme-sim'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? dir,
    DOCS_CHECK_DIR: check,
    DOCS_CHECK_CURL: which('curl'),
    SCHEME_SIM_PROFILE: join(check, 'profile.json'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
  };
  const shell = new Shell(dir, env);
  const sim = new Simulator(root, dir, env, target);
  let started = false;
  try {
    for (const block of blocks) {
      if (block.skip !== undefined) {
        run.skipped.push({ line: block.line, reason: block.skip });
        continue;
      }
      let printed = '';
      for (const command of block.commands) {
        const where = `${page}:${command.line}`;
        run.ran++;
        const start = NPM_START.exec(command.text);
        let stdout: string;
        let ctx: MatchContext;
        if (start) {
          stdout = await sim.start(start[1] ? start[1].split(/\s+/) : []);
          started = true;
          ctx = { frozen: sim.frozen, given };
        } else {
          if (!started) {
            run.failures.push(`${where}: runs before the page has started a simulator (npm start)`);
            return run;
          }
          const before = curlCount(check);
          const result = await shell.run(command.text, 180_000);
          stdout = result.stdout;
          ctx = { frozen: sim.frozen, given };
          if (result.code !== 0)
            run.failures.push(`${where}: exited ${result.code}: ${command.text}\n${result.stderr}${result.stdout}`);
          const statuses = curlStatuses(check, before);
          // DOCS_CHECK_TRACE=1 shows each command with what it printed: how a page's author sees the outputs.
          if (process.env.DOCS_CHECK_TRACE)
            console.error(`\n$ ${command.text}\n[${statuses.join(', ')}] exit ${result.code}\n${result.stdout}`);
          for (const problem of statusProblems(command, statuses))
            run.failures.push(`${where}: ${problem}: ${command.text}`);
        }
        if (command.output !== undefined)
          for (const d of outputDifferences(command.output, stdout, ctx))
            run.failures.push(`${where}: the output the page shows differs: ${d}`);
        printed += stdout.endsWith('\n') || stdout === '' ? stdout : `${stdout}\n`;
      }
      if (block.output)
        for (const d of outputDifferences(block.output.text, printed, { frozen: sim.frozen, given }))
          run.failures.push(`${page}:${block.output.line}: the output the page shows differs: ${d}`);
    }
    return run;
  } finally {
    shell.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
