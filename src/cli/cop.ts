// `scheme-sim cop ask ...`: a name verification asked through Form3's API of a running simulator
// (POST /v1/organisation/nameverifications), as the calling client's organisation; the participant
// serving the sort code answers (docs/cop.md, Asking).
import { randomUUID } from 'node:crypto';
import { CONNECTION, CONNECTION_HELP, connect, organisationOf, readAnswer } from './connection.ts';
import { parseCommand, unknownSubcommand, usageError } from './usage.ts';

export const COP_HELP = `Usage: scheme-sim cop ask --sort-code SC --account NUMBER --name NAME [options]

Asks whether NAME is the name of the account NUMBER at sort code SC, through Form3's name
verification API (POST /v1/organisation/nameverifications) as your client's organisation. The
participant serving SC answers with its registry; the answer is printed:
  confirmed
  rejected REASON_CODE (what it means)[: the name the bank holds, on a close match]
  delivery_failed: why (the bank refused or did not answer)
  no answer yet (a slow responder: GET the name verification later, or --wait)

  --sort-code SC        the payee's sort code (bank_id, GBDSC)
  --account NUMBER      the payee's account number
  --name NAME           the name to check; repeat for its parts (title, first names, surname)
  --business            ask about a business account (default: personal)
  --secondary-identification REF   a roll number or other reference the account needs
  --wait SECONDS        wait up to SECONDS of wall time for a late answer (default 0)
${CONNECTION_HELP}`;

const OPTIONS = {
  'sort-code': { type: 'string' },
  account: { type: 'string' },
  name: { type: 'string', multiple: true },
  business: { type: 'boolean', default: false },
  'secondary-identification': { type: 'string' },
  wait: { type: 'string' },
} as const;

interface Answer {
  status: string;
  answer?: string;
  reason_code?: string;
  reason?: string;
  actual_name?: string;
  status_reason?: string;
}

interface NameVerificationBody {
  data: {
    id: string;
    relationships?: { name_verification_submission?: { data: Array<{ attributes: Answer }> } };
  };
}

/** Runs `scheme-sim cop ...`; throws CliError for anything the user should fix. */
export async function copCommand(
  argv: string[],
  out: (line: string) => void = console.log,
  env = process.env,
  note?: (line: string) => void,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') return void out(COP_HELP);
  if (sub !== 'ask') throw unknownSubcommand('cop', sub, ['ask'], COP_HELP);
  const { values } = parseCommand(rest, { ...CONNECTION, ...OPTIONS }, COP_HELP);
  if (values.help) return void out(COP_HELP);
  const missing = ['sort-code', 'account', 'name'].filter((f) => values[f] === undefined);
  if (missing.length > 0) throw usageError(`cop ask needs ${missing.map((f) => `--${f}`).join(', ')}`, COP_HELP);
  const waitSeconds = values.wait === undefined ? 0 : Number(values.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0)
    throw usageError(`--wait takes a number of seconds, got '${String(values.wait)}'`, COP_HELP);

  const conn = await connect(values, env, note);
  const id = randomUUID();
  const attributes = {
    account_classification: values.business ? 'business' : 'personal',
    account_number: values.account,
    account_number_code: 'BBAN',
    bank_id: values['sort-code'],
    bank_id_code: 'GBDSC',
    name: values.name,
    ...(values['secondary-identification'] !== undefined
      ? { secondary_identification: values['secondary-identification'] }
      : {}),
  };
  const body = { data: { id, organisation_id: await organisationOf(conn), attributes } };
  await readAnswer(
    await conn.request('/v1/organisation/nameverifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    conn,
  );
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    const got = await readAnswer<NameVerificationBody>(
      await conn.request(`/v1/organisation/nameverifications/${id}`),
      conn,
    );
    const answer = got.data.relationships?.name_verification_submission?.data[0]?.attributes;
    if (answer || Date.now() >= deadline) {
      if (values.json) return void out(JSON.stringify(got, null, 2));
      return void out(`name verification ${id}: ${answer ? answerLine(answer) : 'no answer yet'}`);
    }
    await sleep(Math.min(250, Math.max(0, deadline - Date.now())));
  }
}

/** The answer in one line: confirmed; rejected with its code, words and held name; or why it failed. */
export function answerLine(a: Answer): string {
  if (a.status === 'delivery_failed') return `delivery_failed: ${a.status_reason ?? 'no reason given'}`;
  if (a.answer === 'confirmed') return 'confirmed';
  const code = a.reason_code ? ` ${a.reason_code}${a.reason ? ` (${a.reason})` : ''}` : '';
  return `${a.answer ?? a.status}${code}${a.actual_name !== undefined ? `: ${a.actual_name}` : ''}`;
}
