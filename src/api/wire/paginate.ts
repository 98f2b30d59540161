// Paging of every /v1 list as Form3 pages them (page[number], page[size], cursors): the one reader of
// the paging query and maker of the first, last, prev and next links.
import { ApiError } from './errors.ts';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
/** The largest page[number]: every index and link of a page stays a safe integer. */
export const MAX_PAGE_NUMBER = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE) - 1;

export interface PageRequest {
  /** 0-based page, or first/last. */
  number: number | 'first' | 'last';
  size: number;
  /** Cursor paging (Form3's page[after] / page[before]): the records after or before this id. */
  after?: string;
  before?: string;
}

export interface ListLinks {
  self: string;
  first: string;
  last: string;
  prev?: string;
  next?: string;
}

/** Reads page[number] and page[size] from a query; 400 naming the parameter when either is bad. */
export function parsePage(query: URLSearchParams): PageRequest {
  const rawNumber = query.get('page[number]');
  const rawSize = query.get('page[size]');
  let size = DEFAULT_PAGE_SIZE;
  if (rawSize !== null) {
    if (!/^\d+$/.test(rawSize)) throw new ApiError(400, 'page[size] in query must be an integer');
    size = Number(rawSize);
    if (!Number.isSafeInteger(size))
      throw new ApiError(400, `page[size] in query should be less than or equal to ${MAX_PAGE_SIZE}`);
    if (size < 1) throw new ApiError(400, 'page[size] in query should be greater than or equal to 1');
    if (size > MAX_PAGE_SIZE)
      throw new ApiError(400, `page[size] in query should be less than or equal to ${MAX_PAGE_SIZE}`);
  }
  let number: PageRequest['number'] = 0;
  if (rawNumber !== null) {
    if (rawNumber === 'first' || rawNumber === 'last') number = rawNumber;
    else if (/^\d+$/.test(rawNumber)) {
      number = Number(rawNumber);
      if (!Number.isSafeInteger(number) || number > MAX_PAGE_NUMBER) {
        throw new ApiError(400, `page[number] in query should be less than or equal to ${MAX_PAGE_NUMBER}`);
      }
    } else throw new ApiError(400, "page[number] in query must be a non-negative integer, 'first' or 'last'");
  }
  const after = query.get('page[after]') ?? undefined;
  const before = query.get('page[before]') ?? undefined;
  if (after !== undefined && before !== undefined)
    throw new ApiError(400, 'page[after] and page[before] in query exclude each other');
  if ((after !== undefined || before !== undefined) && rawNumber !== null)
    throw new ApiError(400, 'page[number] in query excludes page[after] and page[before]');
  return { number, size, ...(after !== undefined ? { after } : {}), ...(before !== undefined ? { before } : {}) };
}

/** Builds a relative, URL-encoded link to a page, keeping every other query parameter. */
function pageLink(path: string, query: URLSearchParams, number: number | 'first' | 'last', size: number): string {
  const q = new URLSearchParams();
  for (const [k, v] of query) if (!k.startsWith('page[')) q.append(k, v);
  q.set('page[number]', String(number));
  q.set('page[size]', String(size));
  return `${path}?${q.toString()}`;
}

/**
 * Slices one page out of `items` and links to its neighbours; `next` is absent on the last page.
 * `view` shapes only the items of the page (never the whole list).
 */
export function paginate<T, U = T>(
  items: readonly T[],
  page: PageRequest,
  path: string,
  query: URLSearchParams,
  view?: (item: T) => U,
): { data: U[]; links: ListLinks } {
  const lastIndex = Math.max(0, Math.ceil(items.length / page.size) - 1);
  // As Form3 (and its fake account API) link them: page[number]=first and page[number]=last.
  const first = pageLink(path, query, 'first', page.size);
  const last = pageLink(path, query, 'last', page.size);
  if (page.after !== undefined || page.before !== undefined) {
    const cursor = (page.after ?? page.before)!;
    const at = items.findIndex((item) => (item as { id?: unknown }).id === cursor);
    if (at < 0)
      throw new ApiError(
        400,
        `page[${page.after !== undefined ? 'after' : 'before'}] in query names no record of this list: ${cursor}`,
      );
    const slice =
      page.after !== undefined ? items.slice(at + 1, at + 1 + page.size) : items.slice(Math.max(0, at - page.size), at);
    const self = `${path}?${new URLSearchParams([...query].filter(([k]) => k !== 'page[size]').concat([['page[size]', String(page.size)]])).toString()}`;
    return { data: view ? slice.map(view) : (slice as unknown as U[]), links: { self, first, last } };
  }
  const n = page.number === 'first' ? 0 : page.number === 'last' ? lastIndex : page.number;
  const slice = items.slice(n * page.size, (n + 1) * page.size);
  const data = view ? slice.map(view) : (slice as unknown as U[]);
  const links: ListLinks = { self: pageLink(path, query, n, page.size), first, last };
  if (n > 0) links.prev = pageLink(path, query, Math.min(n - 1, lastIndex), page.size);
  if (n < lastIndex) links.next = pageLink(path, query, n + 1, page.size);
  return { data, links };
}
