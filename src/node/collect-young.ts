// The first requests to a fresh server must not pause for a collection of what start-up left
// behind: two young-generation collections, forced before listening.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Two collections of the young generation, now: start-up leaves tens of megabytes of young objects
 * that live on (fixtures, compiled schemas, the runtime's state), and the first scavenge after
 * listening copied them, a 5–10 ms pause inside the first requests (bench/first-requests.ts). Twice,
 * because a young object is promoted on the second collection it survives. Young collections
 * only: a forced full collection also flushed the warm-up's compiled code, and the first requests
 * ran colder than with none (bench/RESULTS.md, 2026-11-27). Node's `gc` is exposed for this call,
 * in a context of its own.
 */
export function collectYoung(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
  gc({ type: 'minor' });
  gc({ type: 'minor' });
}
