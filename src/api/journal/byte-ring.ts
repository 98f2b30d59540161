// Where the request journal keeps its requests as bytes, so journaling at a high request rate
// allocates nothing for the garbage collector to chase.
import { constants } from 'node:buffer';

const NO_OFFSETS = new Float64Array(0);
const NO_LENGTHS = new Int32Array(0);

/**
 * The newest `slots` records of variable length, in one buffer that is allocated again only to
 * grow: no object, and no buffer, per record. The request journal keeps its requests here (see
 * journal-codec.ts): a Buffer per request, even from Node's pool, is external memory allocated at
 * the request rate, and external memory's growth starts full collections as the heap's does.
 *
 * Records are laid end to end, wrapping to the start when the end is reached; a record that fits
 * in no free stretch grows the buffer (live records copied in order). A record is dropped by count,
 * not to make room: the ring keeps the newest `slots`, unless they would not fit in the largest
 * buffer Node allows (or `maxBytes`), when the oldest go until the newest fits.
 *
 * Nothing is allocated before the first record (or the first look at the buffer): each sandbox
 * has a journal of its own, and an idle one's 64 KiB buffer and 12 KiB of offsets were a quarter
 * of what the sandbox held (bench/sandboxes.ts, bench/RESULTS.md).
 */
export class ByteRing {
  readonly slots: number;
  /** Made at the first record (or look at it); given back by clear(). */
  #buffer: Buffer | undefined;
  /** Offsets as doubles: a ring of a million requests passes 2 GiB, past an Int32Array's reach. */
  #offsets: Float64Array = NO_OFFSETS;
  #lengths: Int32Array = NO_LENGTHS;
  /** The physical slot of the oldest record. */
  #first = 0;
  #count = 0;
  /** Where the next record's bytes go, if they fit there. */
  #head = 0;

  readonly #initialBytes: number;
  /** The most the buffer may grow to; beyond it the oldest records go to make room. */
  readonly #maxBytes: number;

  constructor(slots: number, initialBytes = 64 * 1024, maxBytes: number = constants.MAX_LENGTH) {
    this.slots = slots;
    this.#maxBytes = maxBytes;
    this.#initialBytes = slots === 0 ? 0 : initialBytes;
  }

  get count(): number {
    return this.#count;
  }

  /** The buffer the offsets point into (another one after a record grew it). */
  get buffer(): Buffer {
    this.#buffer ??= Buffer.alloc(this.#initialBytes);
    return this.#buffer;
  }

  /** The physical slot of the i-th newest record (0: the newest). */
  slotOf(i: number): number {
    return (this.#first + this.#count - 1 - i + this.slots) % this.slots;
  }

  offsetOf(slot: number): number {
    return this.#offsets[slot]!;
  }

  lengthOf(slot: number): number {
    return this.#lengths[slot]!;
  }

  /** Room for a new newest record of `length` bytes (the oldest goes when all slots are used); answers its slot. */
  push(length: number): number {
    if (this.slots === 0) throw new RangeError('a ring of no slots keeps nothing');
    // Every record takes a byte at least: an empty one would make a full ring look empty.
    if (!(length >= 1)) throw new RangeError(`a record takes at least a byte, not ${length}`);
    if (this.#offsets.length === 0) {
      this.#offsets = new Float64Array(this.slots);
      this.#lengths = new Int32Array(this.slots);
    }
    if (this.#count === this.slots) {
      this.#first = (this.#first + 1) % this.slots;
      this.#count--;
    }
    const at = this.#place(length);
    const slot = (this.#first + this.#count) % this.slots;
    this.#offsets[slot] = at;
    this.#lengths[slot] = length;
    this.#head = at + length;
    this.#count++;
    return slot;
  }

  /** Forgets every record, and gives back what the buffer grew to. */
  clear(): void {
    if (this.#buffer && this.#buffer.length > this.#initialBytes) this.#buffer = undefined;
    this.#first = 0;
    this.#count = 0;
    this.#head = 0;
  }

  /** Where `length` bytes go: after the newest record, or wrapped to the start, or in a grown buffer. */
  #place(length: number): number {
    const capacity = this.buffer.length;
    if (this.#count === 0) {
      if (length > capacity) this.#grow(length);
      return 0;
    }
    const oldest = this.#offsets[this.#first]!;
    if (oldest < this.#head) {
      // Live bytes are [oldest, head): free after them to the end, and before them from the start.
      if (this.#head + length <= capacity) return this.#head;
      if (length <= oldest) return 0;
    } else if (this.#head + length <= oldest) {
      // Wrapped: live bytes are [oldest, end) and [0, head); free between head and oldest.
      return this.#head;
    }
    this.#grow(length);
    return this.#head;
  }

  /** A buffer at least twice as large (up to the limit, dropping the oldest past it), live records copied to its start in order. */
  #grow(length: number): void {
    if (length > this.#maxBytes) throw new RangeError(`a record of ${length} bytes is larger than the ring may grow`);
    let live = 0;
    for (let i = 0; i < this.#count; i++) live += this.#lengths[(this.#first + i) % this.slots]!;
    while (live + length > this.#maxBytes && this.#count > 0) {
      live -= this.#lengths[this.#first]!;
      this.#first = (this.#first + 1) % this.slots;
      this.#count--;
    }
    const buffer = this.buffer;
    const grown = Buffer.alloc(Math.min(this.#maxBytes, Math.max(buffer.length * 2, (live + length) * 2)));
    let at = 0;
    for (let i = 0; i < this.#count; i++) {
      const slot = (this.#first + i) % this.slots;
      const from = this.#offsets[slot]!;
      const size = this.#lengths[slot]!;
      buffer.copy(grown, at, from, from + size);
      this.#offsets[slot] = at;
      at += size;
    }
    this.#buffer = grown;
    this.#head = at;
  }
}
