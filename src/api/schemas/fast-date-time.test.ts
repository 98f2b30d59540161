import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { plainUtcDateTime } from './fast-date-time.ts';
import { schemaValidator } from './index.ts';

const full = (fullFormats['date-time'] as { validate: (s: string) => boolean }).validate;

describe('the quick yes for date-times', () => {
  it('says yes to what the simulator writes', () => {
    for (const s of ['2026-12-21T09:00:00.000Z', '2024-02-29T23:59:59Z', '1900-01-01T00:00:00.123456Z'])
      expect(plainUtcDateTime(s), s).toBe(true);
  });

  it('never says yes where ajv-formats says no, over 200,000 mutated date-times', () => {
    const alphabet = '0123456789-:TZtz.+ ';
    const seeds = [
      '2026-12-21T09:00:00.000Z',
      '2023-02-28T23:59:59Z',
      '2024-02-29T00:00:00.5Z',
      '2026-06-30T12:30:45Z',
    ];
    const wrong: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const chars = [...seeds[i % seeds.length]!];
      for (let k = 1 + (i % 3); k > 0; k--) {
        const at = Math.floor(Math.random() * chars.length);
        chars[at] = alphabet[Math.floor(Math.random() * alphabet.length)]!;
      }
      const s = chars.join('');
      if (plainUtcDateTime(s) && !full(s)) wrong.push(s);
    }
    expect(wrong).toEqual([]);
  });

  it('leaves the rest to the full check: offsets, a leap second, a space, lower case', () => {
    for (const s of [
      '2026-12-21T09:00:00+01:00',
      '2016-12-31T23:59:60Z',
      '2026-12-21 09:00:00Z',
      '2026-12-21t09:00:00z',
    ]) {
      expect(plainUtcDateTime(s), s).toBe(false);
      expect(full(s), s).toBe(true);
    }
  });

  it('is what the schemas use: a bad date-time is still refused', () => {
    const validate = schemaValidator('stored-scheduler-job');
    const job = { id: 'j', kind: 'k', due: '2026-02-30T09:00:00.000Z', payload: {}, seq: 1 };
    expect(validate(job)).toBe(false);
    expect(validate({ ...job, due: '2026-02-28T09:00:00.000Z' })).toBe(true);
  });
});
