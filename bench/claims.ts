// DDIC claims on the scheme clock: 10,000 claims submitted over 20 working days (500 a day), the
// clock advanced a working day at a time and then through the last settlement. Budget (docs/design.md):
// the advancing takes ≤ 3 s. Baseline: the same advances of a simulator with no claims, same run.
// Also docs/design.md's form: one 15-working-day advance with 10,000 claims open at once, ≤ 3 s.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { advanceTarget } from '../src/clock/advance.ts';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { claimAttributes } from '../src/harness/claim-attributes.ts';
import { createRuntime } from '../src/runtime.ts';
import { DDIC_CLAIM_SUBMISSION_REPORT } from '../src/sim/claims/report-arrivals.ts';
import { type BenchReport, ratio } from './lib.ts';

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
  const payments = sim.payments.list(ORG);
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

export async function run(): Promise<BenchReport> {
  const base = await measure(0);
  const m = await measure(CLAIMS);
  const open = await measureOpen(CLAIMS);
  const correct = m.settled === CLAIMS && m.contras === DAYS && m.reports === DAYS && open.settled === CLAIMS;
  const withinBudget = correct && m.advanceMs <= BUDGET_MS && open.ms <= BUDGET_MS;
  const lines = [
    `claims: ${CLAIMS} claims over ${DAYS} working days, ${DAYS + SETTLEMENT_DAYS} working days advanced (${m.jobs} jobs)`,
    `claims: advancing took ${m.advanceMs.toFixed(0)} ms wall, ${m.advanceCpuMs.toFixed(0)} ms CPU (budget ${BUDGET_MS} ms wall; final ${SETTLEMENT_DAYS}-day advance ${m.finalAdvanceMs.toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(1)})`,
    `claims: the same advances with no claims took ${base.advanceMs.toFixed(1)} ms; ratio ${ratio(m.advanceMs, base.advanceMs)}x`,
    `claims: one 15-working-day advance with ${CLAIMS} open claims filed the same day: ${open.ms.toFixed(0)} ms (budget ${BUDGET_MS} ms)`,
    `claims: creating and submitting the claims took ${m.createMs.toFixed(0)} ms (not in the budget)`,
    `claims: ${m.settled} settled by ${m.contras} contras totalling ${m.contraTotal}; ${m.reports} submission reports${correct ? '' : ' — WRONG OUTCOME'}`,
    `claims: ${withinBudget ? 'within budget' : 'OVER BUDGET'}`,
  ];
  return { name: 'claims', lines, withinBudget };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await run();
  for (const line of report.lines) console.log(line);
  process.exitCode = report.withinBudget ? 0 : 1;
}
