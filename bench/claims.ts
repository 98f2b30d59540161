// DDIC claims on the scheme clock: 10,000 claims submitted over 20 working days (500 a day), the
// clock advanced a working day at a time and then through the last settlement. Budget (docs/design.md):
// the advancing takes ≤ 3 s. Baseline: the same advances of a simulator with no claims, same run.
// Also docs/design.md's form: one 15-working-day advance with 10,000 claims open at once, ≤ 3 s.
// And the same as a client sees it (issue 30): `scheme-sim start --data` (the journal store) in its
// own process, the claims created and submitted and the clock advanced through HTTP, each advance
// timed from request to answer; the budget holds the sum of those advances too.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { advanceTarget } from '../src/clock/advance.ts';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { claimAttributes } from '../src/harness/claim-attributes.ts';
import { createRuntime } from '../src/runtime.ts';
import { DDIC_CLAIM_SUBMISSION_REPORT } from '../src/sim/claims/report-arrivals.ts';
import { type BenchReport, ratio, runWhenMain } from './lib.ts';
import { cpuMicrosOf, devToken, simServer } from './processes.ts';

const CLAIMS = 10_000;
const DAYS = 20;
const SETTLEMENT_DAYS = 14;
const BUDGET_MS = 3000;
const ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';

interface Measure {
  createMs: number;
  advanceMs: number;
  /** CPU time of this process while advancing (robust on a loaded, shared machine). */
  advanceCpuMs: number;
  finalAdvanceMs: number;
  jobs: number;
  settled: number;
  contras: number;
  contraTotal: string;
  reports: number;
}

async function measure(claims: number): Promise<Measure> {
  const rt = await createRuntime({ memory: true, clock: SchemeClock.frozenAt('2026-12-21T09:00:00.000Z') });
  const { sim } = rt;
  // Count the DDIC claim submission reports the real reports service receives (daily reports arrive too).
  let reports = 0;
  sim.events.on((e) => {
    if (
      e.event_type === 'created' &&
      e.record_type === 'reports' &&
      (e.record.attributes as { report_type?: string }).report_type === DDIC_CLAIM_SUBMISSION_REPORT
    )
      reports++;
  });
  const perDay = claims / DAYS;
  let createMs = 0;
  let advanceMs = 0;
  let advanceCpuMs = 0;
  let jobs = 0;
  const step = async (workingDays: number) => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const result = sim.scheduler.advanceTo(advanceTarget(sim.clock.now(), { working_days: workingDays }, sim.calendar));
    await sim.store.commit();
    jobs += result.jobs_run.length;
    const used = process.cpuUsage(cpu);
    advanceCpuMs += (used.user + used.system) / 1000;
    const ms = performance.now() - t;
    advanceMs += ms;
    return ms;
  };
  for (let day = 0; day < DAYS; day++) {
    const t = performance.now();
    for (let i = 0; i < perDay; i++) {
      const claim = sim.claims.create({
        id: randomUUID(),
        organisation_id: ORG,
        attributes: claimAttributes([`${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`]),
      });
      sim.claims.submit(claim.id, { id: randomUUID(), organisation_id: ORG }, ORG);
    }
    await sim.store.commit();
    createMs += performance.now() - t;
    await step(1);
  }
  const finalAdvanceMs = await step(SETTLEMENT_DAYS);
  // The contras only: the runtime also holds the fixtures' seed payments.
  const payments = sim.payments.list(ORG, { scheme_payment_sub_type: 'DDICSettlement' });
  let total = 0n;
  for (const p of payments) total += BigInt(p.attributes.amount.replace('.', ''));
  const settled = sim.claims.claims.rows.values().filter((c) => c.relationships?.payment !== undefined).length;
  await rt.close();
  return {
    createMs,
    advanceMs,
    advanceCpuMs,
    finalAdvanceMs,
    jobs,
    settled,
    contras: payments.length,
    contraTotal: (Number(total) / 100).toFixed(2),
    reports,
  };
}

/** docs/design.md's form of the budget: 10,000 claims open at once (filed on one day), one 15-day advance. */
async function measureOpen(claims: number): Promise<{ ms: number; settled: number }> {
  const rt = await createRuntime({ memory: true, clock: SchemeClock.frozenAt('2026-12-21T09:00:00.000Z') });
  const { sim } = rt;
  for (let i = 0; i < claims; i++) {
    const claim = sim.claims.create({ id: randomUUID(), organisation_id: ORG, attributes: claimAttributes(['1.00']) });
    sim.claims.submit(claim.id, { id: randomUUID(), organisation_id: ORG }, ORG);
  }
  await sim.store.commit();
  const t = performance.now();
  sim.scheduler.advanceTo(advanceTarget(sim.clock.now(), { working_days: 15 }, sim.calendar));
  await sim.store.commit();
  const ms = performance.now() - t;
  const settled = sim.claims.claims.rows.values().filter((c) => c.relationships?.payment !== undefined).length;
  await rt.close();
  return { ms, settled };
}

interface HttpMeasure {
  createMs: number;
  advanceMs: number;
  finalAdvanceMs: number;
  /** The advancing server's CPU over the advances (its process only). */
  advanceCpuMs: number;
  jobs: number;
  contras: number;
  failed: number;
}

/** The same 20 days through HTTP against `scheme-sim start --data` (journal store, frozen clock). */
async function measureHttp(claims: number): Promise<HttpMeasure> {
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-claims-bench-'));
  const server = await simServer([
    '--data',
    join(dir, 'sim.json'),
    '--clock',
    'frozen',
    '--clock-start',
    '2026-12-21T09:00:00Z',
  ]);
  try {
    const headers = { authorization: `Bearer ${await devToken(server.url)}`, 'content-type': 'application/json' };
    const post = (path: string, body: object) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    let failed = 0;
    let createMs = 0;
    let advanceMs = 0;
    let advanceCpuMs = 0;
    let jobs = 0;
    const advance = async (workingDays: number) => {
      const cpu0 = cpuMicrosOf(server.pid);
      const t = performance.now();
      const res = await post('/v1/simulator/clock/advance', { working_days: workingDays });
      const answer = (await res.json()) as { data?: { jobs_run_count?: number } };
      const ms = performance.now() - t;
      advanceCpuMs += (cpuMicrosOf(server.pid) - cpu0) / 1000;
      if (res.status !== 200) failed++;
      jobs += answer.data?.jobs_run_count ?? 0;
      advanceMs += ms;
      return ms;
    };
    const perDay = claims / DAYS;
    for (let day = 0; day < DAYS; day++) {
      const t = performance.now();
      let next = 0;
      // 16 clients at a time, each creating then submitting its claim.
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < perDay) {
            const i = next++;
            const id = randomUUID();
            const created = await post('/v1/transaction/claims', {
              data: {
                id,
                organisation_id: ORG,
                type: 'claims',
                attributes: claimAttributes([`${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`]),
              },
            });
            await created.arrayBuffer();
            const submitted = await post(`/v1/transaction/claims/${id}/submissions`, {
              data: { id: randomUUID(), organisation_id: ORG, type: 'claim_submissions' },
            });
            await submitted.arrayBuffer();
            if (created.status !== 201 || submitted.status !== 201) failed++;
          }
        }),
      );
      createMs += performance.now() - t;
      await advance(1);
    }
    const finalAdvanceMs = await advance(SETTLEMENT_DAYS);
    const payments = await fetch(
      `${server.url}/v1/transaction/payments?filter[scheme_payment_sub_type]=DDICSettlement&page[size]=1000`,
      { headers },
    );
    const contras = ((await payments.json()) as { data?: unknown[] }).data?.length ?? 0;
    return { createMs, advanceMs, finalAdvanceMs, advanceCpuMs, jobs, contras, failed };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchReport> {
  const base = await measure(0);
  const m = await measure(CLAIMS);
  const open = await measureOpen(CLAIMS);
  const http = await measureHttp(CLAIMS);
  const httpCorrect = http.failed === 0 && http.contras === DAYS;
  const correct =
    m.settled === CLAIMS && m.contras === DAYS && m.reports === DAYS && open.settled === CLAIMS && httpCorrect;
  const withinBudget = correct && m.advanceMs <= BUDGET_MS && open.ms <= BUDGET_MS && http.advanceMs <= BUDGET_MS;
  const lines = [
    `claims: ${CLAIMS} claims over ${DAYS} working days, ${DAYS + SETTLEMENT_DAYS} working days advanced (${m.jobs} jobs)`,
    `claims: advancing took ${m.advanceMs.toFixed(0)} ms wall, ${m.advanceCpuMs.toFixed(0)} ms CPU (budget ${BUDGET_MS} ms wall; final ${SETTLEMENT_DAYS}-day advance ${m.finalAdvanceMs.toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(1)})`,
    `claims: the same advances with no claims took ${base.advanceMs.toFixed(1)} ms; ratio ${ratio(m.advanceMs, base.advanceMs)}x`,
    `claims: one 15-working-day advance with ${CLAIMS} open claims filed the same day: ${open.ms.toFixed(0)} ms (budget ${BUDGET_MS} ms)`,
    `claims: creating and submitting the claims took ${m.createMs.toFixed(0)} ms (not in the budget)`,
    `claims through HTTP, \`scheme-sim start --data\` (journal store) in its own process: the ${DAYS + 1} advances took ${http.advanceMs.toFixed(0)} ms from request to answer (budget ${BUDGET_MS} ms; final ${SETTLEMENT_DAYS}-day advance ${http.finalAdvanceMs.toFixed(0)} ms), ${http.advanceCpuMs.toFixed(0)} ms of the server's CPU, ${http.jobs} jobs; ${http.contras} contras${httpCorrect ? '' : ` — WRONG OUTCOME (${http.failed} failed requests)`}`,
    `claims through HTTP: creating and submitting the ${CLAIMS} claims (16 clients) took ${http.createMs.toFixed(0)} ms (not in the budget)`,
    `claims: ${m.settled} settled by ${m.contras} contras totalling ${m.contraTotal}; ${m.reports} submission reports${correct ? '' : ' — WRONG OUTCOME'}`,
    `claims: ${withinBudget ? 'within budget' : 'OVER BUDGET'}`,
  ];
  return { name: 'claims', lines, withinBudget };
}

await runWhenMain(import.meta.url, run);
