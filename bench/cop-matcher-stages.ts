// The name matcher's cost stage by stage (issue 46), in process, against a baseline that only
// normalises the requested name: what each step of a name verification adds on top of reading the
// name at all. The names are bench/cop.ts's names new to the matcher (each account asked its name
// with 2–41 spaces, so no kept result is read), over the same 100,000 registered accounts.
// Each stage is timed warm (in a loop) and cold (8 MB of memory read before each name, as a server
// answering other requests between two names does: the warm figure is 4–6× below what the server
// pays, bench/RESULTS.md). `npx tsx bench/cop-matcher-stages.ts`; bench/cop.ts prints the same lines.
import { performance } from 'node:perf_hooks';
import { distIsCurrent } from '../bin/dist-current.mjs';
import { freshNameBody, NW, registerAccounts } from './cop-accounts.ts';
import { ROOT } from './processes.ts';

/** The built dist/ when current (as the server runs), else the sources. */
const BUILT = distIsCurrent(ROOT);
const load = <T>(path: string): Promise<T> => import(BUILT ? `../dist/${path}.js` : `../src/${path}.ts`) as Promise<T>;
const { createRuntime } = await load<typeof import('../src/runtime.ts')>('runtime');
const { normaliseName } = await load<typeof import('../src/sim/cop/normalise.ts')>('sim/cop/normalise');
const { candidateSet, parseRequestName } = await load<typeof import('../src/sim/cop/names.ts')>('sim/cop/names');
const { NameMatcher } = await load<typeof import('../src/sim/cop/match.ts')>('sim/cop/match');
const { inBehaviour } = await load<typeof import('../src/sim/accounts.ts')>('sim/accounts');
const { validateOb } =
  await load<typeof import('../src/api/open-banking/ob-validate.ts')>('api/open-banking/ob-validate');

/** Distinct requests: 500 accounts × 40 spacings, each asked once per pass. */
const NAMES = 20_000;
const ROUNDS = 5;
/** Names timed cold per stage and round (one per account): each costs a walk of `EVICT_BYTES` before it. */
const COLD_NAMES = 500;
/** More than L2 (1 MB a core here) and a quarter of the shared L3: what the last helper found to evict. */
const EVICT_BYTES = 8 * 1024 * 1024;

/** Memory read between cold names: one read per 64-byte cache line. */
const evictee = new Int32Array(EVICT_BYTES / 4).fill(1);
function evictCaches(): number {
  let sum = 0;
  for (let i = 0; i < evictee.length; i += 16) sum += evictee[i]!;
  return sum;
}

/** The median of `xs` (a copy is sorted). */
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface Stage {
  name: string;
  /** ns per request, one per round. */
  rounds: number[];
  /** ns per name with caches evicted before it, one per round: the round's trimmed mean less the timer's. */
  coldRounds: number[];
}

interface Asked {
  body: string;
  name: string;
  identification: string;
  accountType: 'Personal' | 'Business';
}

/**
 * Each stage's CPU ns per name (the process's CPU time, not wall time: on a shared machine the wall
 * clock counts the time other processes held the core), over `ROUNDS` rounds in which the stages
 * alternate (a noisy neighbour hurts every stage alike). Every stage but the first two includes the ones above it, as a name
 * verification runs them; the last is the whole route's work on a body but its HTTP and signing.
 */
export async function matcherStages(accounts = 100_000): Promise<{ stages: Stage[]; built: boolean }> {
  const runtime = await createRuntime({ memory: true, seedAccounts: false });
  try {
    await registerAccounts(runtime, accounts);
    const asked: Asked[] = Array.from({ length: NAMES }, (_, n) => {
      const body = freshNameBody(n, accounts);
      const { Data } = JSON.parse(body) as { Data: { Name: string; Identification: string; AccountType: string } };
      return {
        body,
        name: Data.Name,
        identification: Data.Identification,
        accountType: Data.AccountType as Asked['accountType'],
      };
    });
    const sim = runtime.sim;
    const org = NW.organisation;
    const stored = (a: Asked) =>
      sim.accounts.findBySortCodeAndNumber(org, a.identification.slice(0, 6), a.identification.slice(6))!;
    let sink = 0;
    // A fresh matcher per pass: within a pass no name is asked twice, so every result is worked out.
    let matcher = new NameMatcher();
    const stages: Array<[string, (a: Asked) => void, () => void]> = [
      ['normalise the name only (baseline)', (a) => void (sink += normaliseName(a.name).length), () => undefined],
      [
        'look up the account and its candidate names',
        (a) => void (sink += candidateSet(inBehaviour(stored(a).attributes)).candidates.length),
        () => undefined,
      ],
      [
        'parse the requested name (structured, holders)',
        (a) => void (sink += parseRequestName(a.name).holders.length),
        () => undefined,
      ],
      [
        'match afresh (normalise, parse, score every candidate)',
        (a) => void (sink += matcher.matchName(a.name, inBehaviour(stored(a).attributes)).level.length),
        () => void (matcher = new NameMatcher()),
      ],
      [
        "the participant's answer (lookup, checks, match)",
        (a) =>
          void (sink += JSON.stringify(
            sim.nameVerification.matchName(NW.id, {
              accountType: a.accountType,
              identification: a.identification,
              name: a.name,
            }),
          ).length),
        () => undefined,
      ],
      [
        'the route: parse and validate the body, answer, shape it',
        (a) => {
          const { Data } = validateOb<{
            Data: { Name: string; Identification: string; AccountType: Asked['accountType'] };
          }>('name-verification-request', JSON.parse(a.body));
          const report = sim.nameVerification.matchName(NW.id, {
            accountType: Data.AccountType,
            identification: Data.Identification,
            name: Data.Name,
          });
          sink += JSON.stringify({ Data: { VerificationReport: report }, Links: { Self: '/x' }, Meta: {} }).length;
        },
        () => undefined,
      ],
    ];
    // The route's stage reads the simulator's own matcher: give it names it has not kept either.
    const out: Stage[] = stages.map(([name]) => ({ name, rounds: [], coldRounds: [] }));
    for (const [, run, reset] of stages) {
      reset();
      for (const a of asked.slice(0, 2000)) run(a); // warm-up
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, [, run, reset]] of stages.entries()) {
        reset();
        const cpu0 = process.cpuUsage();
        for (const a of asked) run(a);
        const cpu = process.cpuUsage(cpu0);
        out[k]!.rounds.push(((cpu.user + cpu.system) * 1000) / asked.length);
      }
      // Cold: wall time of each name alone (a trimmed mean, so a preemption does not count), less
      // an empty timing's. Each stage its own spacing of every account's name: the
      // simulator's matcher (the last two stages) keeps the last 8 asked of an account, spacings
      // 34–41 after a warm round, so none of these is a kept result.
      const coldNames = (k: number) => asked.slice(2000 + k * 1000, 2000 + k * 1000 + COLD_NAMES);
      const timer = coldMean(
        coldNames(0),
        () => undefined,
        (s) => void (sink += s),
      );
      for (const [k, [, run, reset]] of stages.entries()) {
        reset();
        out[k]!.coldRounds.push(Math.max(0, coldMean(coldNames(k), run, (s) => void (sink += s)) - timer));
      }
    }
    if (sink === 0) throw new Error('no stage did any work');
    return { stages: out, built: BUILT };
  } finally {
    await runtime.close();
  }
}

/**
 * Mean wall ns of `run` on a name, every name after a walk of `EVICT_BYTES`, the slowest 5% left
 * out (a preemption or a collection). A mean, not a median: the names are of several kinds (exact,
 * close, none), and a median falls on whichever kind is at the middle.
 */
function coldMean(names: Asked[], run: (a: Asked) => void, keep: (sum: number) => void): number {
  const times: number[] = [];
  for (const a of names) {
    keep(evictCaches());
    const t0 = performance.now();
    run(a);
    times.push((performance.now() - t0) * 1e6);
  }
  const kept = times.sort((a, b) => a - b).slice(0, Math.ceil(times.length * 0.95));
  return kept.reduce((sum, t) => sum + t, 0) / kept.length;
}

const us = (ns: number) => (ns / 1000).toFixed(2);

/** One line per stage: median ns per name warm, trimmed mean cold, the rounds, and its multiple of the baseline. */
export function describeStages(stages: Stage[]): string[] {
  const base = med(stages[0]!.rounds);
  return stages.map(
    (s) =>
      `${s.name}: warm ${us(med(s.rounds))} µs per name (rounds ${s.rounds.map(us).join('/')}), ${(med(s.rounds) / base).toFixed(1)}× the baseline; cold ${us(med(s.coldRounds))} µs (rounds ${s.coldRounds.map(us).join('/')})`,
  );
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { stages, built } = await matcherStages(Number(process.env.COP_BENCH_ACCOUNTS ?? 100_000));
  console.log(`matcher stages, in process (${built ? 'the built dist/' : 'the sources through tsx'}):`);
  for (const l of describeStages(stages)) console.log(`- ${l}`);
}
