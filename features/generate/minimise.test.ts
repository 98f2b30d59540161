// The pass that leaves out what a failing body does not need: it keeps exactly what the failure
// depends on, and treats a candidate that throws as passing.
import { describe, expect, it } from 'vitest';
import { minimise, removablePaths, without } from './minimise.ts';

describe('minimise', () => {
  it('leaves only what the failure needs', async () => {
    const body = { data: { id: 'x', attributes: { a: 1, bad: '!', list: [1, 2, 3] } } };
    const fails = async (b: any) => b?.data?.attributes?.bad === '!';
    expect(await minimise(body, fails)).toEqual({ data: { attributes: { bad: '!' } } });
  });

  it('keeps what a throwing check needs', async () => {
    const body = { required: 1, bad: true, extra: 2 };
    const fails = async (b: any) => {
      if (!('required' in b)) throw new Error('the schema refuses it');
      return b.bad === true;
    };
    expect(await minimise(body, fails)).toEqual({ required: 1, bad: true });
  });

  it('names object keys and array items, and removes either', () => {
    expect(removablePaths({ a: [1, { b: 2 }] })).toEqual([['a'], ['a', 0], ['a', 1], ['a', 1, 'b']]);
    expect(without({ a: [1, 2, 3] }, ['a', 1])).toEqual({ a: [1, 3] });
  });
});
