// A divergence: a check where the target answered differently from what the scenario expected.
// Steps record one with the case it is about, the expected and the actual answer; it travels as an
// attachment of its own media type, so the run report (run-report.ts) finds it in every scenario,
// whichever worker ran it, and the HTML report shows it under its step.
import { isDeepStrictEqual } from 'node:util';
import type { World } from '@cucumber/cucumber';

export const DIVERGENCE_MEDIA_TYPE = 'application/vnd.scheme-sim.divergence+json';

export interface Divergence {
  /** What was checked: a corpus case id, a report and format, a claim rule… */
  case: string;
  expected: unknown;
  actual: unknown;
}

/** Records that the target answered `actual` where the scenario expected `expected`. */
export async function recordDivergence(world: Pick<World, 'attach'>, divergence: Divergence): Promise<void> {
  await world.attach(JSON.stringify(divergence), { mediaType: DIVERGENCE_MEDIA_TYPE, fileName: 'divergence' });
}

/** The message of a divergence: the case, then expected and actual as JSON. */
export function describeDivergence(d: Divergence): string {
  return `${d.case}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.actual)}`;
}

/**
 * Compares deeply; when the target's answer differs, records the divergence and fails the step
 * with a message naming the case, the expected and the actual answer (and `why`, when given).
 */
export async function expectSame(
  world: Pick<World, 'attach'>,
  kase: string,
  expected: unknown,
  actual: unknown,
  why?: string,
): Promise<void> {
  if (isDeepStrictEqual(actual, expected)) return;
  const divergence = { case: kase, expected, actual };
  await recordDivergence(world, divergence);
  throw new Error(`divergence: ${describeDivergence(divergence)}${why ? ` (${why})` : ''}`);
}
