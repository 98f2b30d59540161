// The `{data, links}` envelope a /v1 list answers with: a page read from the query, its records'
// JSON made once while they are stored.
import type { Context } from 'hono';
import type { Resource } from '../../sim/resource.ts';
import type { ResourcePaths } from '../../sim/resource-paths.ts';
import { paginate, parsePage } from './paginate.ts';

/** The query of the request as URLSearchParams. */
export function queryOf(c: Context): URLSearchParams {
  return new URL(c.req.url).searchParams;
}

/**
 * `{data: [...], links}` for a page of a list, with paging read from the request; `view` shapes
 * the items of the page only, so a long list is sliced before anything is mapped.
 */
export function page<T, U = T>(c: Context, items: readonly T[], view?: (item: T) => U) {
  const query = queryOf(c);
  return paginate(items, parsePage(query), c.req.path, query, view);
}

/**
 * The answer of `page(c, items)` as JSON text, each record's JSON made once: stored records are
 * never changed in place (a change stores a new object), so a record's text is its text for as
 * long as it is stored. Listing is mostly serialising (a 100-account page is ~37 KB), and a list
 * read again serialises only the records that changed. The same text as JSON.stringify of the page.
 * `show` (how answers show a stored record, e.g. only the fake account API's attributes) must
 * depend on the record alone, as one simulator shows a record: its text is kept by the stored record.
 */
export function pageJson<T extends object>(c: Context, items: readonly T[], show?: (record: T) => object): Response {
  const { data, links } = page(c, items);
  const linksText = JSON.stringify(links);
  const answer = pageText(data, linksText, show);
  // The journal keeps how to make the text again, not the text: the page's records are kept alive
  // by the store anyway, while ~37 KB of text per list held by the journal's ring costs the
  // garbage collector more than the serialising (issue 30).
  const res = c.body(answer.text, 200, { 'content-type': 'application/json', 'content-length': String(answer.bytes) });
  c.set('answerText', { answer: res, text: () => pageText(data, linksText, show).text });
  return res;
}

/** A page's JSON text and its length in UTF-8 bytes (Node then need not scan the text for it). */
function pageText<T extends object>(
  data: readonly T[],
  linksText: string,
  show: ((record: T) => object) | undefined,
): { text: string; bytes: number } {
  let text = '{"data":[';
  let bytes = 0;
  for (let i = 0; i < data.length; i++) {
    const record = recordJson(data[i]!, show);
    text += (i === 0 ? '' : ',') + record.text;
    bytes += record.bytes;
  }
  text += `],"links":${linksText}}`;
  // The commas and brackets are ASCII; the links are measured.
  return { text, bytes: bytes + Math.max(0, data.length - 1) + 9 + 10 + Buffer.byteLength(linksText) + 1 };
}

/** Records' JSON text and its UTF-8 length, by the stored object; started afresh past a bound, so it cannot grow with the store. */
let recordTexts = new WeakMap<object, RecordText>();
let recordTextCount = 0;
const RECORD_TEXTS_BOUND = 20_000;

interface RecordText {
  text: string;
  bytes: number;
}

function recordJson<T extends object>(record: T, show?: (record: T) => object): RecordText {
  let known = recordTexts.get(record);
  if (known === undefined) {
    const text = JSON.stringify(show ? show(record) : record);
    known = { text, bytes: Buffer.byteLength(text) };
    if (++recordTextCount > RECORD_TEXTS_BOUND) {
      recordTexts = new WeakMap();
      recordTextCount = 1;
    }
    recordTexts.set(record, known);
  }
  return known;
}

/**
 * A page of a list of /v1 resources, each shown as a GET shows it (related resources in its
 * relationships): the related records of the page are read once for the page, not per item.
 */
export function resourcePage<R extends Resource<object>>(c: Context, paths: ResourcePaths, items: readonly R[]) {
  const answer = page(c, items);
  return { ...answer, data: paths.shown(answer.data) };
}
