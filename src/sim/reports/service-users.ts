// Who a report is addressed to: the organisation's Bacs service user (number, name, sponsor, its
// originating accounts) and its Faster Payments identity (its sort code, the participants it
// sponsors). Read from fixtures/reports/service-users.json; an organisation missing there gets
// values derived from its id, so a team's own organisations still get complete reports.
import { createHash } from 'node:crypto';
import type { Organisation } from '../organisations.ts';

export interface OriginatingAccount {
  name: string;
  sort_code: string;
  account_number: string;
  bank_name: string;
  branch_name: string;
}

export interface ServiceUser {
  organisation_id: string;
  /** Bacs service user number (SUN): 6 digits. */
  service_user_number: string;
  /** The service user's name as Bacs prints it: at most 18 characters of the Bacs set. */
  service_user_name: string;
  /** The sponsoring bank named in input reports. */
  sponsor_name: string;
  /** The sort code that identifies the organisation in Faster Payments reports. */
  fps_participant_sort_code: string;
  originating_accounts: OriginatingAccount[];
  /** Participants the organisation sponsors in Faster Payments (the sponsored participant report). */
  sponsored_participants: Array<{ name: string; sort_code: string }>;
}

const SIX_DIGITS = /^\d{6}$/;
const EIGHT_DIGITS = /^\d{8}$/;
/** Characters Bacs carries in names and references. */
const BACS_TEXT = /^[A-Z0-9 .&/-]{1,18}$/;

/** The text as Bacs carries it: upper case, characters outside its set dropped, at most `max`. */
export function bacsText(s: string, max = 18): string {
  return s
    .toUpperCase()
    .replace(/[^A-Z0-9 .&/-]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

/** Checks the fixture, naming the entry and the field of the first problem. */
export function validateServiceUsers(entries: unknown): ServiceUser[] {
  if (!Array.isArray(entries)) throw new Error('service users must be an array');
  return entries.map((raw, i) => {
    const e = raw as ServiceUser;
    const where = `service user entry ${i} (${e?.organisation_id ?? '?'})`;
    const need = (ok: boolean, what: string) => {
      if (!ok) throw new Error(`${where}: ${what}`);
    };
    need(typeof e === 'object' && e !== null, 'must be an object');
    need(typeof e.organisation_id === 'string' && e.organisation_id.length > 0, 'organisation_id is required');
    need(SIX_DIGITS.test(e.service_user_number ?? ''), 'service_user_number must be 6 digits');
    need(BACS_TEXT.test(e.service_user_name ?? ''), 'service_user_name must be 1-18 characters of A-Z 0-9 . & / -');
    need(typeof e.sponsor_name === 'string' && e.sponsor_name.length > 0, 'sponsor_name is required');
    need(SIX_DIGITS.test(e.fps_participant_sort_code ?? ''), 'fps_participant_sort_code must be 6 digits');
    need(
      Array.isArray(e.originating_accounts) && e.originating_accounts.length > 0,
      'originating_accounts must list at least one account',
    );
    e.originating_accounts.forEach((a, j) => {
      need(BACS_TEXT.test(a?.name ?? ''), `originating_accounts[${j}].name must be 1-18 Bacs characters`);
      need(SIX_DIGITS.test(a.sort_code ?? ''), `originating_accounts[${j}].sort_code must be 6 digits`);
      need(EIGHT_DIGITS.test(a.account_number ?? ''), `originating_accounts[${j}].account_number must be 8 digits`);
      need(
        typeof a.bank_name === 'string' && typeof a.branch_name === 'string',
        `originating_accounts[${j}] needs bank_name and branch_name`,
      );
    });
    need(Array.isArray(e.sponsored_participants), 'sponsored_participants must be an array (may be empty)');
    e.sponsored_participants.forEach((p, j) => {
      need(typeof p?.name === 'string' && p.name.length > 0, `sponsored_participants[${j}].name is required`);
      need(SIX_DIGITS.test(p.sort_code ?? ''), `sponsored_participants[${j}].sort_code must be 6 digits`);
    });
    return e;
  });
}

/** Digits drawn from a hash of the name: the same organisation always gets the same numbers. */
function digits(name: string, n: number): string {
  const h = createHash('sha256').update(name).digest();
  let s = '';
  for (let i = 0; s.length < n; i++) s += String(h[i % h.length]! % 10);
  return s;
}

/** The service user of an organisation: its fixture entry, or one derived from its id and name. */
export function serviceUserOf(organisation: Organisation, configured: readonly ServiceUser[]): ServiceUser {
  const found = configured.find((s) => s.organisation_id === organisation.id);
  if (found) return found;
  const name = bacsText(organisation.name) || 'SERVICE USER';
  const sortCode = `40${digits(`sort|${organisation.id}`, 4)}`;
  return {
    organisation_id: organisation.id,
    service_user_number: digits(`sun|${organisation.id}`, 6),
    service_user_name: name,
    sponsor_name: bacsText(organisation.name, 35) || name,
    fps_participant_sort_code: sortCode,
    originating_accounts: [
      {
        name,
        sort_code: sortCode,
        account_number: digits(`account|${organisation.id}`, 8),
        bank_name: bacsText(organisation.name, 35) || name,
        branch_name: 'HEAD OFFICE',
      },
    ],
    sponsored_participants: [],
  };
}
