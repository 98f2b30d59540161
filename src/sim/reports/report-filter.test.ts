import { describe, expect, it } from 'vitest';
import { reportFilter } from './report-filter.ts';
import type { Report } from './report-types.ts';

const report = (report_type: string, report_source: string, processing_date?: string) =>
  ({ attributes: { report_type, report_source, processing_date } }) as unknown as Report;

describe('reportFilter', () => {
  const reports = [
    report('ARUDD', 'bacs', '2026-01-05'),
    report('ADDACS', 'bacs', '2026-01-06'),
    report('FPS_SETTLEMENT', 'fps', '2026-01-07'),
    report('ARUCS', 'bacs'),
  ];
  const types = (filter: Parameters<typeof reportFilter>[0]) =>
    reports.filter(reportFilter(filter)).map((r) => r.attributes.report_type);

  it('keeps everything without a filter', () => {
    expect(types({})).toEqual(['ARUDD', 'ADDACS', 'FPS_SETTLEMENT', 'ARUCS']);
  });

  it('matches type and source exactly', () => {
    expect(types({ report_type: 'ADDACS' })).toEqual(['ADDACS']);
    expect(types({ report_source: 'bacs' })).toEqual(['ARUDD', 'ADDACS', 'ARUCS']);
    expect(types({ report_source: 'BACS' })).toEqual([]);
  });

  it('bounds processing dates inclusively and drops reports without one', () => {
    expect(types({ processing_date_from: '2026-01-06' })).toEqual(['ADDACS', 'FPS_SETTLEMENT']);
    expect(types({ processing_date_to: '2026-01-06' })).toEqual(['ARUDD', 'ADDACS']);
    expect(types({ processing_date_from: '2026-01-06', processing_date_to: '2026-01-06' })).toEqual(['ADDACS']);
  });

  it('refuses a malformed date bound naming the filter', () => {
    expect(() => reportFilter({ processing_date_from: '06/01/2026' })).toThrow(/filter\[processing_date_from\]/);
    expect(() => reportFilter({ processing_date_to: '2026-02-30' })).toThrow(/filter\[processing_date_to\]/);
  });
});
