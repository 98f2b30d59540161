import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dueDate, JourneyLedger, ledgerPath, schemeToday } from './journeys.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const WHERE = { base_url: 'https://api.staging.example', organisation_id: 'org-1' };
let n = 0;
const newId = () => `j${++n}`;

describe('the journey ledger', () => {
  it('starts a journey, waits while its stage is not due, and resumes it once due', () => {
    const file = join(dir, 'journeys.json');
    const ledger = new JourneyLedger(file);
    const first = ledger.choose('claim', WHERE, '2026-12-21', newId);
    expect('start' in first).toBe(true);
    const started = (first as { start: { id: string; waiting?: unknown } }).start;
    started.waiting = { day: 1, due: '2026-12-22' };
    ledger.save();

    const again = new JourneyLedger(file);
    expect(again.choose('claim', WHERE, '2026-12-21', newId)).toEqual({
      wait: expect.objectContaining({ id: started.id }),
    });
    expect(again.choose('claim', WHERE, '2026-12-22', newId)).toEqual({
      resume: expect.objectContaining({ id: started.id }),
    });
  });

  it('starts another journey on a later day while an earlier one waits, and keeps targets apart', () => {
    const ledger = new JourneyLedger(join(dir, 'journeys.json'));
    const a = (ledger.choose('claim', WHERE, '2026-12-21', newId) as { start: { waiting?: unknown } }).start;
    a.waiting = { day: 14, due: '2027-01-13' };
    expect('start' in ledger.choose('claim', WHERE, '2026-12-22', newId)).toBe(true);
    expect('start' in ledger.choose('claim', { ...WHERE, organisation_id: 'org-2' }, '2026-12-21', newId)).toBe(true);
    expect(ledger.journeys).toHaveLength(3);
  });

  it('names a ledger it cannot read', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"journeys": 5}');
    expect(() => new JourneyLedger(file)).toThrow(
      `the journey ledger ${file} cannot be read: it has no "journeys" list`,
    );
    writeFileSync(file, '{');
    expect(() => new JourneyLedger(file)).toThrow(/cannot be read/);
  });

  it('saves to a folder it creates', () => {
    const file = join(dir, 'deep', 'er', 'journeys.json');
    const ledger = new JourneyLedger(file);
    ledger.choose('claim', WHERE, '2026-12-21', newId);
    ledger.save();
    expect(JSON.parse(readFileSync(file, 'utf8')).journeys).toHaveLength(1);
  });
});

describe('journey dates', () => {
  it('counts days in Bacs working days, bank holidays skipped', () => {
    expect(dueDate({ started_on: '2026-12-21' }, 1)).toBe('2026-12-22');
    expect(dueDate({ started_on: '2026-12-21' }, 14)).toBe('2027-01-13'); // 25, 28 Dec and 1 Jan closed
  });

  it('takes today from CONFORMANCE_TODAY or London, and the ledger from CONFORMANCE_LEDGER', () => {
    expect(schemeToday({ CONFORMANCE_TODAY: '2027-01-04' })).toBe('2027-01-04');
    expect(schemeToday({}, new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01'); // BST
    expect(() => schemeToday({ CONFORMANCE_TODAY: 'tomorrow' })).toThrow('CONFORMANCE_TODAY must be a date');
    expect(ledgerPath({ CONFORMANCE_LEDGER: '/tmp/x.json' })).toBe('/tmp/x.json');
    expect(ledgerPath({})).toMatch(/reports\/journeys\.json$/);
  });
});
