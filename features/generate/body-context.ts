// A body the schema allows is not yet one the target accepts: the rules beyond the schema (named
// in each operation's description) tie it to the caller and the target's state. This puts the
// caller's organisation, fresh ids and the target's registered bank into a generated body, and keeps
// the simulator's controls harmless to the rest of the run (a short advance, a fault that never
// fires). Everything else stays as generated.
import { randomInt, randomUUID } from 'node:crypto';

type Json = Record<string, any>;

/** What a body is put in context with: the caller and what the target already holds. */
export interface BodyContext {
  organisationId: string;
  bank: { sort_code: string; bic: string };
  /** A report type of the target's catalogue, when the target has one. */
  reportType?: string;
  /** The sequence number to quote, for a reversal. */
  sequenceNumber?: string;
  /**
   * A name verification's account: the target's known one (Target.cop), asked by its held name,
   * by that name with a typo, or (no `name`) by the name as generated.
   */
  nameVerification?: { identification: string; accountType: string; name?: string };
}

/** The schema's name in the document: `#/components/schemas/account-create` → `account-create`. */
export const schemaName = (ref: unknown): string =>
  typeof ref === 'object' && ref && typeof (ref as Json).$ref === 'string'
    ? ((ref as Json).$ref as string).split('/').pop()!
    : '';

/** A route no request of the run asks for: a fault on it never fires. */
export const NEVER_REQUESTED_ROUTE = '/v1/generated-checks/never-requested';
/** Where generated subscriptions would deliver: a closed local port, never the simulator itself. */
export const GENERATED_CALLBACK = 'http://127.0.0.1:9/generated-checks';

const attrs = (body: Json): Json | undefined =>
  body?.data?.attributes && typeof body.data.attributes === 'object' ? body.data.attributes : undefined;

/**
 * A name with one typo: its last two different letters swapped (Samantha Holder → Samantha
 * Holdre), the kind of slip a matcher calls a close match.
 */
export function typoOf(name: string): string {
  for (let i = name.length - 2; i >= 0; i--) {
    const [a, b] = [name[i]!, name[i + 1]!];
    if (a !== b && /\p{L}/u.test(a) && /\p{L}/u.test(b)) return `${name.slice(0, i)}${b}${a}${name.slice(i + 2)}`;
  }
  return name;
}

/** One body put in context, in place; the schema's name says which rules apply. */
export function putInContext(name: string, body: Json, ctx: BodyContext, random: () => number): Json {
  if (body && typeof body === 'object') {
    if (body.data && typeof body.data === 'object') {
      // Ids are the client's choice and used once: a fresh one each send (shrinking repeats values).
      if ('id' in body.data) body.data.id = randomUUID();
      if ('organisation_id' in body.data) body.data.organisation_id = ctx.organisationId;
    }
    if ('organisation_id' in body) body.organisation_id = ctx.organisationId;
  }
  const a = attrs(body);
  switch (name) {
    case 'account-create': {
      // Form3's rules for GB accounts on one of the organisation's registered sort codes.
      if (!a) break;
      Object.assign(a, {
        country: 'GB',
        bank_id: ctx.bank.sort_code,
        bic: ctx.bank.bic,
        bank_id_code: 'GBDSC',
        // Used once per bank like an id (a duplicate is a 409), so fresh each send as ids are.
        account_number: String(randomInt(1e8)).padStart(8, '0'),
      });
      a.name ??= ['Generated Holder'];
      delete a.iban;
      delete a.switched_account_details;
      break;
    }
    case 'account-update':
      // A change keeps the account on a registered bank, within the GB rules (ACCOUNT_CHANGE_RULES).
      if (!a) break;
      for (const k of ['country', 'bank_id', 'bic', 'bank_id_code', 'account_number', 'iban']) delete a[k];
      delete a.switched_account_details;
      break;
    case 'subscription-create':
    case 'subscription-update': {
      if (!a) break;
      delete a.callback_transport;
      delete a.callback_uri;
      delete a.filter;
      if (name === 'subscription-create' || a.callback_uris)
        a.callback_uris = [{ callback_transport: 'http', callback_uri: GENERATED_CALLBACK }];
      if (Array.isArray(a.user_defined_data))
        a.user_defined_data = a.user_defined_data.filter(
          (d: Json, i: number, all: Json[]) => all.findIndex((o) => o.key === d.key) === i,
        );
      break;
    }
    case 'name-verification-request': {
      // The known account, so the matcher's answer is about the name: exact, close (a typo) or other.
      const data = body?.Data;
      if (!ctx.nameVerification || !data || typeof data !== 'object') break;
      Object.assign(data, {
        SchemeName: 'SortCodeAccountNumber',
        AccountType: ctx.nameVerification.accountType,
        Identification: ctx.nameVerification.identification,
      });
      if (ctx.nameVerification.name !== undefined) data.Name = ctx.nameVerification.name;
      delete data.SecondaryIdentification;
      break;
    }
    case 'name-verification-create': {
      // Of the known account (sort code and number from its identification), so the payee's bank
      // (the caller's own organisation on the simulator) gets an admission a read can find.
      if (!a || !ctx.nameVerification) break;
      const id = ctx.nameVerification.identification;
      Object.assign(a, {
        account_classification: ctx.nameVerification.accountType.toLowerCase(),
        account_number: id.slice(6),
        account_number_code: 'BBAN',
        bank_id: id.slice(0, 6),
        bank_id_code: 'GBDSC',
        name: [ctx.nameVerification.name ?? 'Generated Holder'],
      });
      delete a.verification_scheme;
      delete a.id_code_type;
      break;
    }
    case 'claim-reversal-create':
      if (a && ctx.sequenceNumber) a.original_instruction_id = ctx.sequenceNumber;
      break;
    case 'clock-advance': {
      // At most two working days: a run of thousands of cases must not walk the clock out of the
      // dates the simulator supports, nor past the reversal windows the run's claims are in.
      const n = Math.floor(random() * 3);
      for (const k of Object.keys(body)) delete body[k];
      Object.assign(body, random() < 0.5 ? { working_days: n } : { hours: n });
      break;
    }
    case 'clock-resume':
      if (typeof body.speed === 'number') body.speed = Math.min(body.speed, 1);
      break;
    case 'fault-create':
      if (a) a.route = NEVER_REQUESTED_ROUTE;
      break;
    case 'sandbox-create':
      if (a) {
        delete a.expires_at;
        a.lifetime_seconds = 600;
      }
      break;
    case 'report-inject':
      // Rows fit one report type's fields (a rule its description names); without them the
      // simulator makes the report's own.
      if (ctx.reportType) body.report_type = ctx.reportType;
      delete body.rows;
      break;
    case 'simulator-reset':
      // The caller's organisation only: the clock and the other organisations stay as they are.
      body.scope = 'organisation';
      break;
  }
  return body;
}
