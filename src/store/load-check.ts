import type { Row } from './collection.ts';
import { StoreError } from './store-error.ts';

/**
 * The rule a stored record breaks, or undefined when it is sound. Meta keys are checked as the
 * records of the collection META_COLLECTION, by key. The store knows no schemas: the runtime
 * passes the check (src/api/stored-records.ts), and every engine runs it before it is used.
 */
export type RecordCheck = (collection: string, id: string, record: unknown) => string | undefined;

export const META_COLLECTION = '$meta';

export interface LoadProblem {
  collection: string;
  id: string;
  rule: string;
}

/** What a store's data holds, engine aside: its meta and its collections of rows by id. */
export interface StoreContent {
  meta: Record<string, unknown>;
  collections: Record<string, Map<string, Row | unknown> | Record<string, Row | unknown>>;
}

/** Every problem of the content (or the first `limit`), and how many there are in all. */
export function loadProblems(
  content: StoreContent,
  check: RecordCheck,
  limit = Number.POSITIVE_INFINITY,
): { problems: LoadProblem[]; total: number } {
  const problems: LoadProblem[] = [];
  let total = 0;
  const note = (collection: string, id: string, record: unknown) => {
    let rule: string | undefined;
    try {
      rule = check(collection, id, record);
    } catch (err) {
      rule = `cannot be checked: ${(err as Error).message}`;
    }
    if (rule === undefined) return;
    total++;
    if (problems.length < limit) problems.push({ collection, id, rule });
  };
  for (const [key, value] of Object.entries(content.meta)) note(META_COLLECTION, key, value);
  for (const [name, rows] of Object.entries(content.collections)) {
    for (const [id, record] of rows instanceof Map ? rows : Object.entries(rows)) note(name, id, record);
  }
  return { problems, total };
}

/** `accounts 5f0c…: attributes.bank_id must match …` or `meta clock: …`. */
export function describeProblem(p: LoadProblem): string {
  return p.collection === META_COLLECTION ? `meta ${p.id}: ${p.rule}` : `${p.collection} ${p.id}: ${p.rule}`;
}

/** How many problems stop start-up with their own line; more are counted. */
export const LOAD_PROBLEMS_SHOWN = 10;

/**
 * The error that stops a store from opening: one line per problem (the first ten), each naming the
 * data's location, the collection and the record; the last line says nothing was written and what
 * lists or fixes them all. A single problem is a single line.
 */
export function loadCheckError(location: string, problems: LoadProblem[], total: number): StoreError {
  const lines = problems.map((p) => `${location}: ${describeProblem(p)}`);
  if (total > problems.length) lines.push(`${location}: and ${total - problems.length} more`);
  const hint = `nothing was written; \`scheme-sim doctor --data ${location}\` lists every problem, --fix drops the records`;
  lines[lines.length - 1] += ` (${hint})`;
  return new StoreError(lines.join('\n'));
}

/** Runs the check over the content and throws the load-check error when anything fails. */
export function assertLoadable(location: string, content: StoreContent, check: RecordCheck | undefined): void {
  if (!check) return;
  const { problems, total } = loadProblems(content, check, LOAD_PROBLEMS_SHOWN);
  if (total > 0) throw loadCheckError(location, problems, total);
}
