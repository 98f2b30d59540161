// The schemas in fixtures/reports/xsd: one per report type of the catalogue, each a schema xmllint
// compiles (the per-file validation of every generated report is in src/sim/reports/report-files.test.ts).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { XSD_DIR, xsdOf, xsdProblems } from '../features/support/report-xsd.ts';
import { readFixtures } from '../src/fixtures.ts';

describe('report schemas', () => {
  const types = readFixtures().reportCatalogue.map((e) => e.report_type);

  it('are one per report type of the catalogue, plus the shared type files', () => {
    const files = readdirSync(XSD_DIR).filter((f) => f.endsWith('.xsd'));
    const perType = files.filter((f) => !f.includes('-types'));
    expect(perType.sort()).toEqual(types.map((t) => `${t.toLowerCase()}.xsd`).sort());
  });

  it('compile with xmllint, and refuse a document of another report', () => {
    for (const t of types) {
      // A schema that does not compile makes xmllint exit 5 before it reads the document.
      expect(() =>
        execFileSync('xmllint', ['--noout', '--schema', xsdOf(t), join(XSD_DIR, 'bacs-types.xsd')], { stdio: 'pipe' }),
      ).toThrow(/fails to validate/);
    }
    expect(xsdProblems('<?xml version="1.0"?><FPSDocument><Data/></FPSDocument>', 'BACS_ARUDD')).toMatch(/FPSDocument/);
  });
});
