/**
 * A least-recently-used cache of rendered files, bounded by total bytes and by entry count.
 * Values are promises so that concurrent first requests share one render; a failed render is
 * dropped so the next request tries again.
 */
export class FileCache<V extends { byteLength: number }> {
  readonly #entries = new Map<string, { value: Promise<V>; bytes: number }>();
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  #bytes = 0;

  constructor(options: { maxBytes?: number; maxEntries?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#maxEntries = options.maxEntries ?? 512;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The cached value (refreshing its recency), or the result of `make`, cached. */
  get(key: string, make: () => Promise<V>): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    const entry = { value: make(), bytes: 0 };
    this.#entries.set(key, entry);
    this.#evict();
    entry.value.then(
      (v) => {
        if (this.#entries.get(key) !== entry) return;
        entry.bytes = v.byteLength;
        this.#bytes += v.byteLength;
        this.#evict();
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return entry.value;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #evict(): void {
    for (const [key, e] of this.#entries) {
      if (this.#bytes <= this.#maxBytes && this.#entries.size <= this.#maxEntries) return;
      if (this.#entries.size === 1) return; // never evict the only (newest) entry
      this.#entries.delete(key);
      this.#bytes -= e.bytes;
    }
  }
}
