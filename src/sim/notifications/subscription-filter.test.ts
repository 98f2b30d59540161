import { describe, expect, it } from 'vitest';
import { filterProblem, parseFilter } from './subscription-filter.ts';

describe('subscription filters', () => {
  it('read path=value conditions joined by and', () => {
    expect(parseFilter('attributes.bank_id=400300')).toEqual([{ path: 'attributes.bank_id', value: '400300' }]);
    expect(parseFilter(' attributes.bank_id = 400300  AND attributes.country=GB ')).toEqual([
      { path: 'attributes.bank_id', value: '400300' },
      { path: 'attributes.country', value: 'GB' },
    ]);
    expect(parseFilter('attributes.name="Smith and Sons"')).toEqual([
      { path: 'attributes.name', value: 'Smith and Sons' },
    ]);
    expect(parseFilter('')).toEqual([]);
  });

  it('name what is wrong with a filter that cannot be read', () => {
    expect(filterProblem('attributes.bank_id')).toMatch(/"attributes.bank_id" is no condition/);
    expect(filterProblem('attributes..x=1')).toMatch(/is no dotted path/);
    expect(filterProblem('a=1 and')).toMatch(/no condition/);
    expect(filterProblem('a="open')).toMatch(/unclosed double quote/);
    expect(filterProblem('a=x"y"')).toMatch(/quote a whole value/);
  });
});
