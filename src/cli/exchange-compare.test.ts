import { describe, expect, it } from 'vitest';
import { type Answer, compareAnswers, compareJson, ValueMap } from './exchange-compare.ts';

const ID_A = '11111111-1111-4111-8111-111111111111';
const ID_B = '22222222-2222-4222-8222-222222222222';
const ID_C = '33333333-3333-4333-8333-333333333333';
const json = (body: unknown, status = 200): Answer => ({
  status,
  mediaType: 'application/json',
  json: body,
  length: 1,
});

describe('compareJson', () => {
  it('maps an id once, then holds both sides to it', () => {
    const ids = new ValueMap();
    expect(compareJson({ id: ID_A }, { id: ID_B }, ids)).toEqual([]);
    expect(ids.get(ID_A)).toBe(ID_B);
    expect(compareJson({ owner: ID_A }, { owner: ID_B }, ids)).toEqual([]);
    // The same recorded id answered as another record: a divergence.
    expect(compareJson({ owner: ID_A }, { owner: ID_C }, ids)).toEqual([
      { path: '$.owner', kind: 'value', expected: ID_A, actual: ID_C },
    ]);
    // Another recorded id answered as one already taken: a divergence too.
    expect(compareJson({ other: ID_C }, { other: ID_B }, ids)).toEqual([
      { path: '$.other', kind: 'value', expected: ID_C, actual: ID_B },
    ]);
  });

  it('lets timestamps, links and masked secrets differ; compares text around ids and times', () => {
    const ids = new ValueMap();
    ids.set(ID_A, ID_B);
    const expected = {
      created_on: '2026-12-21T09:00:00.000Z',
      links: { self: `/v1/x/${ID_A}` },
      access_token: '<masked token 0123456789abcdef>',
      error_message: `record ${ID_A} does not exist at 2026-12-21T09:00:00Z`,
    };
    const actual = {
      created_on: '2027-01-13T09:00:00.000Z',
      links: { self: 'https://elsewhere/v1/x/y' },
      access_token: '<masked token fedcba9876543210>',
      error_message: `record ${ID_B} does not exist at 2027-01-13T09:00:00Z`,
    };
    expect(compareJson(expected, actual, ids)).toEqual([]);
    expect(
      compareJson({ error_message: `record ${ID_A} is gone` }, { error_message: `record ${ID_B} does not exist` }, ids),
    ).toEqual([
      {
        path: '$.error_message',
        kind: 'value',
        expected: `record ${ID_A} is gone`,
        actual: `record ${ID_B} does not exist`,
      },
    ]);
  });

  it('compares everything else by value and type, and names keys gone, come and renamed', () => {
    const ids = new ValueMap();
    expect(
      compareJson(
        { a: { version: 0, date: '2027-01-13', gone: 1, old: 'x', same: [1, 2] } },
        { a: { version: 1, date: '2027-01-14', come: 2, renamed: 'x', same: '1,2' } },
        ids,
      ),
    ).toEqual([
      { path: '$.a.old', kind: 'renamed', expected: 'old', actual: 'renamed' },
      { path: '$.a.come', kind: 'unexpected', expected: undefined, actual: 2 },
      { path: '$.a.date', kind: 'value', expected: '2027-01-13', actual: '2027-01-14' },
      { path: '$.a.gone', kind: 'missing', expected: 1, actual: undefined },
      { path: '$.a.same', kind: 'type', expected: [1, 2], actual: '1,2' },
      { path: '$.a.version', kind: 'value', expected: 0, actual: 1 },
    ]);
  });

  it('names a value gone from a list of values by itself, records in a list by position', () => {
    const ids = new ValueMap();
    expect(compareJson(['pdf', 'xml', 'csv'], ['xml', 'csv', 'json'], ids)).toEqual([
      { path: '$[0]', kind: 'missing', expected: 'pdf', actual: undefined },
      { path: '$[2]', kind: 'unexpected', expected: undefined, actual: 'json' },
    ]);
    expect(compareJson(['a', 'b'], ['b', 'a'], ids)).toEqual([
      { path: '$', kind: 'value', expected: ['a', 'b'], actual: ['b', 'a'] },
    ]);
    expect(compareJson([{ n: 1 }, { n: 2 }], [{ n: 1 }], ids)).toEqual([
      { path: '$[1]', kind: 'missing', expected: { n: 2 }, actual: undefined },
    ]);
  });
});

describe('compareAnswers', () => {
  it('a different status is one divergence, with the error the target gave', () => {
    expect(
      compareAnswers(
        json({ data: {} }),
        json({ error_message: 'validation failure list:\nname in body is required' }, 400),
        new ValueMap(),
      ),
    ).toEqual([{ path: 'status', kind: 'status', expected: 200, actual: '400 (name in body is required)' }]);
    expect(
      compareAnswers(
        json({}),
        json({ Code: '400', Message: 'bad', Errors: [{ ErrorCode: 'UK.OBIE.Field.Missing' }] }, 400),
        new ValueMap(),
      ),
    ).toEqual([{ path: 'status', kind: 'status', expected: 200, actual: '400 (UK.OBIE.Field.Missing)' }]);
  });

  it('a different media type is one divergence; a body that is not JSON is compared by emptiness', () => {
    const pdf: Answer = { status: 200, mediaType: 'application/pdf', length: 900 };
    expect(compareAnswers(pdf, { ...pdf, length: 1200 }, new ValueMap())).toEqual([]);
    expect(compareAnswers(pdf, { ...pdf, length: 0 }, new ValueMap())).toEqual([
      { path: 'body', kind: 'body', expected: '900 bytes', actual: '0 bytes' },
    ]);
    expect(compareAnswers(pdf, json({}), new ValueMap())).toEqual([
      { path: 'media type', kind: 'media type', expected: 'application/pdf', actual: 'application/json' },
    ]);
  });
});
