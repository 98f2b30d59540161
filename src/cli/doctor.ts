import { storedRecordProblem } from '../api/stored-records.ts';
import { examineDataFile, repairDataFile } from '../store/data-file-doctor.ts';
import { describeProblem } from '../store/load-check.ts';
import { parseCommand, usageError } from './usage.ts';

const DOCTOR_HELP = `Usage: scheme-sim doctor --data FILE [--fix]

Checks every record and meta key of a data file against its schema, as start-up does, without
starting the simulator or writing the file. Lists every problem; exits 1 when there is any.

  --data FILE   the data file to check
  --fix         drop each offending record (or meta key) after copying the file to FILE.<time>.bak;
                refused while a simulator holds the file
  -h, --help    this help`;

/** `scheme-sim doctor`: the load checks of start-up, every problem listed, optionally repaired. */
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
  if (!values.data) throw usageError('doctor needs --data FILE (the data file to check)', DOCTOR_HELP);
  const file = values.data as string;
  if (values.fix) {
    const repair = await repairDataFile(file, storedRecordProblem);
    if (!repair) {
      out(`${file}: no problems; nothing to fix`);
      return 0;
    }
    for (const p of repair.dropped) out(`dropped ${describeProblem(p)}`);
    out(`${file}: dropped ${repair.dropped.length}; the file as it was is in ${repair.backup}`);
    return 0;
  }
  const exam = await examineDataFile(file, storedRecordProblem);
  for (const p of exam.problems) out(`${file}: ${describeProblem(p)}`);
  const summary = `${exam.records} records in ${exam.collections} collections`;
  if (exam.problems.length === 0) {
    out(`${file}: ${summary}, no problems`);
    return 0;
  }
  out(`${file}: ${exam.problems.length} problems in ${summary}; \`scheme-sim doctor --data ${file} --fix\` drops them`);
  return 1;
}
