// Validates a report's XML against the schema of its report type in fixtures/reports/xsd with
// xmllint (libxml2-utils), the validator a bank's own tooling is most likely to use.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../../src/index.ts';

export const XSD_DIR = join(FIXTURES_DIR, 'reports', 'xsd');

/** The schema of a report type: fixtures/reports/xsd/<report_type in lower case>.xsd. */
export function xsdOf(reportType: string): string {
  const file = join(XSD_DIR, `${reportType.toLowerCase()}.xsd`);
  if (!existsSync(file)) throw new Error(`no schema for ${reportType}: ${file}`);
  return file;
}

/** xmllint's complaints about the file, or undefined when it validates. */
export function xsdProblems(xml: string, reportType: string): string | undefined {
  try {
    execFileSync('xmllint', ['--noout', '--schema', xsdOf(reportType), '-'], { input: xml, stdio: 'pipe' });
    return undefined;
  } catch (err) {
    const e = err as { status?: number; stderr?: Buffer; code?: string };
    if (e.code === 'ENOENT') throw new Error('xmllint is not installed: apt-get install -y libxml2-utils');
    return e.stderr?.toString() ?? String(err);
  }
}
