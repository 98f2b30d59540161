// The cases of docs/store.md's table "Damaged stores" (src/cli/doctor-damage.test.ts runs them):
// how to damage a store, the line start-up and doctor both begin with, and what the store holds
// after `doctor --fix` (or after start-up, for the cases start-up repairs itself).
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { changeStore, checksummed, journalLines, lineOf, writeJournalLines } from './damaged-store.ts';

/** A copy of a base store to damage. */
export interface Store {
  dir: string;
  file: string;
  journal: string;
}

/** The accounts of the base stores, filled in once they are built. */
export interface BaseIds {
  /** Of the store whose whole history is its journal. */
  journalOnly: string[];
  /** Of the compacted store: in its snapshot, and in its journal. */
  early: string[];
  late: string[];
}

export interface Case {
  /** The row of docs/store.md: a damage kind, `lost-secret` or `bad-record`. */
  kind: string;
  label: string;
  base: 'journalOnly' | 'compacted';
  damage(s: Store): void | Promise<void>;
  /** How start-up and doctor both begin the line about it: the file, where, what. */
  says(s: Store): string;
  startUp: 'refuses' | 'repairs';
  /** The accounts the store holds after `doctor --fix` (after start-up, when it repairs); absent: --fix cannot repair it. */
  after?: () => string[];
}

/** Every case; `ids` is read when a case runs. */
export function damageCases(ids: BaseIds): Case[] {
  const all = () => [...ids.early, ...ids.late];
  const lockOf = (s: Store) => `${s.file}.lock`;
  return [
    {
      kind: 'wrong-kind',
      label: 'a directory where the journal goes',
      base: 'compacted',
      damage: (s) => {
        rmSync(s.journal);
        mkdirSync(s.journal);
      },
      says: (s) => `${s.journal}: is a directory, not a file`,
      startUp: 'refuses',
    },
    {
      kind: 'wrong-kind',
      label: 'a directory where the lock goes',
      base: 'compacted',
      damage: (s) => mkdirSync(lockOf(s)),
      says: (s) => `${lockOf(s)}: is a directory, not a file`,
      startUp: 'refuses',
    },
    {
      kind: 'wrong-kind',
      label: 'a directory where the snapshot goes',
      base: 'compacted',
      damage: (s) => {
        rmSync(s.file);
        mkdirSync(s.file);
      },
      says: (s) => `${s.file}: is a directory, not a file`,
      startUp: 'refuses',
    },
    {
      kind: 'unreadable',
      label: 'a journal that is a symbolic link to itself',
      base: 'compacted',
      damage: (s) => {
        rmSync(s.journal);
        symlinkSync(s.journal, s.journal);
      },
      says: (s) => `${s.journal}: cannot be looked at (ELOOP`,
      startUp: 'refuses',
    },
    {
      kind: 'not-a-store',
      label: 'a data file that is not a store',
      base: 'compacted',
      damage: (s) => writeFileSync(s.file, '[]'),
      says: (s) => `${s.file}: is not a scheme-sim store`,
      startUp: 'refuses',
    },
    {
      kind: 'snapshot-damaged',
      label: 'a snapshot without its end line',
      base: 'compacted',
      damage: (s) => {
        const lines = readFileSync(s.file, 'utf8').split('\n').slice(0, -2);
        writeFileSync(s.file, lines.map((l) => `${l}\n`).join(''));
      },
      says: (s) => {
        const text = readFileSync(s.file, 'utf8');
        return `${s.file} at line ${text.split('\n').length}, byte offset ${Buffer.byteLength(text)}: the snapshot is not whole (no end line)`;
      },
      startUp: 'refuses',
    },
    {
      kind: 'snapshot-missing',
      label: 'a journal without its snapshot (issue 29, case 3)',
      base: 'compacted',
      damage: (s) => rmSync(s.file),
      says: (s) => `${s.file}: is missing, but ${s.journal} is there`,
      startUp: 'refuses',
      // What the lost snapshot held (the first accounts, the token key) is gone; the journal's records stay.
      after: () => ids.late,
    },
    {
      kind: 'snapshot-missing',
      label: 'a journal from seq 1 without its snapshot',
      base: 'journalOnly',
      damage: (s) => rmSync(s.file),
      says: (s) => `${s.file}: is missing, but ${s.journal} is there`,
      startUp: 'refuses',
      after: () => ids.journalOnly,
    },
    {
      kind: 'journal-missing',
      label: 'a snapshot without its journal',
      base: 'compacted',
      damage: (s) => rmSync(s.journal),
      says: (s) => `${s.journal}: is missing beside its snapshot`,
      startUp: 'refuses',
      after: () => ids.early,
    },
    {
      kind: 'legacy-with-journal',
      label: 'an older-format file over a later store',
      base: 'compacted',
      damage: (s) => writeFileSync(s.file, JSON.stringify({ format: 1, meta: {}, collections: {} })),
      says: (s) => `${s.file}: is in the older one-document format, but ${s.journal} belongs to a later store`,
      startUp: 'refuses',
    },
    {
      kind: 'damaged-line',
      label: 'a record failing its checksum with records after it',
      base: 'compacted',
      damage: (s) => {
        const { index } = lineOf(s.file, ids.late[1]!);
        const lines = journalLines(s.file);
        lines[index] = lines[index]!.replace('Ada Lovelace', 'Ada Lovelacf');
        writeJournalLines(s.file, lines);
      },
      says: (s) => {
        const { index, offset } = lineOf(s.file, ids.late[1]!);
        return `${s.journal} at line ${index + 1}, byte offset ${offset}: a damaged record (checksum mismatch)`;
      },
      startUp: 'refuses',
      after: () => [...ids.early, ids.late[0]!],
    },
    {
      kind: 'not-a-record',
      label: 'a whole, checksummed last line that is no record (issue 29, case 5)',
      base: 'compacted',
      damage: (s) => writeJournalLines(s.file, [...journalLines(s.file), checksummed('{"note":"written by hand"}')]),
      says: (s) => {
        const lines = journalLines(s.file);
        const offset = lines.slice(0, -1).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
        return `${s.journal} at line ${lines.length}, byte offset ${offset}: a whole line (its checksum matches) that is not a journal record: seq must be`;
      },
      startUp: 'refuses',
      after: all,
    },
    {
      kind: 'sequence-gap',
      label: 'a record deleted from the middle (issue 29, case 4)',
      base: 'compacted',
      damage: (s) => {
        const lines = journalLines(s.file);
        lines.splice(lineOf(s.file, ids.late[1]!).index, 1);
        writeJournalLines(s.file, lines);
      },
      says: (s) => {
        const next = lineOf(s.file, ids.late[2]!);
        return `${s.journal} at line ${next.index + 1} (seq ${next.seq}), byte offset ${next.offset}: seq ${next.seq} follows seq ${next.seq - 2}: seq ${next.seq - 1} missing`;
      },
      startUp: 'refuses',
      after: () => [...ids.early, ids.late[0]!],
    },
    {
      kind: 'sequence-gap',
      label: 'a record repeated',
      base: 'compacted',
      damage: (s) => {
        const lines = journalLines(s.file);
        const { index } = lineOf(s.file, ids.late[0]!);
        lines.splice(index, 0, lines[index]!);
        writeJournalLines(s.file, lines);
      },
      says: (s) => {
        const first = lineOf(s.file, ids.late[0]!);
        const offset = first.offset + Buffer.byteLength(journalLines(s.file)[first.index]!) + 1;
        return `${s.journal} at line ${first.index + 2} (seq ${first.seq}), byte offset ${offset}: seq ${first.seq} follows seq ${first.seq}: out of order`;
      },
      startUp: 'refuses',
      after: () => [...ids.early, ids.late[0]!],
    },
    {
      kind: 'sequence-gap',
      label: "the journal's first record deleted: it no longer follows the snapshot",
      base: 'compacted',
      damage: (s) => writeJournalLines(s.file, journalLines(s.file).slice(1)),
      says: (s) => {
        const seq = JSON.parse(journalLines(s.file)[0]!.slice(9)).seq as number;
        return `${s.journal} at line 1 (seq ${seq}), byte offset 0: seq ${seq} follows seq ${seq - 2} (the snapshot): seq ${seq - 1} missing`;
      },
      startUp: 'refuses',
      after: () => ids.early,
    },
    {
      kind: 'damaged-line',
      label: 'an unfinished last line in the journal a compaction moved aside',
      base: 'compacted',
      damage: (s) => {
        writeFileSync(`${s.journal}.old`, `${readFileSync(s.journal, 'utf8')}1a2b3c4d {"seq":`);
        writeFileSync(s.journal, '');
      },
      says: (s) => {
        const text = readFileSync(`${s.journal}.old`, 'utf8');
        const offset = Buffer.byteLength(text) - Buffer.byteLength('1a2b3c4d {"seq":');
        return `${s.journal}.old at line ${text.split('\n').length}, byte offset ${offset}: a damaged record (no line feed) with the journal after it`;
      },
      startUp: 'refuses',
      after: all,
    },
    {
      kind: 'starting-journal-not-empty',
      label: 'text in the journal a rewrite starts',
      base: 'compacted',
      damage: (s) => writeFileSync(`${s.journal}.new`, 'hello'),
      says: (s) => `${s.journal}.new: holds 5 bytes`,
      startUp: 'refuses',
      after: all,
    },
    {
      kind: 'lock-no-pid',
      label: 'a lock that names no pid (issue 29, case 7)',
      base: 'compacted',
      damage: (s) => writeFileSync(lockOf(s), 'hello\n'),
      says: (s) => `${lockOf(s)}: names no pid (it holds "hello\\n")`,
      startUp: 'refuses',
      after: all,
    },
    {
      kind: 'lock-in-use',
      label: 'a lock naming a running process',
      base: 'compacted',
      damage: (s) => writeFileSync(lockOf(s), `${process.ppid}\n`),
      says: (s) => `${lockOf(s)}: data file ${s.file} is in use by another simulator (pid ${process.ppid})`,
      startUp: 'refuses',
    },
    {
      kind: 'lost-secret',
      label: 'a token key missing from a store that issued it',
      base: 'compacted',
      damage: (s) =>
        changeStore(s.file, (data) => {
          delete data.meta.auth_key;
        }),
      says: (s) => `${s.file}: meta auth_key: is missing, but this store issued it`,
      startUp: 'refuses',
      after: all,
    },
    {
      kind: 'bad-record',
      label: 'a record its schema refuses',
      base: 'compacted',
      damage: (s) =>
        changeStore(s.file, (data) => {
          data.collections.accounts!.set(ids.early[0]!, 5 as never);
        }),
      says: (s) => `${s.file}: accounts ${ids.early[0]}: the record must be an object, got 5`,
      startUp: 'refuses',
      after: () => all().slice(1),
    },
    {
      kind: 'torn-tail',
      label: 'an unfinished last record (a crash mid-append)',
      base: 'compacted',
      damage: (s) => writeFileSync(s.journal, `${readFileSync(s.journal, 'utf8')}1a2b3c4d {"seq":99,"rows":[["acc`),
      says: (s) => {
        const size = Buffer.byteLength(readFileSync(s.journal));
        const whole = size - Buffer.byteLength('1a2b3c4d {"seq":99,"rows":[["acc');
        return `${s.journal} at line ${journalLines(s.file).length}, byte offset ${whole}: an unfinished last record (no line feed)`;
      },
      startUp: 'repairs',
      after: all,
    },
    {
      kind: 'stale-lock',
      label: 'a lock naming a process that is gone',
      base: 'compacted',
      damage: (s) => writeFileSync(lockOf(s), '999999999\n'),
      says: (s) => `${lockOf(s)}: names pid 999999999, which is no longer running`,
      startUp: 'repairs',
      after: all,
    },
    {
      kind: 'unfinished-compaction',
      label: 'a compaction a crash interrupted',
      base: 'compacted',
      damage: (s) => {
        renameSync(s.journal, `${s.journal}.old`);
        writeFileSync(s.journal, '');
      },
      says: (s) => `${s.journal}.old: a compaction was interrupted`,
      startUp: 'repairs',
      after: all,
    },
    {
      kind: 'unfinished-start',
      label: 'a new snapshot a crash interrupted',
      base: 'compacted',
      damage: (s) => writeFileSync(`${s.journal}.new`, ''),
      says: (s) => `${s.journal}.new: a new snapshot was being written`,
      startUp: 'repairs',
      after: all,
    },
  ];
}
