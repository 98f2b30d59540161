// How two answers to the same request are compared by `scheme-sim replay`: the status, the media
// type, then the JSON body path by path. What is allowed to differ is normalised first: ids (each
// expected id must stand for the same actual id throughout the run, learned as they come),
// timestamps, links, and masked secrets. Everything else, the error message included, must be equal.
import { isMasked } from './exchange-record.ts';

/** An answer as compared: its status, media type and, when it is JSON, its body (secrets masked). */
export interface Answer {
  status: number;
  /** `application/json`, without parameters; empty when the answer has no body. */
  mediaType: string;
  json?: unknown;
  /** Bytes of the body (a non-JSON body is compared by media type and emptiness only). */
  length: number;
  /** Why there is no answer (status 0): the connection failed or timed out. */
  error?: string;
}

export interface Divergence {
  /** `status`, `media type`, `body`, or a JSON path: `$.data.attributes.iban`. */
  path: string;
  /** What differs: the value, its type, or a key present on one side only. */
  kind: 'status' | 'media type' | 'body' | 'value' | 'type' | 'missing' | 'unexpected' | 'renamed';
  expected: unknown;
  actual: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const DATE_TIMES = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;

export const isId = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
export const isDateTime = (v: unknown): v is string => typeof v === 'string' && DATE_TIME.test(v);

/**
 * Values of one side that stand for values of the other: ids and timestamps a target gave (or a
 * replay chose afresh), one to one. Learned while comparing, used to rewrite later requests.
 */
export class ValueMap {
  private readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, string>();

  get(from: string): string | undefined {
    return this.forward.get(from);
  }

  /** Whether `to` already stands for another value than `from`. */
  takenByOther(from: string, to: string): boolean {
    const owner = this.backward.get(to);
    return owner !== undefined && owner !== from;
  }

  set(from: string, to: string): void {
    this.forward.set(from, to);
    this.backward.set(to, from);
  }

  /** A text with every mapped id in it replaced by what it stands for. */
  rewrite(text: string): string {
    return text.replace(UUIDS, (id) => this.forward.get(id) ?? id);
  }
}

/** A text with ids and timestamps made alike: compared for what it says around them. */
const plain = (text: string) => text.replace(UUIDS, '<id>').replace(DATE_TIMES, '<time>');

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

const keyPath = (path: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** Compares two JSON values; `ids` maps the expected side's ids and times to the actual side's. */
export function compareJson(
  expected: unknown,
  actual: unknown,
  ids: ValueMap,
  path = '$',
  inLinks = false,
): Divergence[] {
  if (isMasked(expected) || isMasked(actual)) return [];
  const [te, ta] = [typeOf(expected), typeOf(actual)];
  if (te !== ta) return [{ path, kind: 'type', expected, actual }];
  if (te === 'array') {
    const [e, a] = [expected as unknown[], actual as unknown[]];
    if ([...e, ...a].every((v) => v === null || typeof v !== 'object')) return compareScalars(e, a, ids, path);
    const out: Divergence[] = [];
    for (let i = 0; i < Math.max(e.length, a.length); i++) {
      const p = `${path}[${i}]`;
      if (i >= a.length) out.push({ path: p, kind: 'missing', expected: e[i], actual: undefined });
      else if (i >= e.length) out.push({ path: p, kind: 'unexpected', expected: undefined, actual: a[i] });
      else out.push(...compareJson(e[i], a[i], ids, p, inLinks));
    }
    return out;
  }
  if (te === 'object') {
    const [e, a] = [expected as Record<string, unknown>, actual as Record<string, unknown>];
    const out: Divergence[] = [];
    const missing = Object.keys(e).filter((k) => !(k in a));
    const unexpected = Object.keys(a).filter((k) => !(k in e));
    // A key gone and another come with the same value is one divergence: the field was renamed.
    for (const gone of [...missing]) {
      const same = unexpected.find((k) => JSON.stringify(a[k]) === JSON.stringify(e[gone]));
      if (same === undefined) continue;
      out.push({ path: keyPath(path, gone), kind: 'renamed', expected: gone, actual: same });
      missing.splice(missing.indexOf(gone), 1);
      unexpected.splice(unexpected.indexOf(same), 1);
    }
    for (const key of [...new Set([...Object.keys(e), ...Object.keys(a)])].sort()) {
      const p = keyPath(path, key);
      if (missing.includes(key)) out.push({ path: p, kind: 'missing', expected: e[key], actual: undefined });
      else if (unexpected.includes(key)) out.push({ path: p, kind: 'unexpected', expected: undefined, actual: a[key] });
      else if (key in e && key in a)
        out.push(...compareJson(e[key], a[key], ids, p, inLinks || key.toLowerCase() === 'links'));
    }
    return out;
  }
  // Links point at the target they came from: a link is a link.
  if (inLinks) return [];
  if (te === 'string') return compareText(expected as string, actual as string, ids, path);
  return expected === actual ? [] : [{ path, kind: 'value', expected, actual }];
}

/**
 * A list of plain values (formats, names): a value gone or come is named by itself, not as every
 * later position shifting; the same values in another order is one divergence of the list.
 */
function compareScalars(e: unknown[], a: unknown[], ids: ValueMap, path: string): Divergence[] {
  if (e.length === a.length && e.every((v, i) => compareJson(v, a[i], ids, path).length === 0)) return [];
  const left = [...a];
  const out: Divergence[] = [];
  e.forEach((v, i) => {
    const at = left.findIndex((w) => w !== undefined && compareJson(v, w, new ValueMap(), path).length === 0);
    if (at === -1) out.push({ path: `${path}[${i}]`, kind: 'missing', expected: v, actual: undefined });
    else left[at] = undefined;
  });
  left.forEach((w, i) => {
    if (w !== undefined) out.push({ path: `${path}[${i}]`, kind: 'unexpected', expected: undefined, actual: w });
  });
  return out.length > 0 ? out : [{ path, kind: 'value', expected: e, actual: a }];
}

function compareText(expected: string, actual: string, ids: ValueMap, path: string): Divergence[] {
  const diverges: Divergence[] = [{ path, kind: 'value', expected, actual }];
  if (isId(expected) && isId(actual)) {
    const known = ids.get(expected);
    if (known !== undefined) return known === actual ? [] : diverges;
    if (ids.takenByOther(expected, actual)) return diverges;
    ids.set(expected, actual);
    return [];
  }
  if (isDateTime(expected) && isDateTime(actual)) {
    ids.set(expected, actual);
    return [];
  }
  return plain(ids.rewrite(expected)) === plain(actual) ? [] : diverges;
}

/**
 * The divergences of `actual` from `expected`. A different status is one divergence (the body of
 * another status would only repeat it), as is a different media type; a JSON body is compared path
 * by path, any other body by whether it is empty.
 */
export function compareAnswers(expected: Answer, actual: Answer, ids: ValueMap): Divergence[] {
  if (expected.status !== actual.status) {
    const said = actual.error ? `(no answer: ${actual.error})` : errorOf(actual.json);
    return [
      {
        path: 'status',
        kind: 'status',
        expected: expected.status,
        actual: said ? `${actual.status} ${said}` : actual.status,
      },
    ];
  }
  if (expected.mediaType !== actual.mediaType)
    return [{ path: 'media type', kind: 'media type', expected: expected.mediaType, actual: actual.mediaType }];
  if (expected.json !== undefined || actual.json !== undefined) return compareJson(expected.json, actual.json, ids);
  if ((expected.length === 0) !== (actual.length === 0))
    return [{ path: 'body', kind: 'body', expected: `${expected.length} bytes`, actual: `${actual.length} bytes` }];
  return [];
}

/** The error an answer states: Form3's `error_message`, or Open Banking's `Message` and first error code. */
function errorOf(json: unknown): string | undefined {
  if (json === null || typeof json !== 'object') return undefined;
  const body = json as { error_message?: unknown; Message?: unknown; Errors?: Array<{ ErrorCode?: unknown }> };
  if (typeof body.error_message === 'string') return `(${body.error_message.split('\n').at(-1)})`;
  if (typeof body.Message === 'string') return `(${body.Errors?.[0]?.ErrorCode ?? body.Message})`;
  return undefined;
}
