// The report scenarios: a report's admission fails now, or a report of the catalogue arrives now
// (optionally with a failed admission). Both emit the events the reports flow emits.
import { invalid } from '../errors.ts';
import { ref, relatedId } from '../resource.ts';
import { namingScenario, type Scenarios } from '../scenarios/scenarios.ts';
import type { Reports } from './reports.ts';

export const DEFAULT_ADMISSION_FAILURE = { scheme_status_code: 'F001', reason: 'the report could not be admitted' };

export function registerReportScenarios(scenarios: Scenarios, reports: Reports): void {
  scenarios.register('report_admission.failed', {
    target(id, organisationId) {
      const report = reports.get(id, organisationId);
      const admission = reports.admissions.find(relatedId(report, 'report_admission') ?? '');
      if (admission?.attributes.status === 'failed')
        throw invalid(`report ${id} cannot fail its admission: admission ${admission.id} has already failed`);
      return ref(report);
    },
    now(scenario) {
      const reportId = relatedId(scenario, 'target')!;
      const report = reports.get(reportId, scenario.organisation_id);
      const admissionId = relatedId(report, 'report_admission')!;
      const p = scenario.attributes.parameters;
      const code = String(p.scheme_status_code ?? DEFAULT_ADMISSION_FAILURE.scheme_status_code);
      const reason = String(p.reason ?? DEFAULT_ADMISSION_FAILURE.reason);
      reports.admissions.update(admissionId, undefined, (a) =>
        namingScenario(
          {
            ...a,
            attributes: {
              ...a.attributes,
              status: 'failed',
              scheme_status_code: code,
              scheme_status_code_description: reason,
            },
          },
          scenario,
        ),
      );
      return `admission ${admissionId} of report ${reportId} failed: ${code} ${reason}`;
    },
  });

  scenarios.register('report.emitted', {
    now(scenario) {
      const p = scenario.attributes.parameters as {
        report_type: string;
        processing_date?: string;
        admission_status?: string;
      };
      const failed = p.admission_status === 'failed';
      const { report, admission } = reports.inject({
        organisation_id: scenario.organisation_id,
        report_type: p.report_type,
        ...(p.processing_date !== undefined ? { processing_date: p.processing_date } : {}),
        ...(failed
          ? {
              admission: {
                status: 'failed',
                scheme_status_code: DEFAULT_ADMISSION_FAILURE.scheme_status_code,
                scheme_status_code_description: DEFAULT_ADMISSION_FAILURE.reason,
              },
            }
          : {}),
      });
      return `report ${report.id} (${p.report_type}) arrived with admission ${admission.id} ${failed ? 'failed' : 'delivery_confirmed'}`;
    },
  });
}
