// What the store's damage scenarios (features/store.feature) need: a folder's files as they are,
// to prove a refusal changed nothing, and doctor's reading and repair of a data file.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { STORED_SECRETS, storedRecordProblem } from '../api/stored-records.ts';
import { examinationReport, examineDataFile, type Repair, repairDataFile } from '../store/data-file-doctor.ts';

/** Every entry of a folder: its kind and bytes (or link target), to prove a refusal changed nothing. */
export function folderState(dir: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const s = lstatSync(path);
    state[name] = s.isSymbolicLink()
      ? `link ${readlinkSync(path)}`
      : s.isDirectory()
        ? `directory ${JSON.stringify(folderState(path))}`
        : `file ${readFileSync(path).toString('base64')}`;
  }
  return state;
}

/** The lines `scheme-sim doctor --data FILE` prints, and whether start-up would refuse the store (its exit 1). */
export async function doctorReport(file: string): Promise<{ refuses: boolean; lines: string[] }> {
  const exam = await examineDataFile(file, storedRecordProblem, { secrets: STORED_SECRETS });
  return { refuses: exam.damage.length + exam.problems.length > 0, lines: examinationReport(exam) };
}

/** What `scheme-sim doctor --data FILE --fix` does (undefined: nothing to repair). */
export function doctorFix(file: string): Promise<Repair | undefined> {
  return repairDataFile(file, storedRecordProblem, { secrets: STORED_SECRETS });
}
