import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalPaths } from './journal-paths.ts';
import { openStore } from './store.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WRITER = join(ROOT, 'test/support/crash-writer.ts');
const CYCLES = 20;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-crash-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until `ready`, lets it write for `ms`, kills it with SIGKILL; the ids it acknowledged. */
async function writeAndKill(file: string, start: number, ms: number): Promise<string[]> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', WRITER, file, '4', String(start)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  let buffered = '';
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  await new Promise<void>((ready, failed) => {
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), ms).unref();
        else if (line.startsWith('ack ')) acked.push(line.slice(4));
      }
      if (lines.includes('ready')) ready();
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') failed(new Error(`the writer exited (${code}) before it was killed: ${stderr}`));
    });
  });
  await exited;
  return acked;
}

describe('the journal store under kill -9', () => {
  it(`loses no acknowledged write and always starts, over ${CYCLES} kills at random moments (some with a torn tail)`, async () => {
    const file = join(dir, 'sim.json');
    const acknowledged = new Set<string>();
    let start = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const acked = await writeAndKill(file, start, 20 + Math.floor(Math.random() * 200));
      for (const id of acked) acknowledged.add(id);
      start += 1_000_000; // each run writes ids of its own
      if (cycle % 3 === 2) {
        // A crash in the middle of an append leaves part of a record: never acknowledged.
        appendFileSync(journalPaths(file).journal, `0badc0de {"seq":999999999,"rows":[["rows","torn-${cycle}`);
      }
      const store = await openStore({ file, warn: () => undefined });
      const rows = store.collection('rows');
      const missing = [...acknowledged].filter((id) => !rows.has(id));
      expect(missing, `cycle ${cycle}: acknowledged rows lost`).toEqual([]);
      expect(rows.values().some((r) => r.id.startsWith('torn-'))).toBe(false);
      await store.close();
    }
    expect(acknowledged.size).toBeGreaterThan(CYCLES);
  }, 120_000);
});
