// One generated case of one operation, sent and judged. A valid case must be answered with the
// documented success, its body valid against the answer's schema, and read back equal where the API
// reads back; an invalid case breaks one constraint and must be refused with a 4xx in the
// operation's error shape, naming the field.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { ApiDocument, ApiOperation } from './api-document.ts';
import { putInContext, schemaName } from './body-context.ts';
import type { Exchange, ExchangeClient, SendOptions } from './exchange-client.ts';
import type { PathInstances } from './path-instances.ts';
import { applyViolation, fieldOf, violationsOf } from './schema-violations.ts';

type Json = Record<string, any>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a case came to: passed, or failed with why; the last exchange it sent. */
export interface CaseResult {
  ok: boolean;
  /** Valid cases refused by a rule the operation's description names (not a failure). */
  documented?: boolean;
  problem?: string;
  /** The constraint an invalid case broke (`pattern at data.attributes.bank_id`). */
  broke?: string;
  exchange?: Exchange;
}

export interface ValidInput {
  body?: Json;
  pageSize?: number;
  salt: number;
}
export interface InvalidInput extends ValidInput {
  pick: number;
  badValue: number | string;
  /** The break to make (`pattern at data.attributes.bank_id`), in place of the one `pick` chooses: minimising keeps it. */
  force?: string;
}

/** The run's arbitrary of a valid input for an operation. */
export function validInputs(op: ApiOperation, instances: PathInstances): fc.Arbitrary<ValidInput> {
  return fc.record({
    ...(op.body ? { body: instances.bodies(op) } : {}),
    ...(op.paged ? { pageSize: fc.integer({ min: 1, max: 1000 }) } : {}),
    salt: fc.nat(),
  }) as fc.Arbitrary<ValidInput>;
}

export function invalidInputs(op: ApiOperation, instances: PathInstances): fc.Arbitrary<InvalidInput> {
  return fc.record({
    ...(op.body ? { body: instances.bodies(op) } : {}),
    salt: fc.nat(),
    pick: fc.nat(),
    badValue: fc.constantFrom<number | string>(0, 1001, 'many'),
  }) as fc.Arbitrary<InvalidInput>;
}

const lineOf = (a: Exchange['answer']): string => {
  const j = a.json as Json | undefined;
  return String(j?.error_message ?? j?.Message ?? j?.error_description ?? a.text)
    .replace(/\s+/g, ' ')
    .slice(0, 300);
};

/**
 * A record read back is the one answered: equal as a whole, or, where the double's own processing
 * has moved it on since (a higher version: a name verification's submission answered), equal in
 * what the client gave and the record's identity.
 */
export function sameRecord(read: Json | undefined, answered: Json | undefined): boolean {
  if (isDeepStrictEqual(read, answered)) return true;
  // A sandbox shows its world's live state beside its record: its clock and how much it holds.
  if (read?.type === 'sandboxes' && answered?.type === 'sandboxes') {
    const record = (r: Json) => ({ ...r, attributes: { ...r.attributes, clock: undefined, record_count: undefined } });
    return isDeepStrictEqual(record(read), record(answered));
  }
  if (!read || !answered || !(read.version > answered.version)) return false;
  const identity = (r: Json) => ({
    id: r.id,
    type: r.type,
    organisation_id: r.organisation_id,
    created_on: r.created_on,
    attributes: r.attributes,
  });
  return isDeepStrictEqual(identity(read), identity(answered));
}

/** Where two values differ, as JSON paths with both values (secrets masked), at most five. */
export function differences(read: unknown, answered: unknown, path = ''): string {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (out.length >= 5 || isDeepStrictEqual(a, b)) return;
    if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk((a as Json)[k], (b as Json)[k], `${at}.${k}`);
      return;
    }
    const shown = (v: unknown) => (/secret|token|password/i.test(at) ? '***' : JSON.stringify(v));
    out.push(`${at || '.'} read ${shown(a)}, answered ${shown(b)}`);
  };
  walk(read, answered, path);
  return out.join('; ');
}

/** A generator of numbers in [0, 1) from a case's salt, so a case replays the same. */
function randomOf(salt: number): () => number {
  let state = salt % 2147483647 || 1;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

export class OperationCases {
  constructor(
    private readonly doc: ApiDocument,
    private readonly client: ExchangeClient,
    private readonly instances: PathInstances,
    private readonly participant: string,
  ) {}

  private options(op: ApiOperation): SendOptions {
    if (op.path === '/v1/oauth2/token')
      return { raw: { contentType: 'application/x-www-form-urlencoded', text: 'grant_type=client_credentials' } };
    if (op.path.endsWith('/stream')) return { headersOnly: true };
    return {};
  }

  /** The path and body of a case, in context; undefined where this target cannot give the records it needs. */
  private async prepare(op: ApiOperation, input: ValidInput): Promise<{ path: string; body?: Json } | undefined> {
    const name = schemaName(op.body);
    let path: string | undefined;
    let claim: { claim: string; sequence: string } | undefined;
    if (name === 'claim-reversal-create') {
      claim = await this.instances.reversibleClaim();
      path = claim && `/v1/transaction/claims/${claim.claim}/reversals`;
    } else path = await this.instances.fill(op);
    if (!path) return undefined;
    // A change or a delete quotes the record's version (and a change its id): read it first.
    let current: Json | undefined;
    if (op.method === 'PATCH' || (op.method === 'DELETE' && op.pathParams.length > 0)) {
      const read = await this.client.send('GET', path);
      current = (read.answer.json as Json | undefined)?.data;
    }
    if (op.method === 'DELETE' && typeof current?.version === 'number') path = `${path}?version=${current.version}`;
    if (!op.body) return { path };
    const random = randomOf(input.salt);
    const body = putInContext(
      name,
      structuredClone(input.body!),
      await this.instances.context(op, random, claim),
      random,
    );
    if (name === 'scenario-create') await this.instances.targetScenario(body);
    if (op.method === 'PATCH' && body.data && typeof body.data === 'object' && current) {
      if ('id' in body.data) body.data.id = current.id;
      if ('version' in body.data) body.data.version = current.version;
    }
    return { path, body };
  }

  async valid(op: ApiOperation, input: ValidInput): Promise<CaseResult> {
    const prepared = await this.prepare(op, input);
    if (!prepared)
      return { ok: true, problem: 'unexercisable: a record its path needs cannot be made or found on this target' };
    if (prepared.body && this.doc.problem(op.body!, prepared.body) !== undefined) fc.pre(false);
    const query = input.pageSize !== undefined ? `?page[size]=${input.pageSize}` : '';
    const sent = await this.client.send(op.method, `${prepared.path}${query}`, prepared.body, this.options(op));
    const { answer } = sent;
    if (answer.status !== op.status) {
      const line = lineOf(answer);
      if (op.documented.some((d) => d.status === answer.status && d.line.test(line)))
        return { ok: true, documented: true, exchange: sent };
      return { ok: false, problem: `expected ${op.status}, got ${answer.status}: ${line}`, exchange: sent };
    }
    if (op.answer && !this.options(op).headersOnly) {
      const problem = this.doc.problem(op.answer, answer.json);
      if (problem) return { ok: false, problem: `the answer breaks its schema: ${problem}`, exchange: sent };
    }
    const readBack = await this.readBack(op, prepared.path, sent);
    return readBack ? { ok: false, problem: readBack, exchange: sent } : { ok: true, exchange: sent };
  }

  /** Where the API reads back, what it reads back must equal what the change answered. */
  private async readBack(op: ApiOperation, path: string, sent: Exchange): Promise<string | undefined> {
    const data = (sent.answer.json as Json | undefined)?.data;
    if (op.method === 'POST' && typeof data?.id === 'string') {
      const item = `${path}/${data.id}`;
      const template = this.instances.templateOf(item);
      if (!template || !this.doc.find('GET', template)) return undefined;
      this.instances.remember(path, data);
      const read = await this.client.send('GET', item);
      if (read.answer.status !== 200) {
        // A read the document says this caller may be refused (a sandbox made under --sandboxes
        // open by another sandbox's client is not told of to it) is no failure of the create.
        const line = lineOf(read.answer);
        const get = this.doc.find('GET', template)!;
        if (get.documented.some((d) => d.status === read.answer.status && d.line.test(line))) return undefined;
        return `GET ${item} after the create answered ${read.answer.status}`;
      }
      if (!sameRecord((read.answer.json as Json).data, data))
        return `GET ${item} reads back other values than the create answered: ${differences((read.answer.json as Json).data, data)}`;
      if (this.doc.find('GET', this.instances.templateOf(path) ?? '')) return this.listed(path, data.id);
      return undefined;
    }
    if (op.method === 'PATCH') {
      const read = await this.client.send('GET', path);
      if (!sameRecord((read.answer.json as Json)?.data, data))
        return `GET ${path} reads back other values than the change answered: ${differences((read.answer.json as Json)?.data, data)}`;
      this.instances.forget(path);
      this.instances.remember(path.slice(0, path.lastIndexOf('/')), data);
      return undefined;
    }
    if (op.method === 'DELETE' && op.pathParams.length > 0) {
      const item = path.split('?')[0]!;
      this.instances.forget(item);
      const read = await this.client.send('GET', item);
      if (this.doc.find('GET', op.path) && read.answer.status !== 404)
        return `GET ${path} after the delete answered ${read.answer.status}, not 404`;
    }
    return undefined;
  }

  /** The list has the record just made, on one of its pages. */
  private async listed(collection: string, id: string): Promise<string | undefined> {
    let next: string | undefined = `${collection}?page[size]=1000`;
    for (let page = 0; next && page < 20; page++) {
      const list = await this.client.send('GET', next);
      const body = list.answer.json as Json;
      if (list.answer.status !== 200) return `GET ${next} answered ${list.answer.status}`;
      if ((body.data as Json[]).some((r) => r.id === id)) return undefined;
      // A catalogue at the collection's path (scenarios: the played ones are listed elsewhere).
      if (page === 0 && !(body.data as Json[]).some((r) => UUID.test(String(r.id)))) return undefined;
      next = typeof body.links?.next === 'string' ? body.links.next.replace(/^https?:\/\/[^/]+/, '') : undefined;
    }
    return `GET ${collection} does not list ${id}, which it created`;
  }

  async invalid(op: ApiOperation, input: InvalidInput): Promise<CaseResult> {
    // Without a body, what is broken is the path, a parameter or the credentials: ids of records
    // that do not exist do as well as real ones where the target has none to give.
    const prepared =
      (await this.prepare(op, input)) ??
      (op.body
        ? undefined
        : { path: op.path.replace(/\{open_banking_id\}/, this.participant).replace(/\{[^}]+\}/g, () => randomUUID()) });
    if (!prepared)
      return { ok: true, problem: 'unexercisable: a record its path needs cannot be made or found on this target' };
    let path = prepared.path;
    let body = prepared.body;
    let broke: string;
    let field: string | undefined;
    let sendOptions: SendOptions = this.options(op);
    if (body) {
      const valid = this.doc.validator(op.body!);
      if (!valid(body)) fc.pre(false);
      const breaks = violationsOf(op.body!, body, this.doc.resolve).filter((v) => !valid(applyViolation(body, v)));
      if (breaks.length === 0) fc.pre(false);
      const v = input.force
        ? breaks.find((b) => `${b.rule} at ${b.path.join('.')}` === input.force)
        : breaks[input.pick % breaks.length]!;
      if (!v) return { ok: true, problem: `${input.force} is no longer in the body` };
      body = applyViolation(body, v) as Json;
      broke = `${v.rule} at ${v.path.join('.')}`;
      field = fieldOf(v.path);
    } else {
      const breaks = this.parameterBreaks(op);
      if (breaks.length === 0) return { ok: true, problem: 'nothing to break: no body, parameter or credentials' };
      const b = breaks[input.pick % breaks.length]!;
      if (b === 'id') path = path.replace(/\/[^/]+$/, '/not-a-uuid');
      if (b === 'page[size]') path = `${path}?page[size]=${input.badValue}`;
      if (b === 'filter') path = `${path}?filter[zz_generated]=x`;
      if (b === 'credentials') sendOptions = { ...sendOptions, anonymous: true };
      if (b === 'grant_type')
        sendOptions = { raw: { contentType: 'application/x-www-form-urlencoded', text: 'grant_type=password' } };
      broke = b === 'credentials' ? 'credentials missing' : `${b} malformed`;
      field = b === 'credentials' ? undefined : b;
    }
    const sent = await this.client.send(op.method, path, body, sendOptions);
    const { answer } = sent;
    const fail = (problem: string): CaseResult => ({ ok: false, problem, broke, exchange: sent });
    // A rule the description names may refuse the request before its body is read (a caller that
    // may not create sandboxes at all): refused as documented, whatever the body.
    if (op.documented.some((d) => d.status === answer.status && d.line.test(lineOf(answer))))
      return { ok: true, documented: true, broke, exchange: sent };
    if (answer.status < 400 || answer.status >= 500)
      return fail(`${broke}: expected a 4xx, got ${answer.status}: ${answer.text.slice(0, 200)}`);
    const errorSchema = op.error ?? { $ref: '#/components/schemas/error' };
    if (answer.status !== 401) {
      const problem = this.doc.problem(errorSchema, answer.json);
      if (problem) return fail(`${broke}: the ${answer.status} is not in the error shape: ${problem}`);
    }
    if (field && !answer.text.includes(field))
      return fail(`${broke}: the ${answer.status} does not name ${field}: ${lineOf(answer)}`);
    return { ok: true, broke, exchange: sent };
  }

  /** What an operation without a body has to break: a malformed id, a bad page size, an unknown filter, no credentials. */
  parameterBreaks(op: ApiOperation): string[] {
    const out: string[] = [];
    const last = op.path.split('/').pop()!;
    if (/^\{.+\}$/.test(last) && last !== '{open_banking_id}') out.push('id');
    if (op.paged) out.push('page[size]');
    if (op.filters.length > 0) out.push('filter');
    if (!op.open) out.push('credentials');
    if (op.path === '/v1/oauth2/token') out.push('grant_type');
    return out;
  }
}
