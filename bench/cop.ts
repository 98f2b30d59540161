// Name verification over HTTP with 100,000 accounts registered, against a bare Hono handler
// measured in the same run. Budget (docs/design.md, issue 30): throughput ≥ 70% of bare Hono, p99 ≤ 8 ms
// at half of peak load; issue 46: with repeated bodies ≤ 2× bare Hono's server CPU per request, with
// names new to the matcher ≥ 0.75 of its throughput. `npx tsx bench/cop.ts` or `npm run bench -- cop`. Answers signed afresh (no
// signature cache) are a figure of their own, beside what PS256 costs against node:crypto's bare
// RSASSA-PSS signature on this CPU (the floor of an answer signed afresh).
// Peak throughput is autocannon's (closed loop: each connection sends as soon as it is answered).
// Latency at half of peak is bench/paced.ts's, not autocannon's `overallRate`: that spends each
// connection's per-second quota at full speed then pauses until the next second, so its p99 is the
// tail of a burst. paced() sends at a constant rate from a worker thread and times each request
// from when it was due, so a stall is charged for every request it held back.
import { performance } from 'node:perf_hooks';
import { distIsCurrent } from '../bin/dist-current.mjs';
import { account, freshNameBody, NW, PATH, registerAccounts } from './cop-accounts.ts';
import { describeStages, matcherStages } from './cop-matcher-stages.ts';
import { cpuRatio, describeServerCpu, measureServerCpu, REPEATED_CPU_BUDGET } from './cop-server-cpu.ts';
import { answerVerifies, signingCost, withoutSignatureCache } from './cop-signing.ts';
import {
  type BenchReport,
  bareHono,
  collectGarbage,
  type LoadResult,
  load,
  ratio,
  runWhenMain,
  type Stalls,
  serveFetch,
  serveListener,
  watchStalls,
} from './lib.ts';
import { type PacedResult, paced } from './paced.ts';
import { ROOT } from './processes.ts';

const ACCOUNTS = Number(process.env.COP_BENCH_ACCOUNTS ?? 100_000);
/** The paced phases at half of peak: measured seconds, after a short warm-up at the same rate. */
const PHASE_SECONDS = 4;
const PHASE_WARMUP_SECONDS = 0.5;
/** Peak is measured in alternating short rounds, so a noisy neighbour hurts both sides alike. */
const ROUNDS = 3;
const ROUND_SECONDS = 2;
const CONNECTIONS = 10;
/**
 * Sockets of the paced phases. An open-loop generator must never wait for a free socket, or it
 * turns into a closed loop that queues on the client. At half of peak (~6,000 req/s) its 1 ms timer
 * sends ~6 requests a tick and a batch is answered in ~1.5 ms, so ~9 requests are in flight
 * (Little's law). With 10 sockets that is a ceiling of ~6,700 req/s, barely above the rate: after
 * a 20 ms stall of the server the backlog drains at only ~700 req/s, and a 20 ms hiccup shows as a
 * 100–250 ms p99 (measured: bench/RESULTS.md). With 50 sockets the ceiling is the server's own
 * peak. Bare Hono gets the same sockets, and the 10-socket figure is printed beside it.
 */
const PACED_CONNECTIONS = 50;
/**
 * The simulator's code as the bin runs it for a user: the built dist/ when it is current (what
 * `scheme-sim start` loads), else the sources through tsx (which names closures at run time, a
 * cost the built code does not pay); the run says which.
 */
const BUILT = distIsCurrent(ROOT);
const { createRuntime } = (await import(
  BUILT ? '../dist/runtime.js' : '../src/runtime.ts'
)) as typeof import('../src/runtime.ts');
const { requestListener } = (await import(
  BUILT ? '../dist/node/server.js' : '../src/node/server.ts'
)) as typeof import('../src/node/server.ts');
const SHARE_BUDGET = 0.7;
/** Issue 46: with names new to the matcher, at least this share of bare Hono's throughput. */
const FRESH_SHARE_BUDGET = 0.75;
const P99_BUDGET_MS = 8;
/** Rounds of one side as one figure: median throughput (one disturbed round does not decide), worst p50/p99, summed failures. */
function combine(rounds: LoadResult[]): LoadResult {
  const rates = rounds.map((r) => r.requestsPerSecond).sort((a, b) => a - b);
  return {
    requestsPerSecond: rates[Math.floor(rates.length / 2)]!,
    p50: Math.max(...rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
    non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
  };
}

async function httpFigures(): Promise<BenchReport & { freshShare: number }> {
  const runtime = await createRuntime({ memory: true, seedAccounts: false });
  const started = performance.now();
  await registerAccounts(runtime, ACCOUNTS);
  const registerMs = performance.now() - started;
  collectGarbage();

  const tokenRes = await runtime.app.request('/v1/oauth2/token', {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('northwind-dev:northwind-dev-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
  const bodies = Array.from({ length: 500 }, (_, k) => {
    const a = account((k * 199) % ACCOUNTS);
    return JSON.stringify({
      Data: {
        SchemeName: 'SortCodeAccountNumber',
        AccountType: a.classification,
        Identification: `${a.sortCode}${a.number}`,
        Name: a.asked,
      },
    });
  });

  // The simulator's own request listener, as `npm start` serves it (name verification through its
  // Node adapter); the bare baseline is a Hono app served by @hono/node-server.
  const cop = await serveListener(requestListener(runtime));
  const sample = await fetch(`${cop.url}${PATH}`, { method: 'POST', headers, body: bodies[1] });
  const sampleText = await sample.text();
  const sampleSigned = await answerVerifies(cop.url, NW.id, sample, sampleText);
  const bareBody = sampleText;
  // The bare handler sends the same signature header, so both answers are the same size on the wire.
  const bare = await serveFetch(
    bareHono('POST', PATH, bareBody, 'application/json', {
      'x-jws-signature': sample.headers.get('x-jws-signature') ?? '',
    }).fetch,
  );
  // Every answer signed afresh: what the budget would see without the signature cache.
  const uncached = await serveListener(requestListener(withoutSignatureCache(runtime)));

  try {
    const url = (s: { url: string }) => `${s.url}${PATH}`;
    await load({ url: url(bare), method: 'POST', headers, bodies, connections: CONNECTIONS, durationSeconds: 1 }); // warm-up
    await load({ url: url(cop), method: 'POST', headers, bodies, connections: CONNECTIONS, durationSeconds: 1 });
    const bareRounds: LoadResult[] = [];
    const copRounds: LoadResult[] = [];
    const cpu = { bare: 0, cop: 0 };
    const measured = async (side: 'bare' | 'cop', target: { url: string }) => {
      const before = process.cpuUsage();
      const result = await load({
        url: url(target),
        method: 'POST',
        headers,
        bodies,
        connections: CONNECTIONS,
        durationSeconds: ROUND_SECONDS,
      });
      const used = process.cpuUsage(before);
      cpu[side] += (used.user + used.system) / Math.max(1, result.requestsPerSecond * ROUND_SECONDS);
      return result;
    };
    for (let r = 0; r < ROUNDS; r++) {
      bareRounds.push(await measured('bare', bare));
      copRounds.push(await measured('cop', cop));
    }
    // One more pair of rounds: bare Hono against name verification with no signature cache.
    const uncachedRounds: LoadResult[] = [];
    const bareAgain: LoadResult[] = [];
    for (let r = 0; r < 2; r++) {
      bareAgain.push(
        await load({
          url: url(bare),
          method: 'POST',
          headers,
          bodies,
          connections: CONNECTIONS,
          durationSeconds: ROUND_SECONDS,
        }),
      );
      uncachedRounds.push(
        await load({
          url: url(uncached),
          method: 'POST',
          headers,
          bodies,
          connections: CONNECTIONS,
          durationSeconds: ROUND_SECONDS,
        }),
      );
    }
    const uncachedPeak = combine(uncachedRounds);
    // And every name new to the matcher (none of its kept results is read), answers signed from the
    // cache. Each body is made as it is sent, for bare Hono too: the client's cost is the same.
    const freshRounds: LoadResult[] = [];
    const bareThird: LoadResult[] = [];
    let asked = 0;
    const fresh = {
      method: 'POST' as const,
      headers,
      makeBody: () => freshNameBody(asked++, ACCOUNTS),
      connections: CONNECTIONS,
      durationSeconds: ROUND_SECONDS,
    };
    for (let r = 0; r < 2; r++) {
      bareThird.push(await load({ ...fresh, url: url(bare) }));
      freshRounds.push(await load({ ...fresh, url: url(cop) }));
    }
    const freshShare = combine(freshRounds).requestsPerSecond / combine(bareThird).requestsPerSecond;
    const cpuBare = cpu.bare / ROUNDS;
    const cpuCop = cpu.cop / ROUNDS;
    const barePeak = combine(bareRounds);
    const copPeak = combine(copRounds);
    // Half of peak as the latency phase loads it: from another thread. A server answering a client
    // on its own thread pays cross-core wake-ups per request that it does not pay with the client
    // on its thread, so its peak is lower that way; half of the same-thread peak would load it to
    // ~80%, not half. The lower of the two peaks is the one halved.
    const crossPeak = await load({
      url: url(cop),
      method: 'POST',
      headers,
      bodies,
      connections: CONNECTIONS,
      durationSeconds: ROUND_SECONDS,
      workers: 1,
    });
    const half = Math.max(1, Math.floor(Math.min(copPeak.requestsPerSecond, crossPeak.requestsPerSecond) / 2));
    // The server runs on this thread and the generator on its own: this thread's event-loop
    // utilisation over a paced phase is how busy the server was (a tail grows as it nears 1).
    const atHalf = async (target: { url: string }, connections = PACED_CONNECTIONS) => {
      const before = performance.eventLoopUtilization();
      const stalls = watchStalls();
      const result = await paced({
        url: url(target),
        method: 'POST',
        headers,
        bodies,
        rate: half,
        durationSeconds: PHASE_SECONDS,
        warmupSeconds: PHASE_WARMUP_SECONDS,
        connections,
      });
      return { ...result, serverBusy: performance.eventLoopUtilization(before).utilization, stalls: stalls() };
    };
    const copHalf = await atHalf(cop);
    // The same rate against bare Hono: how much of the tail is the machine rather than the handler.
    const bareHalf = await atHalf(bare);
    // Shown, not budgeted: with as few sockets as the peak phase, the client queues (see PACED_CONNECTIONS).
    const copHalfFewSockets = await atHalf(cop, CONNECTIONS);
    // Last, so that its burst of signatures on the thread pool disturbs no HTTP phase.
    const cost = await signingCost(runtime, NW.id, sampleText);
    const share = copPeak.requestsPerSecond / barePeak.requestsPerSecond;
    // A request left unsent at half of peak means the server fell behind the rate: a failure too.
    const failures =
      copPeak.errors +
      copPeak.non2xx +
      crossPeak.errors +
      crossPeak.non2xx +
      copHalf.errors +
      copHalf.non2xx +
      copHalf.unsent;
    const withinBudget =
      share >= SHARE_BUDGET && copHalf.p99 <= P99_BUDGET_MS && failures === 0 && sample.status === 200 && sampleSigned;
    const uncachedShare = uncachedPeak.requestsPerSecond / combine(bareAgain).requestsPerSecond;
    const ms = (v: number) => v.toFixed(2);
    const tail = (r: PacedResult & { serverBusy: number; stalls: Stalls }) =>
      `p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, p99.9 ${ms(r.p999)} ms, max ${ms(r.max)} ms; server thread busy ${(r.serverBusy * 100).toFixed(0)}%, ` +
      `longest event-loop delay ${ms(r.stalls.longestLoopDelayMs)} ms, GC ${r.stalls.majorGc} major + ${r.stalls.otherGc} other (longest pause ${ms(r.stalls.longestGcMs)} ms)`;
    return {
      name: 'cop: name verification over HTTP, 100,000 accounts',
      withinBudget,
      freshShare,
      lines: [
        `simulator code: ${BUILT ? 'the built dist/, as the bin runs it' : 'the sources through tsx (dist/ not current: npm run build)'}`,
        `registered ${ACCOUNTS.toLocaleString('en-GB')} accounts in ${registerMs.toFixed(0)} ms (their garbage collected before measuring); sample answer ${sample.status} ${sampleText.slice(0, 90)}`,
        `peak over ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, ${CONNECTIONS} connections; rounds bare ${bareRounds.map((r) => r.requestsPerSecond.toFixed(0)).join('/')}, name verification ${copRounds.map((r) => r.requestsPerSecond.toFixed(0)).join('/')}`,
        `bare Hono: ${barePeak.requestsPerSecond.toFixed(0)} req/s (p50 ${barePeak.p50} ms, p99 ${barePeak.p99} ms)`,
        `name verification: ${copPeak.requestsPerSecond.toFixed(0)} req/s (p50 ${copPeak.p50} ms, p99 ${copPeak.p99} ms)`,
        `ratio name verification / bare Hono: ${ratio(copPeak.requestsPerSecond, barePeak.requestsPerSecond)} (budget ≥ ${SHARE_BUDGET.toFixed(2)})`,
        `CPU per request (server and load generator share the process): bare ${cpuBare.toFixed(0)} µs, name verification ${cpuCop.toFixed(0)} µs; CPU-normalised ratio ${ratio(cpuBare, cpuCop)}`,
        `peak with the client on a worker thread: ${crossPeak.requestsPerSecond.toFixed(0)} req/s (errors + non-2xx ${crossPeak.errors + crossPeak.non2xx})`,
        `at half of peak, paced (${half} req/s for ${PHASE_SECONDS} s, ${PACED_CONNECTIONS} connections, latency from each request's due time): name verification ${tail(copHalf)} (budget p99 ≤ ${P99_BUDGET_MS} ms)`,
        `  bare Hono at the same rate: ${tail(bareHalf)}`,
        `  achieved ${copHalf.achievedRate.toFixed(0)} and ${bareHalf.achievedRate.toFixed(0)} req/s; unsent ${copHalf.unsent} and ${bareHalf.unsent}; the generator's own send lag p50/p99 ${ms(copHalf.sendLag.p50)}/${ms(copHalf.sendLag.p99)} ms and ${ms(bareHalf.sendLag.p50)}/${ms(bareHalf.sendLag.p99)} ms (1 ms timer)`,
        `  with ${CONNECTIONS} sockets instead (not budgeted: the client queues for a free socket): name verification p99 ${ms(copHalfFewSockets.p99)} ms, send lag p99 ${ms(copHalfFewSockets.sendLag.p99)} ms`,
        `every name new to the matcher: ${combine(freshRounds).requestsPerSecond.toFixed(0)} req/s (rounds ${freshRounds.map((r) => r.requestsPerSecond.toFixed(0)).join('/')}, bare Hono in between, bodies made alike ${bareThird.map((r) => r.requestsPerSecond.toFixed(0)).join('/')}): ${freshShare.toFixed(2)} of bare Hono; errors + non-2xx ${freshRounds.reduce((n, r) => n + r.errors + r.non2xx, 0)}`,
        `errors + non-2xx (+ unsent at half of peak): ${failures}`,
        `signed answers: the sample's x-jws-signature ${sampleSigned ? 'verifies' : 'DOES NOT verify'} against the participant JWKS (signature cache on, as by default)`,
        `answers signed afresh (no signature cache; not budgeted): ${uncachedPeak.requestsPerSecond.toFixed(0)} req/s (rounds ${uncachedRounds.map((r) => r.requestsPerSecond.toFixed(0)).join('/')}, bare Hono in between ${bareAgain.map((r) => r.requestsPerSecond.toFixed(0)).join('/')}): ${uncachedShare.toFixed(2)} of bare Hono`,
        `  PS256 as the simulator signs (jose, RSA 2048): ${cost.wallUsPerSign.toFixed(0)} µs wall and ${cost.cpuUsPerSign.toFixed(0)} µs process CPU per signature one at a time; ${cost.parallelPerSecond.toFixed(0)} signatures/s with 64 in flight`,
        `  the floor, node:crypto RSASSA-PSS alone (same key and bytes): ${cost.bare.wallUsPerSign.toFixed(0)} µs wall and ${cost.bare.cpuUsPerSign.toFixed(0)} µs CPU per signature; ${cost.bare.parallelPerSecond.toFixed(0)} signatures/s with 64 in flight; jose ÷ bare CPU per signature ${ratio(cost.cpuUsPerSign, cost.bare.cpuUsPerSign)}`,
        `  name verification signed afresh ÷ the floor's signatures/s: ${ratio(uncachedPeak.requestsPerSecond, cost.bare.parallelPerSecond)} (concurrent requests whose answers are the same bytes share one signing, so it may pass 1)`,
      ],
    };
  } finally {
    await cop.close();
    await uncached.close();
    await bare.close();
    await runtime.close();
  }
}

/**
 * The HTTP figures above, then issue 46's two name-verification budgets, each with its ratio: with
 * repeated bodies ≤ 2× bare Hono's server CPU per request (separate processes,
 * bench/cop-server-cpu.ts), and with names new to the matcher ≥ 0.75 of bare Hono's throughput (the
 * in-process rounds above); and the matcher's cost stage by stage (bench/cop-matcher-stages.ts).
 */
export async function run(): Promise<BenchReport> {
  const http = await httpFigures();
  collectGarbage();
  const stages = await matcherStages(ACCOUNTS);
  collectGarbage();
  const cpu = await measureServerCpu();
  const repeated = cpuRatio(cpu.repeated);
  const repeatedHeld = repeated <= REPEATED_CPU_BUDGET && cpu.failed === 0;
  const freshHeld = http.freshShare >= FRESH_SHARE_BUDGET;
  const held = (ok: boolean) => (ok ? 'held' : 'NOT HELD');
  return {
    name: http.name,
    withinBudget: http.withinBudget && repeatedHeld && freshHeld,
    lines: [
      ...http.lines,
      `server CPU per request, a fresh \`scheme-sim start --memory\` and a fresh bare Hono (bench/bare-server.mjs) per round, each in its own process, 3 rounds:`,
      ...describeServerCpu(cpu).map((l) => `  ${l}`),
      `budget: repeated bodies ≤ ${REPEATED_CPU_BUDGET}× bare Hono's server CPU per request: ${repeated.toFixed(2)}× ${held(repeatedHeld)}`,
      `budget: names new to the matcher ≥ ${FRESH_SHARE_BUDGET} of bare Hono's throughput: ${http.freshShare.toFixed(2)} ${held(freshHeld)}`,
      `matcher stage by stage, in process, names new to the matcher, warm (in a loop) and cold (8 MB read before each name, as the server runs it) (${stages.built ? 'the built dist/' : 'the sources'}; each stage but the first two includes those above it):`,
      ...describeStages(stages.stages).map((l) => `  ${l}`),
    ],
  };
}

await runWhenMain(import.meta.url, run);
