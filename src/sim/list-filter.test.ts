import { describe, expect, it } from 'vitest';
import { type FilterField, filterPredicate } from './list-filter.ts';

interface Row {
  at: string;
  names: string[];
}
const fields: Record<string, FilterField<Row>> = {
  from: { value: (r) => r.at, compare: 'instant_from' },
  to: { value: (r) => r.at, compare: 'instant_to' },
  name: { value: (r) => r.names, compare: 'exact' },
};
const rows: Row[] = [
  { at: '2026-12-21T09:00:00.000Z', names: ['Jon', 'Smith'] },
  { at: '2026-12-21T23:59:59.999Z', names: ['Ann'] },
  { at: '2026-12-22T00:00:00.000Z', names: [] },
];
const which = (filter: Record<string, string | string[]>) =>
  rows.flatMap((r, i) => (filterPredicate(filter, fields)(r) ? [i] : []));

describe('list filters', () => {
  it('instant bounds are inclusive; a bare date as the upper bound takes the whole day', () => {
    expect(which({ from: '2026-12-21T09:00:00.000Z' })).toEqual([0, 1, 2]);
    expect(which({ from: '2026-12-21T09:00:00.001Z' })).toEqual([1, 2]);
    expect(which({ to: '2026-12-21T09:00:00Z' })).toEqual([0]);
    expect(which({ to: '2026-12-21' })).toEqual([0, 1]);
    expect(which({ from: '2026-12-22' })).toEqual([2]);
    expect(() => which({ to: 'soon' })).toThrow(/filter\[to\] must be a date-time/);
  });
  it('a field holding several values matches when one of them is wanted', () => {
    expect(which({ name: 'Smith' })).toEqual([0]);
    expect(which({ name: ['Ann', 'Jon'] })).toEqual([0, 1]);
    expect(which({ name: 'Nobody' })).toEqual([]);
  });
});
