// Every /v1 resource follows the same conventions (versions, scheme-clock timestamps, tenants,
// events): one repository class keeps them, so a new resource type cannot get them wrong.
import { type Clock, isoTimestamp } from '../clock/clock.ts';
import type { Collection } from '../store/collection.ts';
import type { Store } from '../store/store.ts';
import { conflict, notFound } from './errors.ts';
import type { EventBus } from './events.ts';
import { type ListFilter, matchingExactly, type Relationship, type Resource, relatedId } from './resource.ts';
import type { ResourcePaths } from './resource-paths.ts';

export interface RepositoryContext {
  store: Store;
  clock: Clock;
  events: EventBus;
  paths: ResourcePaths;
}

export interface NewResource<A extends object> {
  id: string;
  organisation_id: string;
  attributes: A;
  relationships?: Record<string, Relationship>;
  /** When the record came to be, for one older than the simulator (a seed payment); default the scheme clock's now. */
  created_on?: string;
}

export interface RepositoryOptions<R> extends RepositoryMessages {
  /** Where a record is addressed (its links.self). */
  path: (r: R) => string;
  /**
   * The relationships Form3's model of this type holds as the related resource (shown so by
   * ResourcePaths); each names the Go model it follows.
   */
  embeds?: readonly string[];
  /** How answers show a record, where that is not as stored (ResourcePaths applies it). */
  view?: (r: R) => R;
}

export interface RepositoryMessages {
  duplicate?: string;
  notFound?: (id: string) => string;
  badVersion?: string;
}

/** `claim_submissions` → `Claim submission`: a resource type as a message names one record of it. */
export function recordLabel(type: string): string {
  const words = type.replace(/s$/, '').split('_');
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Create / read / change / delete of one resource type with the conventions every /v1 resource
 * shares: version 0 on create and +1 per change, timestamps from the scheme clock, tenant scoping
 * (another organisation's record does not exist for you), and an event for every change.
 */
export class Repository<A extends object, R extends Resource<A> = Resource<A>> {
  readonly type: string;
  readonly rows: Collection<R>;
  readonly #ctx: RepositoryContext;
  readonly #messages: Required<RepositoryMessages>;

  constructor(ctx: RepositoryContext, type: string, messages: RepositoryOptions<R>) {
    this.#ctx = ctx;
    this.type = type;
    this.rows = ctx.store.collection<R>(type);
    this.rows.defineIndex('organisation', (r) => r.organisation_id);
    ctx.paths.register(type, {
      path: messages.path as (r: Resource<object>) => string,
      findMany: (ids) => {
        const found = new Map<string, Resource<object>>();
        for (const id of ids) {
          const r = this.rows.get(id);
          if (r) found.set(id, r);
        }
        return found;
      },
      embeds: messages.embeds ?? [],
      ...(messages.view ? { view: messages.view as unknown as (r: Resource<object>) => Resource<object> } : {}),
    });
    this.#messages = {
      duplicate: messages.duplicate ?? `${recordLabel(type)} cannot be created as it violates a duplicate constraint`,
      notFound: messages.notFound ?? ((id) => `record ${id} does not exist`),
      badVersion: messages.badVersion ?? 'invalid version',
    };
  }

  get clock(): Clock {
    return this.#ctx.clock;
  }

  /** Stores a new record at version 0 and emits `created`. */
  create(input: NewResource<A>, extra: Partial<R> = {}): R {
    if (this.rows.has(input.id)) throw conflict(this.#messages.duplicate);
    const now = input.created_on ?? isoTimestamp(this.#ctx.clock.now());
    const record = {
      ...extra,
      id: input.id,
      type: this.type,
      version: 0,
      organisation_id: input.organisation_id,
      created_on: now,
      modified_on: now,
      attributes: input.attributes,
      ...(input.relationships ? { relationships: input.relationships } : {}),
    } as R;
    this.rows.put(record);
    this.#emit('created', record);
    return record;
  }

  /** The record if it exists and belongs to the organisation (undefined org: any). */
  find(id: string, organisationId?: string): R | undefined {
    const r = this.rows.get(id);
    if (!r) return undefined;
    if (organisationId !== undefined && r.organisation_id !== organisationId) return undefined;
    return r;
  }

  get(id: string, organisationId?: string): R {
    const r = this.find(id, organisationId);
    if (!r) throw notFound(this.#messages.notFound(id));
    return r;
  }

  /**
   * A record that hangs under parents in its path (a claim's submission): 404, as for an unknown id,
   * unless each named relationship points at the given parent.
   */
  getChild(id: string, organisationId: string | undefined, parents: Readonly<Record<string, string>>): R {
    const r = this.find(id, organisationId);
    if (!r || Object.entries(parents).some(([name, parentId]) => relatedId(r, name) !== parentId))
      throw notFound(this.#messages.notFound(id));
    return r;
  }

  /** The organisation's records in creation order. */
  listFor(organisationId: string): R[] {
    return this.rows.lookup('organisation', organisationId);
  }

  /** The organisation's records, in creation order, whose attributes match `filter` (any of each entry's values). */
  /**
   * The organisation's records whose attributes match the filter (`organisation_id` is the record's
   * own); every organisation's when `organisationId` is undefined (`--auth off`, as Form3's fake
   * account API, where `filter[organisation_id]` partitions).
   */
  list(organisationId: string | undefined, filter: ListFilter = {}): R[] {
    const rows = organisationId === undefined ? this.rows.values() : this.listFor(organisationId);
    return matchingExactly(rows, filter, (r, k) =>
      k === 'organisation_id' ? r.organisation_id : (r.attributes as Record<string, unknown>)[k],
    );
  }

  /**
   * Applies a change, bumps version and modified_on, and emits `updated`. With `expectedVersion`
   * the change is refused unless the stored version matches (optimistic concurrency).
   */
  update(id: string, organisationId: string | undefined, change: (r: R) => R, expectedVersion?: number): R {
    const current = this.get(id, organisationId);
    if (expectedVersion !== undefined) this.assertVersion(current, expectedVersion);
    const next = change(cloneJson(current));
    const record = {
      ...next,
      id: current.id,
      type: current.type,
      organisation_id: current.organisation_id,
      created_on: current.created_on,
      version: current.version + 1,
      modified_on: isoTimestamp(this.#ctx.clock.now()),
    } as R;
    this.rows.put(record);
    this.#emit('updated', record);
    return record;
  }

  /** Deletes at the given version and emits `deleted`. */
  delete(id: string, organisationId: string, version: number): R {
    const current = this.get(id, organisationId);
    this.assertVersion(current, version);
    this.rows.delete(id);
    this.#emit('deleted', current);
    return current;
  }

  /** 409 unless the client's version is the stored one (optimistic concurrency). */
  assertVersion(current: R, version: number): void {
    if (version !== current.version) throw conflict(this.#messages.badVersion);
  }

  #emit(event_type: 'created' | 'updated' | 'deleted', record: R): void {
    this.#ctx.events.emit({ event_type, record_type: this.type, record });
  }
}

/**
 * A deep copy of a JSON value (records are JSON: they live in a JSON file). Several times faster
 * than structuredClone on small records, which matters when an advance changes 50,000 of them.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) if (Object.hasOwn(value, key)) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out as T;
}
