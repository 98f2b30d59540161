import { describe, expect, it } from 'vitest';
import { assertLoadable, describeProblem, LOAD_PROBLEMS_SHOWN, loadProblems, META_COLLECTION } from './load-check.ts';
import { StoreError } from './store-error.ts';

const content = {
  meta: { good: 1, bad: 'x' },
  collections: { rows: { a: { id: 'a', n: 1 }, b: { id: 'b', n: -1 }, c: 5 } },
};
const check = (collection: string, _id: string, record: unknown) => {
  if (collection === META_COLLECTION) return typeof record === 'number' ? undefined : 'must be a number';
  if (typeof record !== 'object') return 'must be an object';
  return (record as { n: number }).n < 0 ? 'n must be >= 0' : undefined;
};

describe('loadProblems', () => {
  it('checks meta keys and every record of every collection', () => {
    const { problems, total } = loadProblems(content, check);
    expect(total).toBe(3);
    expect(problems.map(describeProblem)).toEqual([
      'meta bad: must be a number',
      'rows b: n must be >= 0',
      'rows c: must be an object',
    ]);
  });

  it('keeps the first `limit` and counts them all', () => {
    const { problems, total } = loadProblems(content, check, 1);
    expect(problems).toHaveLength(1);
    expect(total).toBe(3);
  });

  it('turns a check that throws into a problem of that record', () => {
    const { problems } = loadProblems({ meta: {}, collections: { x: { r: {} } } }, () => {
      throw new Error('boom');
    });
    expect(problems).toEqual([{ collection: 'x', id: 'r', rule: 'cannot be checked: boom' }]);
  });
});

describe('assertLoadable', () => {
  it('passes sound content and content without a check', () => {
    expect(() =>
      assertLoadable('f.json', { meta: {}, collections: { rows: { a: { id: 'a', n: 1 } } } }, check),
    ).not.toThrow();
    expect(() => assertLoadable('f.json', content, undefined)).not.toThrow();
  });

  it('throws a StoreError with a line per problem naming the location, ending with the way out', () => {
    const err = (() => {
      try {
        assertLoadable('/d/f.json', content, check);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(StoreError);
    const lines = err!.message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('/d/f.json: meta bad: must be a number');
    expect(lines[2]).toMatch(
      /^\/d\/f\.json: rows c: must be an object \(nothing was written; `scheme-sim doctor --data \/d\/f\.json`/,
    );
  });

  it(`shows at most ${LOAD_PROBLEMS_SHOWN} problems and counts the others`, () => {
    const many = {
      meta: {},
      collections: { rows: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`r${i}`, 0])) },
    };
    const message = (() => {
      try {
        assertLoadable('f.json', many, check);
      } catch (e) {
        return (e as Error).message;
      }
    })()!;
    expect(message.split('\n')).toHaveLength(LOAD_PROBLEMS_SHOWN + 1);
    expect(message).toContain('f.json: and 15 more (nothing was written');
  });
});
