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
