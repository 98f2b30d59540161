// `npm run fixtures:holidays`: writes fixtures/calendar/bank-holidays.json from date-holidays.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type HolidayTable, holidaysFromLibrary } from '../src/clock/bank-holidays.ts';
import { FIXTURES_DIR } from '../src/fixtures.ts';

export const HOLIDAY_TABLE_FILE = join(FIXTURES_DIR, 'calendar', 'bank-holidays.json');

export const TABLE_YEARS = { from: 2015, to: 2045 };

export function generateHolidayTable(): HolidayTable {
  const out: HolidayTable = {};
  for (let y = TABLE_YEARS.from; y <= TABLE_YEARS.to; y++) out[String(y)] = holidaysFromLibrary(y);
  return out;
}

if (process.argv[1]?.endsWith('generate-bank-holidays.ts')) {
  writeFileSync(HOLIDAY_TABLE_FILE, `${JSON.stringify(generateHolidayTable(), null, 1)}\n`);
  console.log(`wrote ${HOLIDAY_TABLE_FILE}`);
}
