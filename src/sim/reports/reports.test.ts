import { describe, expect, it } from 'vitest';
import { xpathValues } from '../../../features/support/report-files.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';
import { readFixtures } from '../../fixtures.ts';
import { HARBOUR, NORTHWIND, testRuntime } from '../../harness/test-runtime.ts';
import { openStore } from '../../store/store.ts';
import type { RecordEvent } from '../events.ts';
import { Simulator } from '../simulator.ts';
import type { Report } from './report-types.ts';
import { sum } from './report-view.ts';

const FENWICK = 'c0a9e1f2-6d3b-4a8e-b7c4-2f9e8d1a6b53';

async function simAt(at: string) {
  const rt = await testRuntime({ clockState: SchemeClock.frozenAt(at), scheduledReports: true });
  const events: RecordEvent[] = [];
  rt.sim.events.on((e) => events.push(e));
  return { sim: rt.sim, events };
}

describe('Reports.arrive', () => {
  it('creates a Report and a delivery_confirmed Report Admission, emitting created for each in that order', async () => {
    const { sim, events } = await simAt('2026-12-21T09:00:00.000Z');
    const { report, admission } = sim.reports.arrive({
      organisation_id: NORTHWIND.organisation_id,
      report_type: 'BACS_ARUDD',
      processing_date: '2026-12-18',
    });
    expect(events.map((e) => `${e.event_type}/${e.record_type}`)).toEqual([
      'created/reports',
      'created/report_admissions',
    ]);
    expect(report).toMatchObject({
      type: 'reports',
      version: 0,
      organisation_id: NORTHWIND.organisation_id,
      attributes: {
        report_type: 'BACS_ARUDD',
        report_type_description: 'Automated Return of Unpaid Direct Debits',
        generation_time: '2026-12-21T09:00:00.000Z',
        processing_date: '2026-12-18',
        report_source: 'bacs-originator',
        formats: ['pdf', 'xml', 'zipped_xhtml'],
      },
      relationships: { report_admission: { data: [{ id: admission.id, type: 'report_admissions' }] } },
    });
    expect(admission.attributes).toEqual({
      admission_datetime: '2026-12-21T09:00:00.000Z',
      status: 'delivery_confirmed',
    });
    // Stored as a reference; shown (GET, lists, notifications) as the Report, as the seed has it.
    expect(admission.relationships?.report?.data).toEqual([{ id: report.id, type: 'reports' }]);
    expect(sim.paths.show(admission).relationships?.report?.data).toEqual([
      {
        id: report.id,
        type: 'reports',
        version: 0,
        organisation_id: NORTHWIND.organisation_id,
        attributes: report.attributes,
      },
    ]);
    expect(sim.paths.show(report).relationships?.report_admission?.data).toEqual([
      {
        id: admission.id,
        type: 'report_admissions',
        version: 0,
        organisation_id: NORTHWIND.organisation_id,
        attributes: admission.attributes,
      },
    ]);
    // What a notification carries as data: the admission's GET body.
    expect(sim.paths.bodyOf(events[1]!.record).links.self).toBe(
      `/v1/notification/reports/${report.id}/admissions/${admission.id}`,
    );
    expect(sim.paths.bodyOf(report).links.self).toBe(`/v1/notification/reports/${report.id}`);
  });

  it('dates processing by the catalogue rule when no processing_date is given', async () => {
    const { sim } = await simAt('2026-12-29T09:00:00.000Z');
    const arudd = sim.reports.arrive({ organisation_id: NORTHWIND.organisation_id, report_type: 'BACS_ARUDD' })
      .report as Report;
    const input = sim.reports.arrive({ organisation_id: NORTHWIND.organisation_id, report_type: 'BACS_INPUT' })
      .report as Report;
    expect(arudd.attributes.processing_date).toBe('2026-12-24');
    expect(input.attributes.processing_date).toBe('2026-12-30');
  });

  it('refuses unknown types and organisations, bad dates, and the sponsor-only report for a non-sponsor', async () => {
    const { sim, events } = await simAt('2026-12-21T09:00:00.000Z');
    expect(() => sim.reports.arrive({ organisation_id: NORTHWIND.organisation_id, report_type: 'BACS_NOPE' })).toThrow(
      /not in the report catalogue; known: BACS_INPUT/,
    );
    expect(() =>
      sim.reports.arrive({ organisation_id: '00000000-0000-4000-8000-000000000000', report_type: 'BACS_ARUDD' }),
    ).toThrow(/not a known organisation/);
    expect(() =>
      sim.reports.arrive({
        organisation_id: NORTHWIND.organisation_id,
        report_type: 'BACS_ARUDD',
        processing_date: '2026-02-30',
      }),
    ).toThrow(/processing_date/);
    expect(() =>
      sim.reports.arrive({ organisation_id: HARBOUR.organisation_id, report_type: 'FPS_SPONSORED_PARTICIPANT' }),
    ).toThrow(/only available to organisations that sponsor/);
    expect(events).toEqual([]);
    expect(
      sim.reports.arrive({ organisation_id: NORTHWIND.organisation_id, report_type: 'FPS_SPONSORED_PARTICIPANT' })
        .report.attributes.report_source,
    ).toBe('fps-sponsor');
  });

  it('keeps given rows as the report content', async () => {
    const { sim } = await simAt('2026-12-21T09:00:00.000Z');
    const rows = [
      { Reference: 'DDICREF0001', SequenceNumber: '000000000042', Amount: '12.50' },
      { Reference: 'DDICREF0002', SequenceNumber: 43, Amount: '7.25' },
    ];
    const { report } = sim.reports.arrive({
      organisation_id: NORTHWIND.organisation_id,
      report_type: 'BACS_DDIC_CLAIM_SUBMISSION',
      processing_date: '2026-12-22',
      rows,
    });
    const xml = (await sim.reports.content(report as Report)).xml();
    expect(xpathValues(xml, '//DDICClaim/PayingBankReference')).toEqual(['DDICREF0001', 'DDICREF0002']);
    expect(xpathValues(xml, '//DDICClaim/SeqNo')).toEqual(['000000000042', '43']);
    expect(xpathValues(xml, '//DDICClaim/TotalAmount')).toEqual(['12.50', '7.25']);
    expect(xpathValues(xml, '//SubmittedClaims/TotalValueOfClaims')).toEqual(['19.75']);
    expect(xpathValues(xml, '//Document/ProcessingDate')).toEqual(['2026-12-22']);
  });
});

describe('size limits', () => {
  const bigDay = Array.from({ length: 10_000 }, (_, i) => ({
    Reference: `DDIC${i}`,
    SequenceNumber: String(i).padStart(12, '0'),
    Amount: '1.00',
    A: 'a',
    B: 'b',
    C: 'c',
    D: 'd',
    E: 'e',
    F: 'f',
  }));

  it('caps what a client injects (rows × keys) with a message naming rows', async () => {
    const { sim } = await simAt('2026-12-21T09:00:00.000Z');
    expect(() =>
      sim.reports.inject({
        organisation_id: NORTHWIND.organisation_id,
        report_type: 'BACS_DDIC_CLAIM_SUBMISSION',
        rows: bigDay,
      }),
    ).toThrow(/rows in body should have at most 20000 cells/);
  });

  it("does not cap the simulator's own reports: a day of 10,000 claims files its submission report", async () => {
    const { sim } = await simAt('2026-12-21T09:00:00.000Z');
    const { report } = sim.reports.arrive({
      organisation_id: NORTHWIND.organisation_id,
      report_type: 'BACS_DDIC_CLAIM_SUBMISSION',
      rows: bigDay,
    });
    const xml = (await sim.reports.content(sim.reports.get(report.id))).xml();
    expect(xml.match(/<DDICClaim>/g)).toHaveLength(10_000);
  }, 60_000); // 10,000 rows rendered as XML: slow on a busy shared machine
});

describe('generated content', () => {
  it('is the same for the same report id and differs for another, for every catalogue type', async () => {
    const { sim } = await simAt('2026-12-22T09:00:00.000Z');
    for (const entry of sim.reports.catalogue.entries) {
      const { report } = sim.reports.arrive({
        organisation_id: NORTHWIND.organisation_id,
        report_type: entry.report_type,
      });
      const r = report as Report;
      const a = (await sim.reports.content(r)).xml();
      expect((await sim.reports.content(r)).xml(), entry.report_type).toBe(a);
      const other = (await sim.reports.content({ ...r, id: '11111111-2222-4333-8444-555555555555' })).xml();
      expect(other, entry.report_type).not.toBe(a);
    }
  });

  it('gives ARUDD returned debits with ARUDD reason codes and totals per originating account that add up', async () => {
    const { sim } = await simAt('2026-12-21T09:00:00.000Z');
    const { report } = sim.reports.arrive({ organisation_id: NORTHWIND.organisation_id, report_type: 'BACS_ARUDD' });
    const xml = (await sim.reports.content(report as Report)).xml();
    const items = xpathValues(xml, '//ReturnedDebitItem/@returnCode');
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const code of items) expect(code).toMatch(/^[0-9AB]\d{3}$/);
    const records = Number(xpathValues(xml, 'count(//OriginatingAccountRecord)')[0]);
    for (let i = 1; i <= records; i++) {
      const at = `//OriginatingAccountRecord[${i}]`;
      const values = xpathValues(xml, `${at}/ReturnedDebitItem/@valueOf`);
      expect(xpathValues(xml, `${at}/Totals/@valueOf`)).toEqual([sum(values)]);
      expect(xpathValues(xml, `${at}/Totals/@numberOf`)).toEqual([String(values.length)]);
    }
    expect(xpathValues(xml, '//ARUDD/Header/@currentProcessingDate')).toEqual(['2026-12-18']);
  });
});

describe('scheduled arrivals', () => {
  it('bring Bacs reports on working days only and FPS reports every day, across Christmas 2026', async () => {
    // Thursday 24 December 09:00; Friday 25 and Monday 28 (Boxing Day substitute) are bank holidays.
    const { sim } = await simAt('2026-12-24T09:00:00.000Z');
    sim.scheduler.advanceTo(new Date('2026-12-29T09:00:00.000Z'));
    const mine = sim.reports.list(NORTHWIND.organisation_id);
    const of = (type: string) =>
      mine
        .filter((r) => r.attributes.report_type === type)
        .map((r) => `${r.attributes.generation_time} ${r.attributes.processing_date}`);
    expect(of('BACS_INPUT')).toEqual(['2026-12-24T22:30:00.000Z 2026-12-29']);
    expect(of('BACS_ARUDD')).toEqual(['2026-12-29T06:00:00.000Z 2026-12-24']);
    expect(of('BACS_DDIC_CLAIM_SUBMISSION')).toEqual([]);
    expect(of('FPS_SETTLEMENT')).toEqual(
      ['25', '26', '27', '28', '29'].map((d) => `2026-12-${d}T06:30:00.000Z 2026-12-${Number(d) - 1}`),
    );
    expect(of('FPS_SPONSORED_PARTICIPANT')).toHaveLength(5);
    const harbour = sim.reports.list(HARBOUR.organisation_id);
    expect(harbour.filter((r) => r.attributes.report_type === 'FPS_SPONSORED_PARTICIPANT')).toEqual([]);
    expect(harbour.filter((r) => r.attributes.report_type === 'FPS_SETTLEMENT')).toHaveLength(5);
    expect(sim.reports.list(FENWICK).filter((r) => r.attributes.report_type === 'BACS_ARUDD')).toHaveLength(1);
    // Each arrival has its admission, stamped with the job's own due time.
    for (const r of mine) {
      const admissionId = r.relationships!.report_admission!.data[0]!.id;
      expect(sim.reports.admission(r.id, admissionId, NORTHWIND.organisation_id).attributes.admission_datetime).toBe(
        r.attributes.generation_time,
      );
    }
  });

  it('keeps one pending job per organisation and slot, and re-seeding adds none', async () => {
    const { sim } = await simAt('2026-12-21T09:00:00.000Z');
    const pending = sim.scheduler.pendingCount;
    expect(pending).toBe(4 * 3);
    sim.reports.seedSchedule();
    expect(sim.scheduler.pendingCount).toBe(pending);
    sim.scheduler.advanceTo(new Date('2027-01-05T09:00:00.000Z'));
    expect(sim.scheduler.pendingCount).toBe(pending);
    sim.reports.seedSchedule();
    expect(sim.scheduler.pendingCount).toBe(pending);
  });

  it('does not create a day’s reports twice when the same day’s job runs again', async () => {
    const { sim } = await simAt('2026-12-21T09:00:00.000Z');
    sim.scheduler.advanceTo(new Date('2026-12-22T09:00:00.000Z'));
    const before = sim.reports.list(NORTHWIND.organisation_id).length;
    const slot = { days: 'bacs_working_days', london_time: '06:00' };
    sim.scheduler.schedule(
      'reports:daily',
      new Date('2026-12-22T09:30:00.000Z'),
      { organisation_id: NORTHWIND.organisation_id, date: '2026-12-22', slot },
      'replayed',
    );
    const result = sim.scheduler.advanceTo(new Date('2026-12-22T10:00:00.000Z'));
    expect(result.jobs_run.find((j) => j.id === 'replayed')?.error).toBeUndefined();
    expect(sim.reports.list(NORTHWIND.organisation_id)).toHaveLength(before);
  });

  it('can be switched off (nothing scheduled, arrivals still work)', async () => {
    const store = await openStore();
    const sim = new Simulator({
      store,
      organisations: readFixtures().organisations,
      reportCatalogue: readFixtures().reportCatalogue,
      clock: SchemeClock.frozenAt('2026-12-21T09:00:00.000Z'),
      scheduledReports: false,
    });
    expect(sim.scheduler.pendingCount).toBe(0);
    expect(
      sim.reports.arrive({ organisation_id: NORTHWIND.organisation_id, report_type: 'BACS_AWACS' }).admission.type,
    ).toBe('report_admissions');
    sim.reports.seedSchedule();
    expect(sim.scheduler.pendingCount).toBe(12);
  });

  it('reset() forgets rendered files and seeds the schedule again when the reports are scheduled', async () => {
    const { sim } = await simAt('2026-12-21T09:00:00.000Z');
    const { report } = sim.reports.arrive({ organisation_id: NORTHWIND.organisation_id, report_type: 'BACS_ARUDD' });
    await sim.reports.file(report.id, NORTHWIND.organisation_id, 'xml');
    expect(sim.reports.files.size).toBe(1);
    for (const job of sim.store.collection<{ id: string }>('scheduler_jobs').values()) sim.scheduler.cancel(job.id);
    expect(sim.scheduler.pendingCount).toBe(0);
    sim.reports.reset(false);
    expect(sim.reports.files.size).toBe(0);
    expect(sim.scheduler.pendingCount).toBe(0); // not scheduled: nothing seeded
    sim.reports.reset(true);
    expect(sim.scheduler.pendingCount).toBe(12);
  });
});
