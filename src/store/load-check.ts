// A store is checked before it is used, whatever its engine: the problems its records and meta keys
// have, and the error that refuses it naming them.
import { lostSecrets, type SecretSpec } from './issued-secrets.ts';
import type { StoreContent } from './store-data.ts';
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

/**
 * Every problem of the content (or the first `limit`), and how many there are in all: records and
 * meta keys that fail the check, and secrets the store issued but no longer holds.
 */
export function loadProblems(
  content: StoreContent,
  check: RecordCheck,
  limit = Number.POSITIVE_INFINITY,
  secrets: readonly SecretSpec[] = [],
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
  for (const { key, rule } of lostSecrets(content, secrets)) {
    total++;
    if (problems.length < limit) problems.push({ collection: META_COLLECTION, id: key, rule });
  }
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
export function assertLoadable(
  location: string,
  content: StoreContent,
  check: RecordCheck | undefined,
  secrets: readonly SecretSpec[] = [],
): void {
  if (!check && secrets.length === 0) return;
  const { problems, total } = loadProblems(content, check ?? (() => undefined), LOAD_PROBLEMS_SHOWN, secrets);
  if (total > 0) throw loadCheckError(location, problems, total);
}
