// The HTTP face of scheme reports: a client finds a report, then downloads it in the format its
// Accept header asks for.
import type { Context } from 'hono';
import { REPORT_FORMATS, type ReportFormat } from '../../sim/reports/catalogue.ts';
import { REPORT_FILTERS } from '../../sim/reports/report-filter.ts';
import type { Report } from '../../sim/reports/report-types.ts';
import type { Reports } from '../../sim/reports/reports.ts';
import { JSON_MEDIA_TYPES } from '../body/body.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { reportBody } from '../views/report-body.ts';
import { queryOf, resourcePage } from '../wire/envelope.ts';
import { ApiError } from '../wire/errors.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId } from '../wire/ids.ts';
import { negotiate } from '../wire/negotiate.ts';

const FORMAT_OF = Object.fromEntries(Object.entries(REPORT_FORMATS).map(([f, t]) => [t, f as ReportFormat])) as Record<
  string,
  ReportFormat
>;
const EXTENSION: Record<ReportFormat, string> = { pdf: 'pdf', xml: 'xml', zipped_xhtml: 'zip' };

function notAcceptable(c: Context, report: Report, files: boolean): never {
  const offered = report.attributes.formats.map((f) => REPORT_FORMATS[f]);
  const accept = c.req.header('accept') ?? '';
  throw new ApiError(
    406,
    `Accept ${accept} is not offered for report ${report.id}; acceptable: ${[...(files ? [] : JSON_MEDIA_TYPES), ...offered].join(', ')}`,
  );
}

async function sendFile(c: Context<AppEnv>, reports: Reports, report: Report, format: ReportFormat): Promise<Response> {
  const file = await reports.file(report.id, c.get('organisationId'), format);
  const name = `${report.attributes.report_type.toLowerCase()}-${report.attributes.processing_date ?? report.id}.${EXTENSION[format]}`;
  return c.body(file.bytes as never, 200, {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${name}"`,
    vary: 'Accept',
  });
}

/** /v1/notification/reports: list, fetch (JSON or a file by Accept), the file at /content, admissions. */
export function reportRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/notification/reports', 'Reports');
  const reports = sim.reports;

  r.get('/', { summary: 'List reports', answer: 'report-list', filters: REPORT_FILTERS }, (c) => {
    const filter = parseFilters(queryOf(c), REPORT_FILTERS);
    return c.json(resourcePage(c, sim.paths, reports.list(c.get('organisationId'), filter)));
  });

  r.get(
    '/:id',
    { summary: 'Fetch a report, or its file by Accept (PDF, XML, zipped XHTML)', answer: 'report-single' },
    async (c) => {
      const report = reports.get(parseId(c.req.param('id')), c.get('organisationId'));
      const offered = report.attributes.formats.map((f) => REPORT_FORMATS[f]);
      const chosen = negotiate(c.req.header('accept'), [...JSON_MEDIA_TYPES, ...offered]);
      if (!chosen) notAcceptable(c, report, false);
      if (JSON_MEDIA_TYPES.includes(chosen)) return c.json(reportBody(sim.paths.show(report)), 200, { vary: 'Accept' });
      return sendFile(c, reports, report, FORMAT_OF[chosen]!);
    },
  );

  r.get(
    '/:id/content',
    { summary: "A report's file, by Accept (PDF, XML, zipped XHTML)", answer: 'binary' },
    async (c) => {
      const report = reports.get(parseId(c.req.param('id')), c.get('organisationId'));
      const chosen = negotiate(
        c.req.header('accept'),
        report.attributes.formats.map((f) => REPORT_FORMATS[f]),
      );
      if (!chosen) notAcceptable(c, report, true);
      return sendFile(c, reports, report, FORMAT_OF[chosen]!);
    },
  );

  r.get(
    '/:id/admissions/:admission_id',
    { summary: 'Fetch a report admission', answer: 'report-admission-single' },
    (c) => {
      const admission = reports.admission(
        parseId(c.req.param('id')),
        parseId(c.req.param('admission_id'), 'admission_id'),
        c.get('organisationId'),
      );
      return c.json(sim.paths.bodyOf(admission));
    },
  );

  return r;
}
