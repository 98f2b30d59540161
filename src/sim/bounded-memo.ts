/**
 * Values made once per key for the life of the process, while fewer than `bound` are kept: past
 * it the memo starts afresh rather than growing (a process that meets many distinct keys, such as
 * a test making them, makes some again).
 */
export function boundedMemo<V>(bound: number): { get(key: string, make: () => V): V; forget(key: string): void } {
  const made = new Map<string, V>();
  return {
    get(key, make) {
      if (made.has(key)) return made.get(key)!;
      const value = make();
      if (made.size >= bound) made.clear();
      made.set(key, value);
      return value;
    },
    forget: (key) => void made.delete(key),
  };
}
