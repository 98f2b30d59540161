// `scheme-sim doctor`: when start-up refuses a data file, a user can see every problem with it, and
// repair it after a backup, without starting the simulator.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { STORED_SECRETS, storedRecordProblem } from '../api/stored-records.ts';
import { sandboxFolder } from '../sandbox-storage.ts';
import { examinationReport, examineDataFile, repairDataFile } from '../store/data-file-doctor.ts';
import { describeProblem } from '../store/load-check.ts';
import { describeDamage } from '../store/store-damage.ts';
import { StoreError } from '../store/store-error.ts';
import { parseCommand, usageError } from './usage.ts';

const DOCTOR_HELP = `Usage: scheme-sim doctor [--data FILE] [--fix]

Reads a data file as start-up does, without starting the simulator or writing anything: the
store's files (a missing snapshot or journal, a damaged line, a gap in the journal's sequence, a
path of the wrong kind, the lock), every record and meta key against its schema, and the secrets
the store issued; then each sandbox's data file beside it (<name>.sandboxes/<id>/sim.json,
docs/sandboxes.md) the same way. Lists each problem with the file, the line, seq and byte offset, and what --fix
would do and drop; exits 1 when start-up would refuse the store (a running simulator's lock
included: doctor names its pid and reads the store as last written).

  --data FILE   the data file to check (default ./data/sim.json, as scheme-sim start)
  --fix         repair what it lists after copying every file of the store to <file>.<time>.bak:
                keep the store up to the first damaged line or gap, drop each offending record
                (or meta key), forget lost secrets so start-up makes new ones, remove a lock that
                names no pid; refused while a simulator holds the file, and for damage only a
                backup repairs (the line says which)
  -h, --help    this help`;

/** `scheme-sim doctor`: what start-up would refuse or repair, every problem listed, optionally repaired. */
export async function doctorCommand(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values } = parseCommand(
    argv,
    {
      data: { type: 'string' },
      fix: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    DOCTOR_HELP,
  );
  if (values.help) {
    out(DOCTOR_HELP);
    return 0;
  }
  const file = (values.data as string | undefined) ?? join(process.cwd(), 'data', 'sim.json');
  if (values.data === undefined && !existsSync(file) && !existsSync(`${file}.journal`))
    throw usageError(
      `no data file at ${file}, the default of scheme-sim start; --data FILE names another`,
      DOCTOR_HELP,
    );
  let status = await doctorFile(file, values.fix === true, out);
  // A sandbox's store is a data file of its own, checked (and repaired) as the server's is.
  for (const id of await sandboxIds(file)) {
    out(`sandbox ${id}:`);
    status = Math.max(
      status,
      await doctorFile(join(sandboxFolder(file), id, 'sim.json'), values.fix === true, (line) => out(`  ${line}`)),
    );
  }
  return status;
}

/** The sandboxes kept beside a data file (none when it has no sandbox folder). */
async function sandboxIds(file: string): Promise<string[]> {
  try {
    return (await readdir(sandboxFolder(file), { withFileTypes: true }))
      .filter((e) => e.isDirectory() && UUID.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Examines (or repairs) one data file; 1 when start-up would refuse it. */
async function doctorFile(file: string, fix: boolean, out: (line: string) => void): Promise<number> {
  const options = { secrets: STORED_SECRETS };
  if (fix) {
    let repair: Awaited<ReturnType<typeof repairDataFile>>;
    try {
      repair = await repairDataFile(file, storedRecordProblem, options);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      out(`${err.message}`);
      return 1;
    }
    if (!repair) {
      out(`${file}: no problems; nothing to fix`);
      return 0;
    }
    for (const d of repair.repaired) out(`repaired ${describeDamage(d)}: ${d.fix}`);
    for (const p of repair.dropped) out(`dropped ${describeProblem(p)}`);
    for (const p of repair.forgotten) out(`forgot meta ${p.id}: start-up makes a new one`);
    const count = repair.repaired.length + repair.dropped.length + repair.forgotten.length;
    out(`${file}: repaired ${count}${repair.backup ? `; the file as it was is in ${repair.backup}` : ''}`);
    return 0;
  }
  const exam = await examineDataFile(file, storedRecordProblem, options);
  for (const line of examinationReport(exam)) out(line);
  return exam.damage.length + exam.problems.length > 0 ? 1 : 0;
}
