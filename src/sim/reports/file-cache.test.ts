import { describe, expect, it } from 'vitest';
import { FileCache } from './file-cache.ts';

const bytes = (n: number) => new Uint8Array(n);

describe('FileCache', () => {
  it('renders once for concurrent and later requests', async () => {
    const cache = new FileCache<Uint8Array>();
    let renders = 0;
    const make = async () => {
      renders++;
      return bytes(10);
    };
    const [a, b] = await Promise.all([cache.get('k', make), cache.get('k', make)]);
    expect(a).toBe(b);
    expect(await cache.get('k', make)).toBe(a);
    expect(renders).toBe(1);
    expect(cache.bytes).toBe(10);
  });

  it('evicts the least recently used entry beyond its byte bound', async () => {
    const cache = new FileCache<Uint8Array>({ maxBytes: 25 });
    await cache.get('a', async () => bytes(10));
    await cache.get('b', async () => bytes(10));
    await cache.get('a', async () => bytes(99)); // touch a: b is now the oldest
    await cache.get('c', async () => bytes(10));
    expect(cache.has('a')).toBe(true);
    expect(cache.has('b')).toBe(false);
    expect(cache.has('c')).toBe(true);
    expect(cache.bytes).toBe(20);
  });

  it('evicts beyond its entry bound', async () => {
    const cache = new FileCache<Uint8Array>({ maxEntries: 2 });
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => bytes(1));
    expect(cache.size).toBe(2);
    expect(cache.has('a')).toBe(false);
  });

  it('forgets a failed render so the next request tries again', async () => {
    const cache = new FileCache<Uint8Array>();
    await expect(cache.get('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await new Promise((r) => setImmediate(r));
    expect(cache.has('k')).toBe(false);
    expect((await cache.get('k', async () => bytes(3))).length).toBe(3);
  });
});
