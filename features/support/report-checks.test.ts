import { describe, expect, it } from 'vitest';
import { doubleFormats, doubleReportTypes, magicProblem, reportWindowStart } from './report-checks.ts';

describe('the report checks of the staging profile', () => {
  it('counts the window back in Bacs working days, 5 unless CONFORMANCE_REPORT_DAYS says', () => {
    // Wednesday 23 December 2026: five working days back is Wednesday 16 December.
    expect(reportWindowStart({}, '2026-12-23')).toBe('2026-12-16');
    // Over Christmas and Boxing Day (Monday 28 December is the Boxing Day holiday).
    expect(reportWindowStart({ CONFORMANCE_REPORT_DAYS: '2' }, '2026-12-29')).toBe('2026-12-23');
    expect(reportWindowStart({ CONFORMANCE_REPORT_DAYS: '0' }, '2026-12-23')).toBe('2026-12-23');
    expect(() => reportWindowStart({ CONFORMANCE_REPORT_DAYS: 'a week' }, '2026-12-23')).toThrow(
      'CONFORMANCE_REPORT_DAYS must be a whole number',
    );
  });

  it('knows each format by its first bytes', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(magicProblem('pdf', bytes('%PDF-1.7\n'))).toBeUndefined();
    expect(magicProblem('xml', bytes('<?xml version="1.0"?><a/>'))).toBeUndefined();
    expect(magicProblem('xml', bytes('\uFEFF<?xml version="1.0"?><a/>'))).toBeUndefined();
    expect(magicProblem('zipped_xhtml', new Uint8Array([0x50, 0x4b, 3, 4, 20]))).toBeUndefined();
    expect(magicProblem('pdf', bytes('{"data":1}'))).toBe(
      'a pdf file starts with %PDF-; this one starts with bytes 7b2264617461223a',
    );
    expect(magicProblem('zipped_xhtml', bytes('<html/>'))).toMatch(/starts with PK/);
  });

  it('reads the formats the double offers from its catalogue', () => {
    expect(doubleFormats('BACS_ARRIVAL')).toEqual(['pdf', 'xml']);
    expect(doubleFormats('NOT_A_TYPE')).toBeUndefined();
    expect(doubleReportTypes()).toHaveLength(16);
  });
});
