/** The files of a journal store at `file`: the snapshot itself, its journal, and a journal being compacted away. */
export function journalPaths(file: string) {
  return {
    snapshot: file,
    journal: `${file}.journal`,
    /** The journal a compaction rotated out; it is replayed before `journal` until the snapshot has it. */
    rotated: `${file}.journal.old`,
    /** Where a store of the older one-document format is kept when it is migrated. */
    backup: `${file}.format1.bak`,
  };
}
