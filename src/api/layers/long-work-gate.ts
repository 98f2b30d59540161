// So a write never lands halfway through an advance or a reset: which requests wait while reads go
// on (decision 014).
import type { LongWork } from '../../sim/long-work.ts';

/** The routes that run long work themselves (they wait for, or refuse, the long work running). */
const LONG_WORK_ROUTES = new Set(['/v1/simulator/clock/advance', '/v1/simulator/reset']);

/**
 * Whether a request waits for the long work running (src/sim/long-work.ts: an advance, a reset)
 * before its handler runs: one that changes state does; reads (GET, HEAD, OPTIONS) go straight on
 * and see the state of the last slice boundary.
 */
export function waitsForLongWork(longWork: LongWork, method: string, path: string): boolean {
  return (
    longWork.running !== undefined &&
    method !== 'GET' &&
    method !== 'HEAD' &&
    method !== 'OPTIONS' &&
    !LONG_WORK_ROUTES.has(path)
  );
}
