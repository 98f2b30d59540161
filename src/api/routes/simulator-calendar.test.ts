import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { schemaValidator } from '../schemas/index.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const get = async (query: string) => {
  const res = await rt.call('GET', `/v1/simulator/calendar${query}`);
  return { status: res.status, body: (await res.json()) as any };
};

describe('GET /v1/simulator/calendar', () => {
  it('lists working days and named holidays of a range', async () => {
    const { status, body } = await get('?from=2026-12-24&to=2027-01-04');
    expect(status).toBe(200);
    expect(schemaValidator('calendar')(body)).toBe(true);
    expect(body.data).toEqual({
      scheme: 'Bacs',
      from: '2026-12-24',
      to: '2027-01-04',
      working_days: ['2026-12-24', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-04'],
      holidays: [
        { date: '2026-12-25', name: 'Christmas Day' },
        { date: '2026-12-28', name: 'Boxing Day (substitute day)' },
        { date: '2027-01-01', name: "New Year's Day" },
      ],
    });
    expect(body.links.self).toBe('/v1/simulator/calendar?from=2026-12-24&to=2027-01-04');
  });

  it('defaults to 31 days from the scheme clock’s London date', async () => {
    const { body } = await get('');
    expect(body.data).toMatchObject({ from: '2026-12-21', to: '2027-01-20' });
    expect((await get('?from=2027-12-20')).body.data.holidays.map((h: any) => h.date)).toEqual([
      '2027-12-27',
      '2027-12-28',
      '2028-01-03',
    ]);
  });

  it('answers 400 for bad dates, reversed or too long ranges, and unknown parameters', async () => {
    expect(await get('?from=2026-02-30')).toMatchObject({
      status: 400,
      body: { error_message: "from in query must be a date (YYYY-MM-DD), got '2026-02-30'" },
    });
    expect(await get('?from=2026-12-24&to=2026-12-01')).toMatchObject({
      status: 400,
      body: { error_message: 'to in query (2026-12-01) must not be before from (2026-12-24)' },
    });
    expect((await get('?from=2026-01-01&to=2028-01-02')).body.error_message).toBe(
      'the range from 2026-01-01 to 2028-01-02 covers 732 days; at most 731 are allowed',
    );
    expect((await get('?from=2026-01-01&to=2028-01-01')).status).toBe(200);
    expect(await get('?year=2026')).toMatchObject({
      status: 400,
      body: { error_message: 'year in query is not supported; supported: from, to' },
    });
    expect((await get('?from=2026-01-01&from=2026-01-02')).status).toBe(400);
  });
});

describe('GET /v1/simulator/calendar: the supported dates (1900-01-01 to 2199-12-31)', () => {
  it('answers 400 naming the field for dates outside the range, at once', async () => {
    for (const [query, field] of [
      ['?from=9999-12-01', 'from'],
      ['?from=2199-12-01&to=9999-12-31', 'to'],
      ['?from=1899-12-31&to=1900-01-05', 'from'],
      ['?from=0050-01-01', 'from'],
    ] as const) {
      const { status, body } = await get(query);
      expect({ query, status, message: body.error_message }).toEqual({
        query,
        status: 400,
        message: expect.stringMatching(new RegExp(`^${field} in query must be a date from 1900-01-01 to 2199-12-31`)),
      });
    }
    expect((await get('?from=2026-02-30')).body.error_message).toBe(
      "from in query must be a date (YYYY-MM-DD), got '2026-02-30'",
    );
  });

  it('lists up to the last supported date; the default range stops there', async () => {
    const { status, body } = await get('?from=2199-12-20');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ from: '2199-12-20', to: '2199-12-31' });
    expect((await get('?from=2199-12-31&to=2199-12-31')).body.data.to).toBe('2199-12-31');
  });
});
