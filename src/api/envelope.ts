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
 * A page of a list of /v1 resources, each shown as a GET shows it (related resources in its
 * relationships): the related records of the page are read once for the page, not per item.
 */
export function resourcePage<R extends Resource<object>>(c: Context, paths: ResourcePaths, items: readonly R[]) {
  const answer = page(c, items);
  return { ...answer, data: paths.shown(answer.data) };
}
