import { ApiError } from './errors.ts';

/**
 * Reads `filter[<name>]` parameters. An unknown filter is a 400 listing the supported ones, so a
 * typo is not silently ignored (which would return the whole list).
 */
export function parseFilters<K extends string>(query: URLSearchParams, allowed: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [key, value] of query) {
    const m = /^filter\[(.+)\]$/.exec(key);
    if (!m) continue;
    const name = m[1] as K;
    if (!allowed.includes(name)) {
      throw new ApiError(400, `filter[${name}] is not a supported filter; supported: ${allowed.map((a) => `filter[${a}]`).join(', ')}`);
    }
    out[name] = value;
  }
  return out;
}
