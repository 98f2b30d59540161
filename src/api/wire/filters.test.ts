import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { parseFilters } from './filters.ts';

const parse = (q: string) => parseFilters(new URLSearchParams(q), ['country', 'bank_id'] as const);
function refusal(q: string): { status: number; message: string } | undefined {
  try {
    parse(q);
    return undefined;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, message: err.message };
  }
}

describe('parseFilters', () => {
  it('reads the supported filters and leaves other parameters alone', () => {
    expect(parse('filter[country]=GB&filter[bank_id]=400300&page[size]=2')).toEqual({
      country: 'GB',
      bank_id: '400300',
    });
    expect(parse('filter[country]=')).toEqual({ country: '' });
  });

  it('refuses an unknown filter, listing the supported ones', () => {
    expect(refusal('filter[colour]=red')).toEqual({
      status: 400,
      message: 'filter[colour] is not a supported filter; supported: filter[country], filter[bank_id]',
    });
  });

  it('refuses a filter that names no attribute (filter[]=1, filter=1) instead of ignoring it', () => {
    expect(refusal('filter[]=1')).toEqual({
      status: 400,
      message:
        'filter[] in query names no attribute; filters take the form filter[<attribute>]; supported: filter[country], filter[bank_id]',
    });
    expect(refusal('filter=1')?.message).toMatch(/^filter in query names no attribute/);
    expect(refusal('filter[country=GB')?.message).toMatch(/^filter\[country in query names no attribute/);
  });

  it('refuses a filter given twice instead of using the last', () => {
    expect(refusal('filter[country]=GB&filter[country]=FR')).toEqual({
      status: 400,
      message: 'filter[country] in query must be given once',
    });
    expect(refusal('filter[country]=GB&filter[country]=GB')?.status).toBe(400);
  });
});

describe('parseFilters with anyOf', () => {
  it('reads a value with commas as a list, any of which matches, as Form3’s csv array filters', () => {
    const q = new URLSearchParams('filter[country]=GB,FR&filter[bank_id]=400300');
    expect(parseFilters(q, ['country', 'bank_id'] as const, { anyOf: true })).toEqual({
      country: ['GB', 'FR'],
      bank_id: '400300',
    });
    expect(parseFilters(q, ['country', 'bank_id'] as const)).toEqual({ country: 'GB,FR', bank_id: '400300' });
  });
});
