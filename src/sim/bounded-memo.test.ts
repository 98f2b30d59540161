import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo.ts';

describe('boundedMemo', () => {
  it('makes a value once per key, and again once forgotten', () => {
    const memo = boundedMemo<object>(8);
    let made = 0;
    const make = () => ({ n: ++made });
    const first = memo.get('a', make);
    expect(memo.get('a', make)).toBe(first);
    memo.forget('a');
    expect(memo.get('a', make)).not.toBe(first);
    expect(made).toBe(2);
  });

  it('starts afresh past its bound rather than growing', () => {
    const memo = boundedMemo<number>(2);
    let made = 0;
    for (const key of ['a', 'b', 'c', 'a']) memo.get(key, () => ++made);
    expect(made).toBe(4);
  });

  it('keeps nothing for a key whose making throws', () => {
    const memo = boundedMemo<number>(2);
    expect(() =>
      memo.get('x', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(memo.get('x', () => 1)).toBe(1);
  });
});
