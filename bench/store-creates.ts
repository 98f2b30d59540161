// The create loads of bench/store.ts: one store served and loaded with creates, and the growth
// figure's base pooled from fresh smallest stores.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { requestListener } from '../src/node/server.ts';
import { createRuntime, type Runtime, type RuntimeOptions } from '../src/runtime.ts';
import { DEFAULT_COMPACTION } from '../src/store/journal-engine.ts';
import { journalPaths } from '../src/store/journal-paths.ts';
import { collectGarbage, type LoadResult, load, percentile, serveListener } from './lib.ts';
import { CREATED_FROM, createBody, type StoredAccount, writeAccountsSnapshot } from './store-rows.ts';

export const SECONDS = Number(process.env.STORE_BENCH_SECONDS ?? 5);
export const CONNECTIONS = 16;

export type Engine = 'journal' | 'memory' | 'postgres';
export interface CreateFigures extends LoadResult {
  engine: Engine;
  size: number;
  seedMs: number;
  seconds: number;
  /** Seconds into the measured load when a compaction of the journal started and ended, if one did. */
  compaction?: { startedAt?: number; endedAt?: number };
}

/**
 * The journal's length when the largest store's create load starts: a little under the size that
 * starts a compaction, so that one starts (and, given COMPACTION_SECONDS, ends) inside the measured
 * window, writing the whole snapshot in the background while the creates go on.
 */
export const JOURNAL_BEFORE_LOAD = DEFAULT_COMPACTION.bytes - 3 * 2 ** 20;
/** The largest journal store's load: long enough to hold a whole compaction of 1M accounts. */
export const COMPACTION_SECONDS = Number(process.env.STORE_BENCH_COMPACTION_SECONDS ?? 25);

let nextNumber = CREATED_FROM;

/**
 * Serves the runtime and loads it with creates (a new id and account number each), then closes it.
 * With `dataFile`, notes when a compaction runs during the measured load (its rotated journal is
 * there from the start of a compaction to its end).
 */
export async function measureCreates(
  rt: Runtime,
  engine: Engine,
  size: number,
  seedMs: number,
  seconds = SECONDS,
  dataFile?: string,
  latencies?: number[],
): Promise<CreateFigures> {
  const organisationId = rt.sim.organisations.defaultOrganisation.id;
  const served = await serveListener(requestListener(rt));
  let compaction: CreateFigures['compaction'];
  let poll: NodeJS.Timeout | undefined;
  try {
    const url = `${served.url}/v1/organisation/accounts`;
    const options = {
      url,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      makeBody: () => createBody(organisationId, nextNumber++),
      connections: CONNECTIONS,
    };
    await load({ ...options, durationSeconds: 1 }); // warm-up
    // The bench's own garbage (snapshots written, stores seeded) is not the store's: gone before the window.
    collectGarbage();
    if (dataFile) {
      const rotated = journalPaths(dataFile).rotated;
      const t0 = performance.now();
      const found = { startedAt: undefined as number | undefined, endedAt: undefined as number | undefined };
      compaction = found;
      poll = setInterval(() => {
        const at = (performance.now() - t0) / 1000;
        if (existsSync(rotated)) found.startedAt ??= at;
        else if (found.startedAt !== undefined) found.endedAt ??= at;
      }, 50);
    }
    const result = await load({ ...options, durationSeconds: seconds, ...(latencies ? { latencies } : {}) });
    return { ...result, engine, size, seedMs, seconds, ...(compaction ? { compaction } : {}) };
  } finally {
    clearInterval(poll);
    await served.close();
    await rt.close();
  }
}

export const common: RuntimeOptions = { auth: 'off', seedAccounts: false, scheduledReports: false };

/** The growth figure's base: the smallest store's latencies over as many requests as the largest's window. */
export interface GrowthBase {
  p99: number;
  requests: number;
  rounds: number;
  errors: number;
  non2xx: number;
  server5xx: number;
}

/**
 * The growth figure's base: the smallest journal store, fresh, loaded for SECONDS at a time until
 * the loads add up to the largest store's window, their latencies pooled. One long load of it would
 * not stay the smallest size (about 140,000 creates in 25 s: past the 100k size), and a p99 over 5 s
 * is not comparable with one over 25 s. Measured just before the largest, so the machine's speed
 * drifts as little as it can between the two.
 */
export async function smallestPooled(dir: string, row: StoredAccount, size: number): Promise<GrowthBase> {
  const rounds = Math.max(1, Math.round(COMPACTION_SECONDS / SECONDS));
  const latencies: number[] = [];
  const base = { rounds, errors: 0, non2xx: 0, server5xx: 0 };
  for (let r = 0; r < rounds; r++) {
    const file = join(dir, `growth-base-${size}-${r}.json`);
    await writeAccountsSnapshot(file, row, size);
    const rt = await createRuntime({ ...common, data: file });
    const figures = await measureCreates(rt, 'journal', size, 0, SECONDS, undefined, latencies);
    base.errors += figures.errors;
    base.non2xx += figures.non2xx;
    base.server5xx += figures.server5xx ?? 0;
    rmSync(file, { force: true });
    rmSync(`${file}.journal`, { force: true });
  }
  return { ...base, p99: percentile(latencies, 99), requests: latencies.length };
}
