import { describe, expect, it } from 'vitest';
import { BacsCalendar } from '../../clock/calendar.ts';
import { readFixtures } from '../../fixtures.ts';
import { type CatalogueEntry, processingDateFor, ReportCatalogue, validateCatalogue } from './catalogue.ts';

const entries = readFixtures().reportCatalogue;
const catalogue = new ReportCatalogue(entries);

describe('report catalogue fixture', () => {
  it('holds every Bacs report docs/design.md names', () => {
    const bacs = [
      'BACS_INPUT',
      'BACS_ARRIVAL',
      'BACS_WITHDRAWAL',
      'BACS_ARUCS',
      'BACS_ARUDD',
      'BACS_AUDDIS',
      'BACS_AUDDIS_ACCEPTANCE',
      'BACS_AUDDIS_REJECTION',
      'BACS_ADDACS',
      'BACS_AWACS',
      'BACS_DDIC_ADVICE',
      'BACS_DDIC_CLAIM_SUBMISSION',
    ];
    for (const t of bacs) expect(catalogue.get(t)?.report_source.startsWith('bacs-'), t).toBe(true);
  });

  it('holds at least three Faster Payments reports, settlement and sponsored participant among them', () => {
    const fps = entries.filter((e) => e.report_source.startsWith('fps'));
    expect(fps.length).toBeGreaterThanOrEqual(3);
    expect(catalogue.get('FPS_SETTLEMENT')?.schedule.days).toBe('every_day');
    expect(catalogue.get('FPS_SPONSORED_PARTICIPANT')?.audience).toBe('sponsors');
  });

  it('schedules Bacs reports on working days, FPS every day, claim submission and AUDDIS rejection on their events', () => {
    for (const e of entries) {
      if (['BACS_DDIC_CLAIM_SUBMISSION', 'BACS_AUDDIS_REJECTION'].includes(e.report_type))
        expect(e.schedule.days).toBe('on_event');
      else expect(e.schedule.days).toBe(e.report_source.startsWith('bacs') ? 'bacs_working_days' : 'every_day');
    }
  });

  it('offers the sponsored participant report only to sponsors', () => {
    const sponsored = catalogue.get('FPS_SPONSORED_PARTICIPANT')!;
    expect(catalogue.offeredTo(sponsored, { id: 'a', name: 'A', sponsor: true })).toBe(true);
    expect(catalogue.offeredTo(sponsored, { id: 'b', name: 'B', sponsor: false })).toBe(false);
    expect(catalogue.offeredTo(catalogue.get('BACS_ARUDD')!, { id: 'b', name: 'B', sponsor: false })).toBe(true);
  });
});

describe('validateCatalogue', () => {
  const good = entries[0]!;
  const broken = (change: Partial<CatalogueEntry>) => [{ ...good, ...change }];

  it('names the entry and the field that is wrong', () => {
    expect(() => validateCatalogue(broken({ formats: ['docx' as never] }))).toThrow(/BACS_INPUT\): formats/);
    expect(() =>
      validateCatalogue(
        broken({ schedule: { days: 'bacs_working_days', london_time: '25:00', processing_date: 'same_day' } }),
      ),
    ).toThrow(/london_time/);
    expect(() => validateCatalogue(broken({ audience: 'some' as never }))).toThrow(/audience/);
    expect(() => validateCatalogue(broken({ content: 'gossip' as never }))).toThrow(/content must be one of/);
    expect(() => validateCatalogue([good, good])).toThrow(/duplicated/);
    expect(() => validateCatalogue([])).toThrow(/non-empty/);
  });
});

describe('processingDateFor', () => {
  const cal = new BacsCalendar();
  it('follows the Bacs calendar across Christmas 2026', () => {
    expect(processingDateFor('next_working_day', '2026-12-24', cal)).toBe('2026-12-29');
    expect(processingDateFor('previous_working_day', '2026-12-29', cal)).toBe('2026-12-24');
    expect(processingDateFor('previous_day', '2026-12-29', cal)).toBe('2026-12-28');
    expect(processingDateFor('same_day', '2026-12-29', cal)).toBe('2026-12-29');
  });
});

describe('docs/reports.md', () => {
  it('documents every catalogue entry', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../../docs/reports.md', import.meta.url), 'utf8');
    for (const e of entries)
      expect(doc, e.report_type).toContain(
        `| \`${e.report_type}\` | ${e.report_type_description} | \`${e.report_source}\``,
      );
  });
});
