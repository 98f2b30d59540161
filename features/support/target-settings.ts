// The staging settings checked against staging itself, before the first scenario: a sort code or
// BIC not registered to the organisation, an organisation that is not the client's, a CoP
// participant, account, name or account type that does not answer as configured. Each wrong
// setting is one line naming it; a wrong CONFORMANCE_SORT_CODE is found here, not by 124 failed
// scenarios. Nothing is left behind: the account the check opens is deleted again at once, and a
// name verification creates no record.
import { randomUUID } from 'node:crypto';
import { signCopRequest } from '../../src/index.ts';
import type { CopRequester } from './cop-requester.ts';
import type { Settings } from './settings.ts';

export interface Answer {
  status: number;
  text: string;
  json: unknown;
}

/**
 * Sends a request to the target as the configured client (a token, or a signature); a string body
 * is sent as it is (the bytes a name verification's x-jws-signature signs).
 */
export type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

const messageOf = (a: Answer) =>
  ((a.json as { error_message?: string } | undefined)?.error_message ?? a.text)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);

/** What the settings must look like before the target is asked anything. */
function formatProblems(s: Settings): string[] {
  const out: string[] = [];
  if (!/^\d{6}$/.test(s.CONFORMANCE_SORT_CODE ?? ''))
    out.push(`CONFORMANCE_SORT_CODE must be a sort code of 6 digits, got '${s.CONFORMANCE_SORT_CODE}'`);
  if (!/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(s.CONFORMANCE_BIC ?? ''))
    out.push(`CONFORMANCE_BIC must be a BIC of 8 or 11 characters, got '${s.CONFORMANCE_BIC}'`);
  if (!/^\d{14}$/.test(s.CONFORMANCE_COP_ACCOUNT ?? ''))
    out.push(
      `CONFORMANCE_COP_ACCOUNT must be a sort code and account number, 14 digits, got '${s.CONFORMANCE_COP_ACCOUNT}'`,
    );
  return out;
}

/**
 * Opens an account with the configured sort code and BIC in the configured organisation, and
 * deletes it again: the target names what it refuses (Form3 requires both registered to the
 * organisation; the simulator's message names bank_id or bic).
 */
async function accountProblems(s: Settings, send: Send): Promise<string[]> {
  const id = randomUUID();
  const org = s.CONFORMANCE_ORGANISATION_ID!;
  const res = await send('POST', '/v1/organisation/accounts', {
    data: {
      id,
      organisation_id: org,
      type: 'accounts',
      attributes: {
        country: 'GB',
        bank_id: s.CONFORMANCE_SORT_CODE,
        bank_id_code: 'GBDSC',
        bic: s.CONFORMANCE_BIC,
        name: ['scheme-sim conformance preflight'],
        account_classification: 'Personal',
      },
    },
  });
  if (res.status === 201) {
    const gone = await send('DELETE', `/v1/organisation/accounts/${id}?version=0`);
    return gone.status === 204
      ? []
      : [
          `the preflight's account ${id} (organisation ${org}) could not be deleted again: ${gone.status} ${messageOf(gone)}; delete it by hand`,
        ];
  }
  const message = messageOf(res);
  if (res.status === 403)
    return [
      `CONFORMANCE_ORGANISATION_ID ${org} is not the organisation of CONFORMANCE_CLIENT_ID: ${res.status} ${message}`,
    ];
  if (res.status !== 400)
    return [`an account with CONFORMANCE_SORT_CODE and CONFORMANCE_BIC could not be checked: ${res.status} ${message}`];
  const out: string[] = [];
  if (/bank_?id/i.test(message))
    out.push(`CONFORMANCE_SORT_CODE ${s.CONFORMANCE_SORT_CODE} is refused for organisation ${org}: ${message}`);
  if (/\bbic\b/i.test(message))
    out.push(`CONFORMANCE_BIC ${s.CONFORMANCE_BIC} is refused for organisation ${org}: ${message}`);
  return out.length
    ? out
    : [`CONFORMANCE_SORT_CODE or CONFORMANCE_BIC: the target refused an account with them: ${message}`];
}

/**
 * Verifies the known account's held name at the configured participant: a match is expected. The
 * request is signed (x-jws-signature) when a requester identity is configured, as the steps sign it.
 */
async function copProblems(s: Settings, send: Send, requester: CopRequester | undefined): Promise<string[]> {
  const participant = s.CONFORMANCE_COP_PARTICIPANT_ID!;
  const account = s.CONFORMANCE_COP_ACCOUNT!;
  const name = s.CONFORMANCE_COP_ACCOUNT_NAME!;
  const type = s.CONFORMANCE_COP_ACCOUNT_TYPE ?? 'Personal';
  const body = JSON.stringify({
    Data: { SchemeName: 'SortCodeAccountNumber', AccountType: type, Identification: account, Name: name },
  });
  const headers: Record<string, string> = { 'x-fapi-financial-id': participant, 'x-fapi-interaction-id': randomUUID() };
  if (requester)
    headers['x-jws-signature'] = await signCopRequest(body, requester.key, {
      kid: requester.kid,
      iss: requester.iss,
      profile: requester.profile,
      iat: Math.floor(Date.now() / 1000) - 1,
    });
  const res = await send(
    'POST',
    `/v1/participants/${encodeURIComponent(participant)}/open-banking/v3.1/accounts/name-verification`,
    body,
    headers,
  );
  if (res.status === 404)
    return [
      `CONFORMANCE_COP_PARTICIPANT_ID ${participant}: the target has no such participant (404 ${messageOf(res)})`,
    ];
  if (res.status !== 200)
    return [`CONFORMANCE_COP_* could not be checked: name verification answered ${res.status} ${messageOf(res)}`];
  const report = (
    res.json as { Data?: { VerificationReport?: { Matched?: boolean; ReasonCode?: string; Name?: string } } }
  )?.Data?.VerificationReport;
  if (report?.Matched === true) return [];
  const code = report?.ReasonCode ?? 'no reason code';
  switch (code) {
    case 'AC01':
      return [`CONFORMANCE_COP_ACCOUNT ${account}: participant ${participant} holds no such account (AC01)`];
    case 'SCNS':
      return [`CONFORMANCE_COP_ACCOUNT ${account}: participant ${participant} does not serve its sort code (SCNS)`];
    case 'ANNM':
      return [`CONFORMANCE_COP_ACCOUNT_NAME "${name}" is not the name held on ${account} (ANNM)`];
    case 'MBAM':
      return [
        `CONFORMANCE_COP_ACCOUNT_NAME "${name}" is close to but not the name held on ${account}${report?.Name ? `, "${report.Name}"` : ''} (MBAM)`,
      ];
    case 'BANM':
    case 'PANM':
    case 'BAMM':
    case 'PAMM':
      return [`CONFORMANCE_COP_ACCOUNT_TYPE ${type} is not the type of account ${account} (${code})`];
    default:
      return [`CONFORMANCE_COP_ACCOUNT ${account} cannot be name-verified (${code}): configure another known account`];
  }
}

/** One line per setting the target does not bear out; none when every setting holds. */
export async function settingsAgainstTarget(
  settings: Settings,
  send: Send,
  requester?: CopRequester,
): Promise<string[]> {
  const out = formatProblems(settings);
  // The target is asked only about settings of the right form.
  if (!out.some((l) => /^CONFORMANCE_(SORT_CODE|BIC) /.test(l))) out.push(...(await accountProblems(settings, send)));
  if (!out.some((l) => l.startsWith('CONFORMANCE_COP_ACCOUNT ')))
    out.push(...(await copProblems(settings, send, requester)));
  return out;
}
