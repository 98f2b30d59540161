// A snapshot reaches the disk as it is written (a compaction of tens of MB holds no commit at its end).
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { captureSnapshot, readSnapshot, writeSnapshot } from './snapshot-file.ts';
import { emptyStoreData } from './store-data.ts';

let dir: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('flushes a large snapshot to disk as it goes, not all of it at the end', async () => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-snapshot-'));
  const file = join(dir, 'sim.json');
  const data = emptyStoreData();
  const rows = new Map<string, { id: string; pad: string }>();
  for (let i = 0; i < 3000; i++) rows.set(`r${i}`, { id: `r${i}`, pad: 'x'.repeat(1000) }); // ~3 MB
  data.collections.rows = rows;
  // The FileHandle class is not exported: its prototype is reached through a handle.
  const probe = await open(join(dir, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
  await probe.close();
  const datasync = vi.spyOn(prototype, 'datasync');
  await writeSnapshot(file, captureSnapshot(7, data));
  expect(datasync.mock.calls.length).toBeGreaterThanOrEqual(2); // every MiB of about 3
  const read = await readSnapshot(file);
  expect(read.seq).toBe(7);
  expect(read.data.collections.rows?.size).toBe(3000);
});
