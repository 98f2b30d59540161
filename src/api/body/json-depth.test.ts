import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.ts';

/** The nesting depth of a parsed value, counted independently of the scanner (iteratively). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const objects = (n: number) => `${'{"a":'.repeat(n - 1)}{}${'}'.repeat(n - 1)}`;

describe('nestedDeeperThan', () => {
  it('counts arrays and objects, and refuses one level past the limit', () => {
    for (const make of [arrays, objects]) {
      expect(depthOf(JSON.parse(make(MAX_JSON_DEPTH)))).toBe(MAX_JSON_DEPTH);
      expect(nestedDeeperThan(make(MAX_JSON_DEPTH))).toBe(false);
      expect(nestedDeeperThan(make(MAX_JSON_DEPTH + 1))).toBe(true);
      expect(nestedDeeperThan(make(100_000))).toBe(true);
    }
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    const inString = JSON.stringify({ s: '['.repeat(1000), t: 'a \\" [[[ \\\\', u: `${'\\'.repeat(7)}"{{{` });
    expect(nestedDeeperThan(inString, 1)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify({ s: '\\', a: [[1]] }), 2)).toBe(true);
    expect(nestedDeeperThan(JSON.stringify({ s: '\\"', a: [[1]] }), 3)).toBe(false);
  });

  it('agrees with the depth of the parsed value on random JSON', () => {
    let seed = 29;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const build = (depth: number): unknown => {
      const r = random();
      if (depth === 0 || r < 0.25)
        return r < 0.1 ? `s"[{\\${'}'.repeat(Math.floor(random() * 3))}` : Math.floor(r * 100);
      const n = 1 + Math.floor(random() * 3);
      const items = Array.from({ length: n }, () => build(depth - 1));
      return random() < 0.5 ? items : Object.fromEntries(items.map((v, i) => [`k[${i}"`, v]));
    };
    for (let i = 0; i < 300; i++) {
      const text = JSON.stringify(build(12));
      const depth = depthOf(JSON.parse(text));
      expect(nestedDeeperThan(text, depth)).toBe(false);
      if (depth > 0) expect(nestedDeeperThan(text, depth - 1)).toBe(true);
    }
  });

  it('leaves malformed JSON to the parser', () => {
    expect(nestedDeeperThan(`"${'['.repeat(200)}`)).toBe(false); // an unterminated string
    expect(nestedDeeperThan(`${']'.repeat(200)}${'['.repeat(100)}`, 150)).toBe(false);
  });
});
