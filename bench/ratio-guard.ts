// The CI regression guard (issue 30), run by .ci/run: a short run of account create, name
// verification and the accounts list, each against bare Hono on node answering the same routes
// (bench/bare-server.mjs), as server CPU per answered request (bench/processes.ts says why CPU).
// Each round starts one simulator (`scheme-sim start --memory`, as the bin runs it) and one bare
// server, alternating, and sends both the same three loads; a figure is the median of the rounds.
//
// It fails only when a share (bare Hono's CPU ÷ the simulator's) falls below HALF of its budget,
// and runs again once before failing: a slow machine moves both sides of a ratio alike, so only a
// regression of that size gets past the rerun. It prints every figure and asserts no wall time.
// The full budgets are bench/create.ts's, bench/cop.ts's and bench/lists.ts's, run by `npm run bench`.
//
// usage: tsx bench/ratio-guard.ts [create|cop|list …]     (RATIO_GUARD_ROUNDS, default 3)
// The proof that it fails: SCHEME_SIM_BENCH_SLOW_CREATE_US=2000 tsx bench/ratio-guard.ts create
// (bench/slow-create.mjs slows every create of the simulator; .ci/run expects this run to fail).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JSON_SERVER_SHARE_OF_BARE } from './lists.ts';
import {
  ACCOUNTS_PATH,
  accountCreateBody,
  bareServer,
  cpuPerRequest,
  devToken,
  median,
  type ServerProcess,
  simServer,
  type Traffic,
} from './processes.ts';

export const KINDS = ['cop', 'list', 'create'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * f2c51ff's create CPU ÷ bare Hono's in this guard's own setting: each server read lists before
 * its creates, as here (bench/RESULTS.md, 2026-11-26 23:50: 117 ÷ 54 µs, the medians of three
 * rounds). bench/create.ts's figure (F2C51FF_OVER_BARE, 1.77) is taken from servers that only
 * create, where bare Hono measures about twice as dear; its floor held the simulator's share to
 * 0.19 against the 0.20–0.26 measured in clean-clone CI runs.
 */
const F2C51FF_OVER_BARE_IN_GUARD = 2.17;

/**
 * Each budget as a share of bare Hono's CPU per request (higher is better). create: at most 1.5×
 * f2c51ff's CPU, which is F2C51FF_OVER_BARE_IN_GUARD × bare Hono's; cop: ≥ 0.70 of bare Hono
 * (bench/cop.ts); list: at least json-server's share (bench/lists.ts: ≥ 1× json-server).
 */
export const BUDGETS: Record<Kind, number> = {
  create: 1 / (F2C51FF_OVER_BARE_IN_GUARD * 1.5),
  cop: 0.7,
  list: JSON_SERVER_SHARE_OF_BARE,
};

const ROUNDS = Number(process.env.RATIO_GUARD_ROUNDS ?? 3);
const WARMUP = 3000;
const MEASURED = 3000;
export const NAME_VERIFICATION_PATH =
  '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification';
/** Seed accounts (fixtures/accounts.json), each asked with a close name. */
export const NAME_VERIFICATION_BODIES = [
  ['40030012345678', 'Sam Holder'],
  ['40030012345678', 'Samantha Holder'],
  ['40030012345678', 'S Holder'],
].map(([identification, name]) =>
  JSON.stringify({
    Data: { SchemeName: 'SortCodeAccountNumber', AccountType: 'Personal', Identification: identification, Name: name },
  }),
);
/** The seed's 80 accounts on one page. */
const LIST_PATH = `${ACCOUNTS_PATH}?page[size]=100`;

function traffic(kind: Kind, headers: Record<string, string>): Traffic {
  if (kind === 'create') return { path: ACCOUNTS_PATH, method: 'POST', headers, makeBody: accountCreateBody };
  if (kind === 'cop')
    return { path: NAME_VERIFICATION_PATH, method: 'POST', headers, bodies: NAME_VERIFICATION_BODIES };
  return { path: LIST_PATH, method: 'GET', headers };
}

/** What bare Hono answers: the simulator's own list page and name-verification answer, as bytes. */
async function answersOf(sim: ServerProcess, headers: Record<string, string>): Promise<object> {
  const list = await fetch(`${sim.url}${LIST_PATH}`, { headers });
  const cop = await fetch(`${sim.url}${NAME_VERIFICATION_PATH}`, {
    method: 'POST',
    headers,
    body: NAME_VERIFICATION_BODIES[0],
  });
  if (!list.ok || !cop.ok) throw new Error(`sample answers: list ${list.status}, name verification ${cop.status}`);
  const copHeaders: Record<string, string> = {};
  for (const name of ['x-jws-signature', 'x-fapi-interaction-id']) copHeaders[name] = cop.headers.get(name) ?? '';
  return { list: await list.json(), cop: { body: await cop.text(), headers: copHeaders } };
}

export interface Share {
  kind: Kind;
  /** Server CPU per answered request, µs, one per round. */
  sim: number[];
  bare: number[];
  /** median(bare) ÷ median(sim). */
  share: number;
  failed: number;
}

/** One run: ROUNDS rounds, each a fresh simulator then a fresh bare Hono, both sent every kind. */
export async function measureShares(kinds: readonly Kind[], env: NodeJS.ProcessEnv = {}): Promise<Share[]> {
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-ratio-guard-'));
  const answersFile = join(dir, 'answers.json');
  const cpu = new Map(kinds.map((k) => [k, { sim: [] as number[], bare: [] as number[], failed: 0 }]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ['sim', 'bare'] as const) {
        const server = side === 'sim' ? await simServer(['--memory'], env) : await bareServer(answersFile);
        try {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (side === 'sim') {
            headers.authorization = `Bearer ${await devToken(server.url)}`;
            if (round === 0) writeFileSync(answersFile, JSON.stringify(await answersOf(server, headers)));
          }
          // Creates last: the list reads the same 80 seed accounts on both sides.
          for (const kind of kinds) {
            const load = traffic(kind, headers);
            await cpuPerRequest(server, load, WARMUP);
            const figure = await cpuPerRequest(server, load, MEASURED);
            const entry = cpu.get(kind)!;
            entry[side].push(figure.cpuMicros);
            entry.failed += figure.failed;
          }
        } finally {
          await server.close();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return kinds.map((kind) => {
    const { sim, bare, failed } = cpu.get(kind)!;
    return { kind, sim, bare, share: median(bare) / median(sim), failed };
  });
}

/** A share fails the guard below half of its budget, or with any failed request. */
export const guardFails = (s: Share) => s.failed > 0 || s.share < BUDGETS[s.kind] / 2;

export function describe(s: Share): string {
  const us = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
  const floor = BUDGETS[s.kind] / 2;
  return `${s.kind}: simulator ${median(s.sim).toFixed(0)} µs CPU per request (rounds ${us(s.sim)}), bare Hono ${median(s.bare).toFixed(0)} µs (${us(s.bare)}); share ${s.share.toFixed(2)}, budget ≥ ${BUDGETS[s.kind].toFixed(2)}, guard fails below ${floor.toFixed(2)}; failed requests ${s.failed}: ${guardFails(s) ? 'FAILS' : 'passes'}`;
}

/** The guard: a run, and a second one when the first fails; true when the last run passes. */
export async function guard(kinds: readonly Kind[], log: (line: string) => void = console.log): Promise<boolean> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const t0 = performance.now();
    const shares = await measureShares(kinds);
    log(
      `ratio guard, run ${attempt}: ${ROUNDS} rounds of a fresh simulator and a fresh bare Hono, ${WARMUP} requests of warm-up and ${MEASURED} measured per load, 10 connections; load average ${loadavg()[0]!.toFixed(2)}; ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    for (const s of shares) log(`  ${describe(s)}`);
    if (!shares.some(guardFails)) return true;
    if (attempt === 1) log('  a share fell below half of its budget: running once more before failing');
  }
  return false;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((k) => !(KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`unknown load ${unknown.join(', ')}: one of ${KINDS.join(', ')}`);
  const kinds = asked.length > 0 ? KINDS.filter((k) => asked.includes(k)) : KINDS;
  if (process.env.SCHEME_SIM_BENCH_SLOW_CREATE_US)
    console.log(
      `(test-only: every create of the simulator slowed by ${process.env.SCHEME_SIM_BENCH_SLOW_CREATE_US} µs)`,
    );
  const passed = await guard(kinds);
  console.log(passed ? 'ratio guard: passed' : 'ratio guard: FAILED');
  process.exitCode = passed ? 0 : 1;
}
