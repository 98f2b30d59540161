import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, readFixtures } from './fixtures.ts';
import { NORTHWIND } from './harness/test-runtime.ts';
import { createRuntime, type Runtime } from './runtime.ts';

let dir: string | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A copy of the shipped fixtures with one report type and a made-up bank holiday table. */
function ownFixtures(): string {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-fixtures-'));
  cpSync(FIXTURES_DIR, dir, { recursive: true });
  const [awacs] = readFixtures().reportCatalogue.filter((e) => e.report_type === 'BACS_AWACS');
  writeFileSync(
    join(dir, 'reports', 'catalogue.json'),
    JSON.stringify([{ ...awacs, report_type: 'TEAM_ONLY_REPORT' }]),
  );
  // Wednesday 2027-03-03 is a working day in England & Wales; this team's table says it is not.
  writeFileSync(
    join(dir, 'calendar', 'bank-holidays.json'),
    JSON.stringify({ '2027': [{ date: '2027-03-03', name: 'Team holiday' }] }),
  );
  return dir;
}

describe('fixturesDir', () => {
  it('is honoured for every fixture, the report catalogue and the holiday table included', async () => {
    runtime = await createRuntime({ memory: true, fixturesDir: ownFixtures(), scheduledReports: false });
    expect(runtime.sim.reports.catalogue.types).toEqual(['TEAM_ONLY_REPORT']);
    expect(runtime.sim.calendar.holidayName('2027-03-03')).toBe('Team holiday');
    // The table holds 2027, so Christmas 2027 is whatever it says: a working day here.
    expect(runtime.sim.calendar.isBacsWorkingDay('2027-12-27')).toBe(true);
    // Years the table lacks still come from date-holidays.
    expect(runtime.sim.calendar.holidayName('2028-12-25')).toBe('Christmas Day');
    expect(runtime.devClient?.client_id).toBe(NORTHWIND.uuid);
  });

  it('names the file when the catalogue is broken', async () => {
    const own = ownFixtures();
    writeFileSync(join(own, 'reports', 'catalogue.json'), JSON.stringify([{ report_type: 'lower' }]));
    await expect(createRuntime({ memory: true, fixturesDir: own })).rejects.toThrow(
      /report catalogue .*catalogue\.json: report catalogue entry 0 \(lower\): report_type must be an upper-case code/,
    );
  });
});
