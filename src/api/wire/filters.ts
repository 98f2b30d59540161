// The `filter[...]` query of every /v1 list read one way, so a misspelt filter is a 400 rather than
// a silently unfiltered list.
import { ApiError } from './errors.ts';

/**
 * Reads `filter[<name>]` parameters. Nothing that looks like a filter is silently ignored (which
 * would return the whole list): an unknown filter, one that names no attribute (`filter[]`,
 * `filter`) and one given twice are each a 400 naming the parameter.
 */
export function parseFilters<K extends string>(
  query: URLSearchParams,
  allowed: readonly K[],
): Partial<Record<K, string>>;
/**
 * With `anyOf`, a value with commas is a list, any of which matches: Form3's swagger declares the
 * account filters as csv arrays (go-form3 joins them with commas).
 */
export function parseFilters<K extends string>(
  query: URLSearchParams,
  allowed: readonly K[],
  options: { anyOf: true },
): Partial<Record<K, string | string[]>>;
export function parseFilters<K extends string>(
  query: URLSearchParams,
  allowed: readonly K[],
  options: { anyOf?: boolean } = {},
): Partial<Record<K, string | string[]>> {
  const out: Partial<Record<K, string | string[]>> = {};
  const supported = () => `supported: ${allowed.map((a) => `filter[${a}]`).join(', ')}`;
  for (const [key, value] of query) {
    if (key !== 'filter' && !key.startsWith('filter[')) continue;
    const m = /^filter\[(.+)\]$/.exec(key);
    if (!m)
      throw new ApiError(
        400,
        `${key} in query names no attribute; filters take the form filter[<attribute>]; ${supported()}`,
      );
    const name = m[1] as K;
    if (!allowed.includes(name)) throw new ApiError(400, `filter[${name}] is not a supported filter; ${supported()}`);
    if (out[name] !== undefined) throw new ApiError(400, `filter[${name}] in query must be given once`);
    out[name] = options.anyOf && value.includes(',') ? value.split(',') : value;
  }
  return out;
}
