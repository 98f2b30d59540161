import { secretProblem } from '../../signatures/notifications/standard-webhooks.ts';
import type { Collection } from '../../store/collection.ts';
import { conflict, invalid } from '../errors.ts';
import type { EventType } from '../events.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import type { Resource } from '../resource.ts';
import type { CallbackTransport } from './callback-transport.ts';
import { callbackUriProblem, type SelfAddress, selfAddressOf, targetsSelf } from './callback-uri.ts';
import { filterProblem } from './subscription-filter.ts';

/** One place a subscription delivers to. */
export interface Callback {
  callback_transport: CallbackTransport;
  callback_uri: string;
}

export interface SubscriptionAttributes {
  event_type: EventType;
  record_type: string;
  /** Deprecated by Form3 in favour of callback_uris; kept as the client sent it. */
  callback_transport?: CallbackTransport;
  callback_uri?: string;
  callback_uris?: Callback[];
  deactivated: boolean;
  /** Conditions on the changed resource (subscription-filter.ts). */
  filter?: string;
  user_defined_data?: Array<{ key: string; value: string }>;
  /** The user (client) that created it; read-only. */
  user_id: string;
  /** Whether a signing secret is set; the secret itself is write-only. */
  has_secret: boolean;
}

/** Where a subscription delivers: each of callback_uris, else the deprecated pair. */
export function callbacksOf(
  a: Pick<SubscriptionAttributes, 'callback_transport' | 'callback_uri' | 'callback_uris'>,
): Callback[] {
  if (a.callback_uris && a.callback_uris.length > 0) return a.callback_uris;
  return a.callback_transport && a.callback_uri
    ? [{ callback_transport: a.callback_transport, callback_uri: a.callback_uri }]
    : [];
}

export type Subscription = Resource<SubscriptionAttributes>;

export const SUBSCRIPTION_TYPE = 'subscriptions';
/** The list filters of Form3's swagger; the last two are not attribute equality (see list()). */
export const SUBSCRIPTION_FILTERS = [
  'event_type',
  'record_type',
  'organisation_id',
  'callback_transport',
  'deactivated',
  'callback_uri_search_term',
  'notification_filter',
] as const;
export type SubscriptionListFilter = Partial<Record<(typeof SUBSCRIPTION_FILTERS)[number], string | readonly string[]>>;
export const MAX_USER_DEFINED_DATA = 5;

/** What a client may send as attributes (after the JSON Schema has checked shapes). */
export interface SubscriptionInput {
  event_type?: EventType;
  record_type?: string;
  callback_transport?: CallbackTransport;
  callback_uri?: string;
  callback_uris?: Callback[];
  deactivated?: boolean;
  filter?: string | null;
  user_defined_data?: Array<{ key: string; value: string }> | null;
  /** Standard Webhooks secret (`whsec_…`); null removes it. */
  secret?: string | null;
}

function problems(
  a: SubscriptionAttributes,
  secret: string | null | undefined,
  self: readonly SelfAddress[],
): string[] {
  const out: string[] = [];
  const callbacks = callbacksOf(a);
  if (callbacks.length === 0)
    out.push('callback_uris in body is required (or the deprecated callback_transport and callback_uri together)');
  if ((a.callback_transport === undefined) !== (a.callback_uri === undefined))
    out.push('callback_transport and callback_uri in body go together: give both or neither');
  // The deprecated pair is checked even when callback_uris (which deliveries use) is given too.
  const pair: Callback[] =
    a.callback_transport && a.callback_uri
      ? [{ callback_transport: a.callback_transport, callback_uri: a.callback_uri }]
      : [];
  for (const c of [...callbacks, ...pair]) {
    const uri = callbackUriProblem(c.callback_transport, c.callback_uri, self);
    if (uri && !out.includes(uri)) out.push(uri);
  }
  if (a.filter !== undefined) {
    const f = filterProblem(a.filter);
    if (f) out.push(f);
  }
  const udd = a.user_defined_data ?? [];
  if (udd.length > MAX_USER_DEFINED_DATA)
    out.push(`user_defined_data in body should have at most ${MAX_USER_DEFINED_DATA} items`);
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
  for (const k of [
    'event_type',
    'record_type',
    'callback_transport',
    'callback_uri',
    'callback_uris',
    'deactivated',
  ] as const) {
    if (input[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = input[k];
  }
  if (input.filter === null) delete next.filter;
  else if (input.filter !== undefined) next.filter = input.filter;
  if (input.user_defined_data === null) delete next.user_defined_data;
  else if (input.user_defined_data !== undefined) next.user_defined_data = input.user_defined_data;
  return next;
}

const matchKey = (organisationId: string, eventType: string, recordType: string) =>
  `${organisationId}|${eventType}|${recordType}`;

/** Who wants to hear about which changes, and where to send it. */
export class Subscriptions {
  readonly repo: Repository<SubscriptionAttributes>;
  /** Signing secrets, kept apart from the record so no representation can carry them. */
  readonly #secrets: Collection<{ id: string; secret: string }>;
  /** Where the simulator answers, once known (after listen); callbacks there are refused. */
  readonly #self: SelfAddress[] = [];

  constructor(ctx: RepositoryContext) {
    this.repo = new Repository<SubscriptionAttributes>(ctx, SUBSCRIPTION_TYPE, {
      duplicate: 'Subscription cannot be created as it violates a duplicate constraint',
      path: (r) => `/v1/notification/subscriptions/${r.id}`,
    });
    this.repo.rows.defineIndex('match', (s) =>
      matchKey(s.organisation_id, s.attributes.event_type, s.attributes.record_type),
    );
    this.#secrets = ctx.store.collection('subscription_secrets');
  }

  /** Tells the subscriptions where the simulator itself answers (a base URL); callbacks there are refused from now on. */
  addSelfAddress(baseUrl: string): void {
    const a = selfAddressOf(baseUrl);
    if (!this.#self.some((b) => b.host === a.host && b.port === a.port && b.prefix === a.prefix)) this.#self.push(a);
  }

  /**
   * Why a callback whose host name resolves to `addresses` would call the simulator itself, or
   * undefined. The caller resolves the name (I/O stays out of the domain); literal addresses are
   * decided by `callbackUriProblem` already.
   */
  selfTargetByAddress(uri: string, addresses: readonly string[]): string | undefined {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return undefined; // not a URL: callbackUriProblem names that
    }
    const name = url.hostname;
    for (const address of addresses) {
      const resolved = new URL(uri);
      resolved.hostname = address.includes(':') ? `[${address}]` : address;
      const own = this.#self.find((a) => targetsSelf(resolved, a));
      if (own)
        return `callback_uri in body must not point at the simulator itself: ${name} resolves to ${address}, where it listens (${own.host}:${own.port}${own.prefix})`;
    }
    return undefined;
  }

  /** True once the simulator knows where it listens (a listening server told it). */
  get knowsItsAddress(): boolean {
    return this.#self.length > 0;
  }

  /** `user_id`: the user (client) creating it. */
  create(input: { id: string; organisation_id: string; attributes: SubscriptionInput; user_id: string }): Subscription {
    const a = input.attributes;
    const attributes = apply(
      {
        event_type: a.event_type!,
        record_type: a.record_type!,
        deactivated: false,
        user_id: input.user_id,
        has_secret: false,
      },
      a,
      typeof a.secret === 'string',
    );
    const bad = problems(attributes, a.secret, this.#self);
    if (bad.length) throw invalid(`validation failure list: ${bad.join('; ')}`);
    if (this.repo.rows.has(input.id))
      throw conflict('Subscription cannot be created as it violates a duplicate constraint');
    if (typeof a.secret === 'string') this.#secrets.put({ id: input.id, secret: a.secret });
    return this.repo.create({ id: input.id, organisation_id: input.organisation_id, attributes });
  }

  get(id: string, organisationId?: string): Subscription {
    return this.repo.get(id, organisationId);
  }

  find(id: string): Subscription | undefined {
    return this.repo.find(id);
  }

  /**
   * The organisation's subscriptions matching the list filters: attribute equality (any of a
   * comma list), `callback_uri_search_term` a substring of any callback URI, `notification_filter`
   * whether a filter is set; `callback_transport` matches any of the subscription's callbacks.
   */
  list(organisationId: string, filter: SubscriptionListFilter = {}): Subscription[] {
    const {
      callback_uri_search_term: term,
      notification_filter: hasFilter,
      callback_transport: transport,
      ...exact
    } = filter;
    const anyOf = (v: string | readonly string[] | undefined) =>
      v === undefined ? undefined : typeof v === 'string' ? [v] : v;
    const terms = anyOf(term);
    const transports = anyOf(transport);
    const withFilter = anyOf(hasFilter);
    return this.repo.list(organisationId, exact).filter((s) => {
      const callbacks = callbacksOf(s.attributes);
      if (transports && !callbacks.some((c) => transports.includes(c.callback_transport))) return false;
      if (terms && !callbacks.some((c) => terms.some((t) => c.callback_uri.includes(t)))) return false;
      if (withFilter && !withFilter.includes(String(s.attributes.filter !== undefined))) return false;
      return true;
    });
  }

  update(id: string, organisationId: string, version: number, input: SubscriptionInput): Subscription {
    const current = this.get(id, organisationId);
    this.repo.assertVersion(current, version);
    const hasSecret = input.secret === undefined ? current.attributes.has_secret : input.secret !== null;
    const attributes = apply(current.attributes, input, hasSecret);
    // A callback at the simulator itself stored before that was refused must not block other
    // changes (deactivating it above all): only a new callback_uri is checked against it.
    const newCallback = input.callback_uri !== undefined || input.callback_uris !== undefined;
    const bad = problems(attributes, input.secret, newCallback ? this.#self : []);
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
    return this.repo.rows
      .lookup('match', matchKey(organisationId, eventType, recordType))
      .filter((s) => !s.attributes.deactivated);
  }

  /** The subscription's own signing secret, if any. Never put it in a response or a log. */
  secretOf(id: string): string | undefined {
    return this.#secrets.get(id)?.secret;
  }
}
