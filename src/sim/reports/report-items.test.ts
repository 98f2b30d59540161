import { describe, expect, it } from 'vitest';
import { field, itemsProblem, readRow } from './report-items.ts';

const kind = {
  fields: [
    field.bacsText('Reference'),
    field.sortCode('SortCode'),
    field.amount('Amount'),
    field.oneOf(['01', '17'])('Code'),
  ],
  minRows: 1,
};

describe('items a client gives', () => {
  it('are refused in go-swagger words naming the row, the field and the rule', () => {
    expect(itemsProblem('BACS_X', kind, [])).toBe('rows in body should have at least 1 items for BACS_X');
    expect(itemsProblem('BACS_X', kind, [{ Reference: 'A' }, { Nope: 1 }])).toBe(
      'rows.1.Nope in body is not a field of BACS_X rows; fields: Reference, SortCode, Amount, Code',
    );
    expect(itemsProblem('BACS_X', kind, [{ SortCode: '1234567' }])).toMatch(/^rows.0.SortCode in body should match/);
    expect(itemsProblem('BACS_X', kind, [{ Amount: '0.00' }])).toMatch(
      /^rows.0.Amount in body should be a positive amount/,
    );
    expect(itemsProblem('BACS_X', kind, [{ Amount: 12.345 }])).toMatch(/^rows.0.Amount/);
    expect(itemsProblem('BACS_X', kind, [{ Code: '99' }])).toBe('rows.0.Code in body should be one of [01 17]');
    expect(itemsProblem('BACS_X', kind, [{ Reference: '££' }])).toMatch(
      /^rows.0.Reference in body should hold letters/,
    );
    expect(
      itemsProblem('BACS_X', kind, [{ Reference: null, SortCode: '12-34-56', Amount: 7, Code: '17' }]),
    ).toBeUndefined();
  });

  it('are read as the scheme writes them', () => {
    expect(
      readRow(kind.fields, { Reference: "o'neil ref", SortCode: '12-34-56', Amount: 7.5, Code: '17', Other: 'x' }),
    ).toEqual({
      Reference: 'ONEIL REF',
      SortCode: '123456',
      Amount: '7.50',
      Code: '17',
    });
  });

  it("keep the simulation's own values even where they break a rule, so a report never hides them", () => {
    expect(readRow(kind.fields, { SortCode: '1234567' })).toEqual({ SortCode: '1234567' });
  });
});
