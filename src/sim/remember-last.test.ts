import { describe, expect, it } from 'vitest';
import { rememberLast } from './remember-last.ts';

describe('rememberLast', () => {
  it('computes once while the input repeats, and again for another input', () => {
    const seen: string[] = [];
    const upper = rememberLast((text) => {
      seen.push(text);
      return text.toUpperCase();
    });
    expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(seen).toEqual(['a', 'b', 'a']);
  });

  it('computes the empty text too: nothing is remembered before the first call', () => {
    let calls = 0;
    const plain = rememberLast((text) => {
      calls++;
      return /^[a-z]+$/.test(text);
    });
    expect(plain('')).toBe(false);
    expect(calls).toBe(1);
  });

  it('remembers an undefined answer like any other', () => {
    let calls = 0;
    const none = rememberLast(() => {
      calls++;
      return undefined;
    });
    none('x');
    none('x');
    expect(calls).toBe(1);
  });
});
