import type { Collection } from '../collection.ts';
import { conflict, invalid } from '../errors.ts';
import type { EventType } from '../events.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { knownResourceTypes, registerSelfPath, type Resource } from '../resource.ts';
import { secretProblem } from './signing.ts';

export type CallbackTransport = 'http' | 'queue';

/** Exact-match conditions on the record: dotted path into the resource → expected value. */
export type SubscriptionFilter = Record<string, string | number | boolean>;

export interface SubscriptionAttributes {
  event_type: EventType;
  record_type: string;
  callback_transport: CallbackTransport;
  callback_uri: string;
  deactivated: boolean;
  filter?: SubscriptionFilter;
  user_defined_data?: Array<{ key: string; value: string }>;
  /** Whether a signing secret is set; the secret itself is write-only. */
  has_secret: boolean;
}

export type Subscription = Resource<SubscriptionAttributes>;

export const SUBSCRIPTION_TYPE = 'subscriptions';
export const SUBSCRIPTION_FILTERS = ['event_type', 'record_type', 'callback_transport', 'deactivated'] as const;
export type SubscriptionListFilter = Partial<Record<(typeof SUBSCRIPTION_FILTERS)[number], string>>;
export const MAX_USER_DEFINED_DATA = 5;

registerSelfPath(SUBSCRIPTION_TYPE, (r) => `/v1/notification/subscriptions/${r.id}`);

/** What a client may send as attributes (after the JSON Schema has checked shapes). */
export interface SubscriptionInput {
  event_type?: EventType;
  record_type?: string;
  callback_transport?: CallbackTransport;
  callback_uri?: string;
  deactivated?: boolean;
  filter?: SubscriptionFilter | null;
  user_defined_data?: Array<{ key: string; value: string }> | null;
  /** Standard Webhooks secret (`whsec_…`); null removes it. */
  secret?: string | null;
}

const QUEUE_NAME_RE = /^[A-Za-z0-9_-]{1,80}(\.fifo)?$/;

/** Why `uri` cannot be a callback for `transport`, or undefined. */
export function callbackUriProblem(transport: CallbackTransport, uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'callback_uri in body must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'callback_uri in body must use http or https';
  if (url.username || url.password) return 'callback_uri in body must not carry credentials';
  if (transport === 'queue') {
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts.length !== 2 || !QUEUE_NAME_RE.test(parts[1]!) || url.search) {
      return 'callback_uri in body must be an SQS queue URL (http(s)://host/<account>/<queue-name>) for callback_transport queue';
    }
  }
  return undefined;
}

function problems(a: SubscriptionAttributes, secret: string | null | undefined): string[] {
  const out: string[] = [];
  const known = knownResourceTypes();
  if (!known.includes(a.record_type)) out.push(`record_type in body should be one of [${known.join(' ')}]`);
  const uri = callbackUriProblem(a.callback_transport, a.callback_uri);
  if (uri) out.push(uri);
  const udd = a.user_defined_data ?? [];
  if (udd.length > MAX_USER_DEFINED_DATA) out.push(`user_defined_data in body should have at most ${MAX_USER_DEFINED_DATA} items`);
  const keys = new Set(udd.map((p) => p.key));
  if (keys.size !== udd.length) out.push('user_defined_data in body should not repeat a key');
  if (typeof secret === 'string') {
    const p = secretProblem(secret);
    if (p) out.push(`secret in body ${p}`);
  }
  return out;
}

function apply(base: SubscriptionAttributes, input: SubscriptionInput, hasSecret: boolean): SubscriptionAttributes {
  const next: SubscriptionAttributes = { ...base, has_secret: hasSecret };
  for (const k of ['event_type', 'record_type', 'callback_transport', 'callback_uri', 'deactivated'] as const) {
    if (input[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = input[k];
  }
  if (input.filter === null) delete next.filter;
  else if (input.filter !== undefined) next.filter = input.filter;
  if (input.user_defined_data === null) delete next.user_defined_data;
  else if (input.user_defined_data !== undefined) next.user_defined_data = input.user_defined_data;
  return next;
}

const matchKey = (organisationId: string, eventType: string, recordType: string) => `${organisationId}|${eventType}|${recordType}`;

/** Who wants to hear about which changes, and where to send it. */
export class Subscriptions {
  readonly repo: Repository<SubscriptionAttributes>;
  /** Signing secrets, kept apart from the record so no representation can carry them. */
  readonly #secrets: Collection<{ id: string; secret: string }>;

  constructor(ctx: RepositoryContext) {
    this.repo = new Repository<SubscriptionAttributes>(ctx, SUBSCRIPTION_TYPE, {
      duplicate: 'Subscription cannot be created as it violates a duplicate constraint',
    });
    this.repo.rows.defineIndex('match', (s) => matchKey(s.organisation_id, s.attributes.event_type, s.attributes.record_type));
    this.#secrets = ctx.store.collection('subscription_secrets');
  }

  create(input: { id: string; organisation_id: string; attributes: SubscriptionInput }): Subscription {
    const a = input.attributes;
    const attributes = apply(
      { event_type: a.event_type!, record_type: a.record_type!, callback_transport: a.callback_transport!, callback_uri: a.callback_uri!, deactivated: false, has_secret: false },
      a,
      typeof a.secret === 'string',
    );
    const bad = problems(attributes, a.secret);
    if (bad.length) throw invalid(`validation failure list: ${bad.join('; ')}`);
    if (this.repo.rows.has(input.id)) throw conflict('Subscription cannot be created as it violates a duplicate constraint');
    if (typeof a.secret === 'string') this.#secrets.put({ id: input.id, secret: a.secret });
    return this.repo.create({ id: input.id, organisation_id: input.organisation_id, attributes });
  }

  get(id: string, organisationId?: string): Subscription {
    return this.repo.get(id, organisationId);
  }

  find(id: string): Subscription | undefined {
    return this.repo.find(id);
  }

  list(organisationId: string, filter: SubscriptionListFilter = {}): Subscription[] {
    const entries = Object.entries(filter).filter(([, v]) => v !== undefined);
    return this.repo.listFor(organisationId).filter((s) => entries.every(([k, v]) => String(s.attributes[k as keyof SubscriptionAttributes]) === v));
  }

  update(id: string, organisationId: string, version: number, input: SubscriptionInput): Subscription {
    const current = this.get(id, organisationId);
    if (version !== current.version) throw conflict('invalid version');
    const hasSecret = input.secret === undefined ? current.attributes.has_secret : input.secret !== null;
    const attributes = apply(current.attributes, input, hasSecret);
    const bad = problems(attributes, input.secret);
    if (bad.length) throw invalid(`validation failure list: ${bad.join('; ')}`);
    if (input.secret === null) this.#secrets.delete(id);
    else if (typeof input.secret === 'string') this.#secrets.put({ id, secret: input.secret });
    return this.repo.update(id, organisationId, (s) => ({ ...s, attributes }), version);
  }

  /** Deactivates (the callback answered 410 Gone); an update like any other. */
  deactivate(id: string): Subscription | undefined {
    const s = this.repo.find(id);
    if (!s || s.attributes.deactivated) return s;
    return this.repo.update(id, undefined, (r) => ({ ...r, attributes: { ...r.attributes, deactivated: true } }));
  }

  delete(id: string, organisationId: string, version: number): void {
    this.repo.delete(id, organisationId, version);
    this.#secrets.delete(id);
  }

  /** Active subscriptions of the organisation for this event and record type (indexed). */
  matching(organisationId: string, eventType: string, recordType: string): Subscription[] {
    return this.repo.rows.lookup('match', matchKey(organisationId, eventType, recordType)).filter((s) => !s.attributes.deactivated);
  }

  /** The subscription's own signing secret, if any. Never put it in a response or a log. */
  secretOf(id: string): string | undefined {
    return this.#secrets.get(id)?.secret;
  }
}
