// Journal stores to damage (src/cli/doctor-damage.test.ts): a sound one built through the API, and
// what a test needs to damage it and to prove nothing else changed.
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { testRuntime } from '../../src/harness/test-runtime.ts';
import { inspectJournalStore } from '../../src/store/journal-files.ts';
import { rewriteStore } from '../../src/store/journal-rewrite.ts';
import type { StoreData } from '../../src/store/store-data.ts';
import { openAccount } from './testing.ts';

/** Opens `n` accounts, each its own commit; their ids in order. */
async function openAccounts(file: string, n: number): Promise<string[]> {
  const rt = await testRuntime({ memory: false, data: file });
  try {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await openAccount(rt));
    return ids;
  } finally {
    await rt.close();
  }
}

/**
 * A store whose whole history is its journal (the snapshot is the empty one of its first start):
 * `accounts` were each opened by a commit of their own.
 */
export async function journalOnlyStore(file: string): Promise<{ accounts: string[] }> {
  return { accounts: await openAccounts(file, 3) };
}

/**
 * A store with `early` accounts in its snapshot (as a compaction leaves it) and `late` ones in its
 * journal, each opened by a commit of its own.
 */
export async function compactedStore(file: string): Promise<{ early: string[]; late: string[] }> {
  const early = await openAccounts(file, 3);
  await changeStore(file, () => undefined);
  return { early, late: await openAccounts(file, 3) };
}

/** Rewrites a store as a snapshot of what `change` made of its data, with an empty journal. */
export async function changeStore(file: string, change: (data: StoreData) => void): Promise<void> {
  const { data, seq } = await inspectJournalStore(file);
  change(data);
  await rewriteStore(file, seq, data);
}

/** A journal line as the engine writes one: the CRC-32 of the JSON, a space, the JSON. */
export function checksummed(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}`;
}

/** The journal's lines (without the empty string after the last line feed). */
export function journalLines(file: string): string[] {
  const lines = readFileSync(`${file}.journal`, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function writeJournalLines(file: string, lines: string[]): void {
  writeFileSync(`${file}.journal`, lines.map((l) => `${l}\n`).join(''));
}

/** The index of the journal line of the commit that opened `id`, its seq, and the byte offset it starts at. */
export function lineOf(file: string, id: string): { index: number; seq: number; offset: number } {
  const lines = journalLines(file);
  const index = lines.findIndex((l) => l.includes(`["accounts","${id}",`));
  if (index === -1) throw new Error(`no journal line opens account ${id}`);
  const offset = lines.slice(0, index).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  return { index, seq: JSON.parse(lines[index]!.slice(9)).seq as number, offset };
}
