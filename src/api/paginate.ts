import { ApiError } from './errors.ts';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
/** The largest page[number]: every index and link of a page stays a safe integer. */
export const MAX_PAGE_NUMBER = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE) - 1;

export interface PageRequest {
  /** 0-based page, or first/last. */
  number: number | 'first' | 'last';
  size: number;
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
  return { number, size };
}

/** Builds a relative, URL-encoded link to a page, keeping every other query parameter. */
function pageLink(path: string, query: URLSearchParams, number: number, size: number): string {
  const q = new URLSearchParams();
  for (const [k, v] of query) if (k !== 'page[number]' && k !== 'page[size]') q.append(k, v);
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
  const n = page.number === 'first' ? 0 : page.number === 'last' ? lastIndex : page.number;
  const slice = items.slice(n * page.size, (n + 1) * page.size);
  const data = view ? slice.map(view) : (slice as unknown as U[]);
  const links: ListLinks = {
    self: pageLink(path, query, n, page.size),
    first: pageLink(path, query, 0, page.size),
    last: pageLink(path, query, lastIndex, page.size),
  };
  if (n > 0) links.prev = pageLink(path, query, Math.min(n - 1, lastIndex), page.size);
  if (n < lastIndex) links.next = pageLink(path, query, n + 1, page.size);
  return { data, links };
}
