// Stateful chains: an operation on `/claims/{id}/reversals/{rid}` needs a claim and a reversal that
// exist. Each path parameter is filled from an earlier answer: a record the run creates through the
// document's own create operation (and then deletes where the document has a delete), else one the
// target lists, else one its parent's relationships name.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { claimAttributes } from '../../src/harness/claim-attributes.ts';
import type { Target } from '../support/targets.ts';
import type { ApiDocument, ApiOperation } from './api-document.ts';
import { type BodyContext, GENERATED_CALLBACK, putInContext, schemaName, typoOf } from './body-context.ts';
import type { Exchange, ExchangeClient } from './exchange-client.ts';
import { arbitraryOf } from './schema-arbitrary.ts';

type Json = Record<string, any>;

/** What made a record: its create exchange, to compare the read-back with. */
export interface Made {
  path: string;
  exchange: Exchange;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const singular = (segment: string) => segment.replace(/s$/, '');

export class PathInstances {
  /** Records created to fill paths or by valid cases, deleted at the end of the run (newest first). */
  readonly toDelete: Array<{ path: string; version: number }> = [];
  /** Claims submitted and processed, waiting to be reversed (each once). */
  private reversible: Array<{ claim: string; sequence: string }> = [];
  private reportType: string | undefined;
  /** Ids of records the run made, directly or by what it sent (a delivery of its own notification). */
  private readonly own = new Set<string>();
  private seedCounter = 0;
  /** Name verifications asked so far: each third by the held name, with a typo, or as generated. */
  private nameVerifications = 0;

  constructor(
    private readonly doc: ApiDocument,
    private readonly client: ExchangeClient,
    private readonly bank: BodyContext['bank'],
    private readonly cop: Target['cop'],
  ) {}

  /** The valid bodies of an operation, before context: the schema's arbitrary, filtered by its validator. */
  bodies(op: ApiOperation): fc.Arbitrary<Json> {
    const valid = this.doc.validator(op.body!);
    return arbitraryOf(op.body!, this.doc.resolve).filter((b) => valid(b)) as fc.Arbitrary<Json>;
  }

  async context(op: ApiOperation, random: () => number, claim?: { sequence: string }): Promise<BodyContext> {
    if (schemaName(op.body) === 'report-inject' && this.reportType === undefined) {
      const list = await this.client.send('GET', '/v1/notification/reports?page[size]=1');
      this.reportType = (list.answer.json as Json)?.data?.[0]?.attributes?.report_type ?? '';
    }
    void random;
    const kind = schemaName(op.body);
    const asked =
      kind === 'name-verification-request' || kind === 'name-verification-create'
        ? this.nameVerifications++ % 3
        : undefined;
    const name = asked === 0 ? typoOf(this.cop.name) : asked === 1 ? this.cop.name : undefined;
    return {
      organisationId: this.client.organisationId,
      bank: this.bank,
      ...(this.reportType ? { reportType: this.reportType } : {}),
      ...(claim ? { sequenceNumber: claim.sequence } : {}),
      ...(asked !== undefined
        ? {
            nameVerification: {
              identification: this.cop.account,
              accountType: this.cop.type,
              ...(name !== undefined ? { name } : {}),
            },
          }
        : {}),
    };
  }

  /** A body of the operation in context, sampled (for records a chain needs, not the case itself). */
  async sampleBody(op: ApiOperation): Promise<Json> {
    const seed = ++this.seedCounter;
    const [body] = fc.sample(this.bodies(op), { numRuns: 1, seed });
    let state = seed;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const made = putInContext(schemaName(op.body), structuredClone(body!), await this.context(op, random), random);
    if (schemaName(op.body) === 'scenario-create') await this.targetScenario(made);
    return made;
  }

  /** A claim submitted and processed a working day later, its sequence number known; used once. */
  async reversibleClaim(): Promise<{ claim: string; sequence: string } | undefined> {
    if (this.reversible.length === 0) {
      const made: Array<{ claim: string; submission: string }> = [];
      for (let i = 0; i < 5; i++) {
        const submitted = await this.submittedClaim();
        if (!submitted) return undefined;
        made.push(submitted);
      }
      const advanced = await this.client.send('POST', '/v1/simulator/clock/advance', { working_days: 1 });
      if (advanced.answer.status !== 200) return undefined;
      for (const m of made) {
        const read = await this.client.send('GET', `/v1/transaction/claims/${m.claim}/submissions/${m.submission}`);
        const sequence = (read.answer.json as Json)?.data?.attributes?.sequence_number;
        if (typeof sequence === 'string') this.reversible.push({ claim: m.claim, sequence });
      }
    }
    return this.reversible.shift();
  }

  /** A claim's scenario is played on a claim (or its submission) of the run's own, still pending. */
  async targetScenario(body: Json): Promise<void> {
    const scenario = body.data?.attributes;
    if (typeof scenario?.name !== 'string' || !/^claim(_submission)?\./.test(scenario.name)) return;
    const made = await this.submittedClaim();
    if (made) scenario.target_id = scenario.name.startsWith('claim_submission.') ? made.submission : made.claim;
  }

  /**
   * A claim the scheme's rules pass at validation (the harness's own, on the target's sort code),
   * submitted. Generated claims are valid by the schema but mostly fail the scheme's rules, which
   * apply later (decision 013), so they never reach the steps a reversal or a payment needs.
   */
  async submittedClaim(): Promise<{ claim: string; submission: string } | undefined> {
    const claim = randomUUID();
    const attributes = claimAttributes(['10.00'], {
      beneficiary_party: { account_number: '41426819', bank_id: this.bank.sort_code },
    });
    const organisation_id = this.client.organisationId;
    const made = await this.client.send('POST', '/v1/transaction/claims', {
      data: { id: claim, organisation_id, type: 'claims', attributes },
    });
    if (made.answer.status !== 201) return undefined;
    const submission = randomUUID();
    const submitted = await this.client.send('POST', `/v1/transaction/claims/${claim}/submissions`, {
      data: { id: submission, organisation_id, type: 'claim_submissions' },
    });
    return submitted.answer.status === 201 ? { claim, submission } : undefined;
  }

  /**
   * A payment of the caller's: the contra of a claim settled 14 working days after its submission.
   * The reversal pool is emptied: its claims' windows close on the way.
   */
  private async settledClaimPayment(): Promise<boolean> {
    if (!(await this.submittedClaim())) return false;
    const advanced = await this.client.send('POST', '/v1/simulator/clock/advance', { working_days: 14 });
    this.reversible = [];
    return advanced.answer.status === 200;
  }

  /**
   * Creates a record at a collection path through the document's create; the record's path, or
   * undefined. A reversal is made on a claim of its own that can be reversed, so its path names that claim.
   */
  async create(collection: string): Promise<string | undefined> {
    const template = this.templateOf(collection);
    const op = template ? this.doc.find('POST', template) : undefined;
    if (!op?.body) return undefined;
    let path = collection;
    let claim: { sequence: string; claim: string } | undefined;
    if (schemaName(op.body) === 'claim-reversal-create') {
      claim = await this.reversibleClaim();
      if (!claim) return undefined;
      path = collection.replace(/\/claims\/[^/]+\//, `/claims/${claim.claim}/`);
    }
    const body = await this.sampleBody(op);
    if (claim) body.data.attributes.original_instruction_id = claim.sequence;
    const made = await this.client.send('POST', path, body);
    const data = (made.answer.json as Json)?.data;
    if (made.answer.status >= 300 || typeof data?.id !== 'string') return undefined;
    this.remember(path, data);
    this.own.add(data.id);
    return `${path}/${data.id}`;
  }

  /**
   * A delivery of the run's own: a subscription to created accounts (its callback a closed local
   * port), then an account, whose notification the double tries to deliver. Its id, once listed.
   */
  private async delivery(): Promise<string | undefined> {
    const subscription = await this.client.send('POST', '/v1/notification/subscriptions', {
      data: {
        id: randomUUID(),
        organisation_id: this.client.organisationId,
        type: 'subscriptions',
        attributes: {
          event_type: 'created',
          record_type: 'accounts',
          callback_uris: [{ callback_transport: 'http', callback_uri: GENERATED_CALLBACK }],
        },
      },
    });
    const data = (subscription.answer.json as Json)?.data;
    if (subscription.answer.status !== 201 || !data) return undefined;
    this.remember('/v1/notification/subscriptions', data);
    if (!(await this.create('/v1/organisation/accounts'))) return undefined;
    for (let tries = 0; tries < 30; tries++) {
      const list = await this.client.send('GET', `/v1/simulator/deliveries?filter[subscription_id]=${data.id}`);
      const id = (list.answer.json as Json)?.data?.[0]?.id;
      if (typeof id === 'string') {
        this.own.add(id);
        return id;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  }

  /** Keeps a created record for deletion at the end, where the document has a delete for it. */
  remember(collection: string, data: Json): void {
    const template = this.templateOf(`${collection}/${data.id}`);
    if (template && this.doc.find('DELETE', template))
      this.toDelete.push({ path: `${collection}/${data.id}`, version: data.version ?? 0 });
  }

  /** Forgets a record the run deleted itself. */
  forget(path: string): void {
    this.toDelete.splice(0, this.toDelete.length, ...this.toDelete.filter((d) => d.path !== path));
  }

  /** The document's path template a concrete path is an instance of. */
  templateOf(path: string): string | undefined {
    const parts = path.split('/');
    return this.doc.operations
      .map((o) => o.path)
      .find((t) => {
        const tp = t.split('/');
        return tp.length === parts.length && tp.every((s, i) => /^\{.+\}$/.test(s) || s === parts[i]);
      });
  }

  /**
   * The operation's path with every parameter filled, each by a record made for it where the
   * document has a create (so each case has records of its own), else one listed or related.
   * Undefined when a parameter cannot be filled on this target.
   */
  async fill(op: ApiOperation): Promise<string | undefined> {
    const segments = op.path.split('/');
    let out: string[] = [];
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i]!;
      if (!/^\{.+\}$/.test(seg)) {
        out.push(seg);
        continue;
      }
      if (seg === '{open_banking_id}') {
        out.push(this.cop.participant);
        continue;
      }
      const collection = out.join('/');
      const made = await this.create(collection);
      if (made) {
        out = made.split('/');
        continue;
      }
      // Only a read may use a record the run did not make: a change, a delete or an action on
      // someone else's (a sandbox listed is the run's own sandbox) is never sent.
      const last = !segments.slice(i + 1).some((x) => /^\{.+\}$/.test(x));
      let id = await this.listed(collection);
      if (!id && i >= 2) id = await this.related(out.slice(0, -1).join('/'), segments[i - 1]!);
      if (!id && i >= 3 && op.method === 'GET') {
        // The parent made for it names none (the name verification the run asks is the payer's
        // side; the admission is on the payee's, a name verification of its own): a listed parent
        // that names one, for a read.
        const found = await this.relatedInList(out.slice(0, -2).join('/'), segments[i - 1]!);
        if (found) {
          out[out.length - 2] = found.parent;
          id = found.child;
        }
      }
      if (!id || (last && op.method !== 'GET' && !this.own.has(id))) return undefined;
      out.push(id);
    }
    return out.join('/');
  }

  private async listed(collection: string): Promise<string | undefined> {
    if (!this.templateOf(collection) || !this.doc.find('GET', this.templateOf(collection)!)) return undefined;
    let list = await this.client.send('GET', collection);
    const empty = !(list.answer.json as Json)?.data?.length;
    if (empty && collection === '/v1/transaction/payments' && (await this.settledClaimPayment()))
      list = await this.client.send('GET', collection);
    if (collection === '/v1/simulator/deliveries') {
      const made = await this.delivery();
      if (made) return made;
    }
    // Records only: a catalogue listed at the same path (scenarios) names its entries otherwise.
    const first = (list.answer.json as Json)?.data?.find((r: Json) => UUID.test(String(r?.id)));
    return first?.id;
  }

  /** An id the parent record's relationships name for a child collection (`admissions` → `*admission*`). */
  private async related(parent: string, segment: string): Promise<string | undefined> {
    const read = await this.client.send('GET', parent);
    const relationships = ((read.answer.json as Json)?.data?.relationships ?? {}) as Json;
    for (const [key, rel] of Object.entries(relationships))
      if (key.includes(singular(segment)) && typeof rel?.data?.[0]?.id === 'string') return rel.data[0].id;
    return undefined;
  }

  /** A record of a listed collection whose relationships name a child of `segment`, with that child's id. */
  private async relatedInList(
    collection: string,
    segment: string,
  ): Promise<{ parent: string; child: string } | undefined> {
    const list = await this.client.send('GET', `${collection}?page[size]=100`);
    for (const record of ((list.answer.json as Json)?.data ?? []) as Json[]) {
      if (!UUID.test(String(record?.id))) continue;
      const child = await this.related(`${collection}/${record.id}`, segment);
      if (child) return { parent: record.id, child };
    }
    return undefined;
  }

  /** Deletes what the run created and the document lets it delete; the paths it could not. */
  async cleanUp(): Promise<string[]> {
    const left: string[] = [];
    for (const d of this.toDelete.reverse()) {
      const res = await this.client.send('DELETE', `${d.path}?version=${d.version}`);
      if (res.answer.status >= 300 && res.answer.status !== 404) left.push(`${d.path}: ${res.answer.status}`);
    }
    this.toDelete.length = 0;
    return left;
  }
}
