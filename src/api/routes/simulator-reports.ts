// Reports otherwise arrive on the scheme's own timetable: this route makes one arrive now, so a test
// of a report consumer need not wait for the clock.
import type { Report } from '../../sim/reports/report-types.ts';
import { asCaller } from '../as-caller.ts';
import { assertOwnOrganisation } from '../auth/middleware.ts';
import { readJson } from '../body/body.ts';
import { validateOrThrow } from '../body/validate.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { reportBody } from '../views/report-body.ts';

interface InjectBody {
  report_type: string;
  organisation_id?: string;
  processing_date?: string;
  rows?: Array<Record<string, unknown>>;
}

/** /v1/simulator/reports: a report of the catalogue arrives now (the caller's organisation by default). */
export function simulatorReportRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/simulator/reports', 'Simulator');

  r.post(
    '/',
    {
      summary: 'A report of the catalogue arrives now',
      status: 201,
      body: 'report-inject',
      rules: [
        {
          rule: '`report_type` is one of the report catalogue in use (fixtures/reports, or the one the simulator was started with)',
          answers: [{ status: 400, error: 'report_type <type> is not in the report catalogue; known: <types>' }],
        },
        {
          rule: '`rows` fit the report type: as many as it needs at least, each key one of its fields, each value as that field reads it',
          answers: [
            { status: 400, error: 'rows in body should have at least <n> items for <type>' },
            { status: 400, error: 'rows.<i>.<key> in body is not a field of <type> rows; fields: <list>' },
            { status: 400, error: 'rows.<i>.<key> in body <rule>' },
          ],
        },
      ],
    },
    async (c, answer) => {
      const body = validateOrThrow<InjectBody>('report-inject', await readJson(c));
      const organisationId = c.get('organisationId');
      if (body.organisation_id !== undefined) assertOwnOrganisation(organisationId, body.organisation_id);
      const { report, admission } = asCaller(c, () =>
        sim.reports.inject({
          organisation_id: organisationId,
          report_type: body.report_type,
          ...(body.processing_date !== undefined ? { processing_date: body.processing_date } : {}),
          ...(body.rows !== undefined ? { rows: body.rows } : {}),
        }),
      );
      const [shownReport, shownAdmission] = sim.paths.shown([report, admission]);
      return answer({ ...reportBody(shownReport as Report), included: [shownAdmission] });
    },
  );

  return r;
}
