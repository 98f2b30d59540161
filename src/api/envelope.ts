import type { Context } from 'hono';
import { recordBody, type Resource } from '../sim/resource.ts';
import { paginate, parsePage } from './paginate.ts';

/** `{data, links: {self}}` of one resource. */
export function one<R extends Resource<object>>(r: R) {
  return recordBody(r);
}

/** The query of the request as URLSearchParams. */
export function queryOf(c: Context): URLSearchParams {
  return new URL(c.req.url).searchParams;
}

/** `{data: [...], links}` for a page of a list, with paging read from the request. */
export function page<T>(c: Context, items: T[]) {
  const query = queryOf(c);
  return paginate(items, parsePage(query), c.req.path, query);
}
