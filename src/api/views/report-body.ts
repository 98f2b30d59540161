// A report's answer carries a link per format it offers: the one place that builds it, for the report
// routes and the injection route that answers with the report it made.
import { REPORT_FORMATS } from '../../sim/reports/catalogue.ts';
import { type Report, reportPath } from '../../sim/reports/report-types.ts';

/** GET body of a report: links.self and one links.<format> per offered format (objects with href). */
export function reportBody(report: Report) {
  const href = reportPath(report.id);
  const links: Record<string, { href: string; meta?: { 'content-type': string } }> = { self: { href } };
  for (const f of report.attributes.formats) links[f] = { href, meta: { 'content-type': REPORT_FORMATS[f] } };
  return { data: report, links };
}
