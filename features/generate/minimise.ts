// fast-check shrinks a failing case as its arbitraries allow; an invalid case's break is chosen by
// position among the body's breaks, so a smaller body may move it elsewhere. This pass finishes
// the job for a person: it leaves out each part of the body in turn, keeping every removal after
// which the same case still fails, until nothing more can go.
import type { JsonPath } from './schema-violations.ts';

type Json = Record<string, any>;

/** Every place in a value that can be left out: object keys and array items, outermost first. */
export function removablePaths(value: unknown, path: JsonPath = []): JsonPath[] {
  const out: JsonPath[] = [];
  if (Array.isArray(value)) value.forEach((item, i) => out.push([...path, i], ...removablePaths(item, [...path, i])));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push([...path, k], ...removablePaths(v, [...path, k]));
  return out;
}

/** The value without what the path names (a copy). */
export function without(value: unknown, path: JsonPath): unknown {
  const copy = structuredClone(value) as Json;
  let at: any = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  const last = path[path.length - 1]!;
  if (Array.isArray(at)) at.splice(last as number, 1);
  else delete at[last];
  return copy;
}

/**
 * The smallest body found for which `fails` still holds, leaving out one part at a time; a call of
 * `fails` that throws (a body the schema no longer allows) counts as not failing.
 */
export async function minimise<T>(body: T, fails: (candidate: T) => Promise<boolean>): Promise<T> {
  let best = body;
  for (let changed = true; changed; ) {
    changed = false;
    for (const path of removablePaths(best)) {
      const candidate = without(best, path) as T;
      let failed = false;
      try {
        failed = await fails(candidate);
      } catch {
        failed = false;
      }
      if (failed) {
        best = candidate;
        changed = true;
        break;
      }
    }
  }
  return best;
}
