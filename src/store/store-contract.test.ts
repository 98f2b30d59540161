import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { storeContract } from '../../test/support/store-contract.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-contract-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
storeContract({ name: 'memory', durable: false, commitsOverlap: false, fresh: async () => ({}) });
storeContract({
  name: 'journal',
  durable: true,
  commitsOverlap: false,
  fresh: async () => ({ file: join(dir, `store-${n++}.json`) }),
});
storeContract({
  name: 'journal, compacting after every few records',
  durable: true,
  commitsOverlap: false,
  fresh: async () => ({ file: join(dir, `compacting-${n++}.json`), compaction: { bytes: 600, minBytes: 0 } }),
});
