// Test data: a simulator that diverges from the double in planted ways, each a setting applied to
// this process's runtime before it listens (never a production flag), for the replay and
// differential tests to find and name.
import { SchemeClock } from '../../src/clock/scheme-clock.ts';
import { listen, type RunningServer } from '../../src/node/server.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';

/** The instant the README's tour starts its simulator at (`--clock frozen --clock-start`). */
export const TOUR_START = '2026-12-21T09:00:00Z';

export interface Plantings {
  /** A report type's catalogue entry without this format (its reports then do not offer it). */
  removeReportFormat?: { report_type: string; format: string };
  /** The Jaro-Winkler similarity a typo must reach (the double's: 0.85, so Holdre, 0.967, is a typo of Holder). */
  typoMinJaroWinkler?: number;
  /** An attribute renamed in every claim submission answer: `settlement_date` → `to`. */
  renameSubmissionAttribute?: { from: string; to: string };
}

/** The README's three planted divergences at once. */
export const ALL_PLANTINGS: Plantings = {
  removeReportFormat: { report_type: 'BACS_DDIC_CLAIM_SUBMISSION', format: 'pdf' },
  typoMinJaroWinkler: 0.97,
  renameSubmissionAttribute: { from: 'settlement_date', to: 'settlement_day' },
};

/** Renames an attribute in the JSON answers of claim submissions, as a target that renamed it would. */
function renameInSubmissions(runtime: Runtime, from: string, to: string): void {
  const fetch = runtime.app.fetch;
  runtime.app.fetch = async (request: Request, ...rest: unknown[]) => {
    const res = await (fetch as (r: Request, ...x: unknown[]) => Promise<Response>)(request, ...rest);
    if (!/\/submissions(\/[^/]+)?$/.test(new URL(request.url).pathname)) return res;
    if (!(res.headers.get('content-type') ?? '').includes('json')) return res;
    const body = (await res.json()) as { data?: { attributes?: Record<string, unknown> } };
    const attributes = body.data?.attributes;
    if (attributes && from in attributes) {
      attributes[to] = attributes[from];
      delete attributes[from];
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: res.status, headers });
  };
}

/**
 * A simulator as the README's tour starts it (memory, seed accounts, clock frozen at TOUR_START),
 * with the plantings given applied; none makes it a second, faithful one.
 */
export async function tourSimulator(plantings: Plantings = {}): Promise<RunningServer> {
  const runtime = await createRuntime({
    memory: true,
    clock: SchemeClock.frozenAt(TOUR_START),
    ...(plantings.typoMinJaroWinkler !== undefined
      ? { matchThresholds: { typoMinJaroWinkler: plantings.typoMinJaroWinkler } }
      : {}),
  });
  if (plantings.removeReportFormat) {
    const { report_type, format } = plantings.removeReportFormat;
    const entry = runtime.sim.reports.catalogue.get(report_type) as { formats: string[] };
    entry.formats = entry.formats.filter((f) => f !== format);
  }
  if (plantings.renameSubmissionAttribute) {
    const { from, to } = plantings.renameSubmissionAttribute;
    renameInSubmissions(runtime, from, to);
  }
  return listen(runtime, 0);
}
