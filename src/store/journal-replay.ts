// Loading a journal store means replaying its records onto the snapshot, and proving none is missing
// on the way; where that proof fails is damage, not history.
import { applyRecord, decodeRecord, isBadLine } from './journal-record.ts';
import { forEachLine } from './line-reader.ts';
import { type DamageKind, lineAt, type StoreDamage } from './store-damage.ts';
import type { StoreData } from './store-data.ts';

/** A torn last record (a crash in the middle of an append): where the journal is cut, and why. */
export interface TornTail {
  offset: number;
  line: number;
  why: string;
}

/** Where replaying stopped: the first line that cannot be proved part of the store's history. */
interface Cut {
  kind: DamageKind;
  file: string;
  line: number;
  offset: number;
  seq?: number;
  what: string;
}

/**
 * Replays journals (the rotated one, then the current one) onto loaded data. Every record must
 * follow the one before it (seq + 1, across both files), and the first one after the snapshot must
 * be the snapshot's seq + 1: a record missing from the middle leaves a gap, and a gap is damage,
 * not history. Only the very last line may be unfinished or fail its checksum (a crash in the
 * middle of an append, never acknowledged). At the first damage replaying stops: `data` is then
 * the store as its last whole, contiguous record left it, and the lines after are counted, so
 * doctor can say what `--fix` would drop.
 */
export class JournalReplay {
  readonly data: StoreData;
  /** The last sequence the data holds (the snapshot's, or the last record applied). */
  seq: number;
  /** The sequence of the last record read, applied or already in the snapshot. */
  #lastRead: number | undefined;
  /** False when there is no snapshot: the first record may then have any sequence. */
  readonly #snapshotKnown: boolean;
  #cut: Cut | undefined;
  tornTail: TornTail | undefined;
  /** Records and lines after the cut: what a repair that keeps the data up to it drops. */
  readonly #dropped = { lines: 0, records: 0, first: undefined as number | undefined, last: 0 };

  constructor(data: StoreData, snapshotSeq: number, snapshotKnown: boolean) {
    this.data = data;
    this.seq = snapshotSeq;
    this.#snapshotKnown = snapshotKnown;
  }

  /** Reads one journal file; `last` is the current journal (only its last line may be torn). */
  async read(path: string, last: boolean): Promise<void> {
    let lineNo = 0;
    let suspect: TornTail | undefined; // a line failing its checksum: torn only if nothing follows
    const cutAtSuspect = (s: TornTail) => {
      this.#cut = {
        kind: 'damaged-line',
        file: path,
        line: s.line,
        offset: s.offset,
        what: `a damaged record (${s.why}) with ${last ? 'more' : 'the journal'} after it: no crash leaves that`,
      };
      this.#drop('', true);
    };
    const tail = await forEachLine(path, (text, offset) => {
      lineNo++;
      if (this.#cut) return this.#drop(text);
      if (suspect) {
        cutAtSuspect(suspect);
        return this.#drop(text);
      }
      const decoded = decodeRecord(text);
      if (isBadLine(decoded)) {
        if (!decoded.whole) suspect = { offset, line: lineNo, why: decoded.why };
        else {
          this.#cut = {
            kind: 'not-a-record',
            file: path,
            line: lineNo,
            offset,
            what: `a whole line (its checksum matches) that is ${decoded.why}`,
          };
          this.#drop(text, true);
        }
        return;
      }
      const expected =
        this.#lastRead !== undefined ? this.#lastRead + 1 : this.#snapshotKnown ? this.seq + 1 : undefined;
      const inOrder =
        expected === undefined ||
        decoded.seq === expected ||
        // The first record read may be one the snapshot holds already (a compaction's journal).
        (this.#lastRead === undefined && decoded.seq < expected);
      if (!inOrder) {
        const after = expected! - 1;
        this.#cut = {
          kind: 'sequence-gap',
          file: path,
          line: lineNo,
          offset,
          seq: decoded.seq,
          what:
            decoded.seq > expected!
              ? `seq ${decoded.seq} follows seq ${after}${this.#lastRead === undefined ? ' (the snapshot)' : ''}: ${gap(expected!, decoded.seq - 1)} missing`
              : `seq ${decoded.seq} follows seq ${after}: out of order`,
        };
        this.#drop(text);
        return;
      }
      this.#lastRead = decoded.seq;
      if (decoded.seq <= this.seq) return; // already in the snapshot
      applyRecord(this.data, decoded);
      this.seq = decoded.seq;
    });
    if (tail.text.length > 0) {
      if (this.#cut) this.#drop(tail.text, true);
      else if (suspect) {
        cutAtSuspect(suspect);
        this.#drop(tail.text, true);
      } else suspect = { offset: tail.offset, line: lineNo + 1, why: 'no line feed' };
    }
    if (suspect && !this.#cut) {
      // A rotated journal was whole when it was moved aside: damage in it is no crash.
      if (last) this.tornTail = suspect;
      else cutAtSuspect(suspect);
    }
  }

  /** Counts a line after the cut: a record (its seq kept for the range), or a line that is none. */
  #drop(text: string, unreadable = false): void {
    this.#dropped.lines++;
    const decoded = unreadable ? undefined : decodeRecord(text);
    if (decoded === undefined || isBadLine(decoded)) return;
    this.#dropped.records++;
    this.#dropped.first ??= decoded.seq;
    this.#dropped.last = decoded.seq;
  }

  /** The damage that stopped the replay, with what a repair keeping the data before it drops. */
  damage(): StoreDamage | undefined {
    const cut = this.#cut;
    if (!cut) return undefined;
    const d = this.#dropped;
    const records =
      d.records > 0 ? ` (${d.records} record${d.records === 1 ? '' : 's'}, ${gap(d.first!, d.last)})` : '';
    return {
      kind: cut.kind,
      file: cut.file,
      at: lineAt(cut.line, cut.offset, cut.seq),
      what: cut.what,
      fix:
        `keeps the store as seq ${this.seq} left it and drops every line from there on: ` +
        `${d.lines} line${d.lines === 1 ? '' : 's'}${records}`,
      fixable: true,
    };
  }
}

/** `seq 43` or `seq 43–54`. */
function gap(from: number, to: number): string {
  return from === to ? `seq ${from}` : `seq ${from}–${to}`;
}
