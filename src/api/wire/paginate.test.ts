import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { MAX_PAGE_NUMBER, paginate, parsePage } from './paginate.ts';

const q = (s: string) => new URLSearchParams(s);
const message = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return `${(err as ApiError).status} ${(err as Error).message}`;
  }
  return 'no error';
};

describe('parsePage', () => {
  it('400s a page[number] or page[size] that is no safe integer, instead of linking to Infinity', () => {
    expect(message(() => parsePage(q(`page[number]=${'9'.repeat(400)}`)))).toBe(
      `400 page[number] in query should be less than or equal to ${MAX_PAGE_NUMBER}`,
    );
    expect(message(() => parsePage(q('page[number]=9007199254740993')))).toContain('400 page[number] in query');
    expect(message(() => parsePage(q(`page[size]=${'9'.repeat(400)}`)))).toBe(
      '400 page[size] in query should be less than or equal to 1000',
    );
  });

  it('keeps every link a finite integer at the largest page number and size accepted', () => {
    const page = parsePage(q(`page[number]=${MAX_PAGE_NUMBER}&page[size]=1000`));
    const { data, links } = paginate([1, 2, 3], page, '/v1/x', q(''));
    expect(data).toEqual([]);
    expect(Number.isSafeInteger(MAX_PAGE_NUMBER * 1000 + 1000)).toBe(true);
    expect(JSON.stringify(links)).not.toMatch(/Infinity|NaN|e\+/);
  });

  it('maps only the items of the page', () => {
    const seen: number[] = [];
    const items = Array.from({ length: 250 }, (_, i) => i);
    const { data } = paginate(items, { number: 1, size: 100 }, '/v1/x', q(''), (i) => (seen.push(i), `#${i}`));
    expect(data).toHaveLength(100);
    expect(data[0]).toBe('#100');
    expect(seen).toHaveLength(100);
  });
});

describe('cursor paging, page[after] and page[before]', () => {
  const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
  const q = (s: string) => new URLSearchParams(s);
  const ids = (query: string) => paginate(items, parsePage(q(query)), '/v1/x', q(query)).data.map((i) => i.id);

  it('gives the records after or before a record, up to page[size]', () => {
    expect(ids('page[after]=b&page[size]=2')).toEqual(['c', 'd']);
    expect(ids('page[after]=d&page[size]=2')).toEqual(['e']);
    expect(ids('page[before]=d&page[size]=2')).toEqual(['b', 'c']);
    expect(ids('page[before]=b&page[size]=5')).toEqual(['a']);
  });

  it('links first and last as Form3 does, and refuses what cannot be paged', () => {
    const { links } = paginate(items, parsePage(q('page[after]=a')), '/v1/x', q('page[after]=a'));
    expect(links.first).toBe('/v1/x?page%5Bnumber%5D=first&page%5Bsize%5D=100');
    expect(links.last).toBe('/v1/x?page%5Bnumber%5D=last&page%5Bsize%5D=100');
    expect(() => paginate(items, parsePage(q('page[after]=z')), '/v1/x', q(''))).toThrow(
      'page[after] in query names no record',
    );
    expect(() => parsePage(q('page[after]=a&page[before]=b'))).toThrow('exclude each other');
    expect(() => parsePage(q('page[after]=a&page[number]=1'))).toThrow('page[number] in query excludes');
  });
});
