import type { Context } from 'hono';
import type { Resource } from '../sim/resource.ts';
import type { ResourcePaths } from '../sim/resource-paths.ts';
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
  let text = '{"data":[';
  for (let i = 0; i < data.length; i++) text += (i === 0 ? '' : ',') + recordJson(data[i]!, show);
  return c.body(`${text}],"links":${JSON.stringify(links)}}`, 200, { 'content-type': 'application/json' });
}

/** Records' JSON text, by the stored object; started afresh past a bound, so it cannot grow with the store. */
let recordTexts = new WeakMap<object, string>();
let recordTextCount = 0;
const RECORD_TEXTS_BOUND = 20_000;

function recordJson<T extends object>(record: T, show?: (record: T) => object): string {
  let text = recordTexts.get(record);
  if (text === undefined) {
    text = JSON.stringify(show ? show(record) : record);
    if (++recordTextCount > RECORD_TEXTS_BOUND) {
      recordTexts = new WeakMap();
      recordTextCount = 1;
    }
    recordTexts.set(record, text);
  }
  return text;
}

/**
 * A page of a list of /v1 resources, each shown as a GET shows it (related resources in its
 * relationships): the related records of the page are read once for the page, not per item.
 */
export function resourcePage<R extends Resource<object>>(c: Context, paths: ResourcePaths, items: readonly R[]) {
  const answer = page(c, items);
  return { ...answer, data: paths.shown(answer.data) };
}
