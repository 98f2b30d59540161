/** A binary min-heap; `less` decides the order. */
export class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #less: (a: T, b: T) => boolean;

  constructor(less: (a: T, b: T) => boolean) {
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const a = this.#items;
    // Sift up with a hole: parents move down until the item's place is found (no swaps).
    let i = a.length;
    a.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent]!;
      if (!this.#less(item, p)) break;
      a[i] = p;
      i = parent;
    }
    a[i] = item;
  }

  pop(): T | undefined {
    const a = this.#items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    const n = a.length;
    if (n > 0) {
      // Sift the last item down from the root with a hole.
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.#less(a[r]!, a[l]!) ? r : l;
        if (!this.#less(a[c]!, last)) break;
        a[i] = a[c]!;
        i = c;
      }
      a[i] = last;
    }
    return top;
  }

  clear(): void {
    this.#items.length = 0;
  }
}
