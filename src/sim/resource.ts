/** The shape shared by every /v1 resource. */
export interface Relationship {
  data: Array<{ id: string; type: string; [key: string]: unknown }>;
}

export interface Resource<A extends object = Record<string, unknown>> {
  id: string;
  type: string;
  version: number;
  organisation_id: string;
  created_on: string;
  modified_on: string;
  attributes: A;
  relationships?: Record<string, Relationship>;
}

/** A reference to a resource inside a relationship. */
export function ref(r: { id: string; type: string }): { id: string; type: string } {
  return { id: r.id, type: r.type };
}

/** A list filter: attribute → one value, or several meaning any of them; undefined entries are ignored. */
export type ListFilter = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The id of the first record a relationship names (`claim` of a submission), or undefined. */
export function relatedId(r: Resource<object>, name: string): string | undefined {
  return r.relationships?.[name]?.data[0]?.id;
}

/**
 * Records whose attributes equal the filter's values: each entry holds one or more values, any of
 * which matches (`filter[status]=a,b`). Compared as strings, as a query string gives them.
 */
export function matchingExactly<T extends object>(
  rows: readonly T[],
  filter: ListFilter,
  get: (row: T, key: string) => unknown = (row, key) => (row as Record<string, unknown>)[key],
): T[] {
  const entries: Array<readonly [string, readonly string[]]> = [];
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) entries.push([k, typeof v === 'string' ? [v] : v]);
  if (entries.length === 0) return [...rows];
  return rows.filter((row) => entries.every(([k, values]) => values.includes(String(get(row, k)))));
}
