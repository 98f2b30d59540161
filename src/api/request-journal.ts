// What the simulator saw: every request and its answer, newest first, bounded (WireMock's request
// journal). Kept in memory: it is for looking at a running double, not a record to restore.
import { randomUUID } from 'node:crypto';

/** Bodies are kept up to this many characters, with `*_truncated` set beyond. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;
export const DEFAULT_JOURNAL_SIZE = 1000;

export interface JournalEntry {
  id: string;
  /** Wall-clock instant the request arrived. */
  time: string;
  method: string;
  path: string;
  query: string;
  /** Request headers, secrets masked. */
  headers: Record<string, string>;
  body?: string;
  body_truncated?: boolean;
  status: number;
  response_body?: string;
  response_truncated?: boolean;
  duration_ms: number;
  error_code?: string;
  client_id?: string;
  organisation_id?: string;
}

export interface JournalFilter {
  /** `404`, or a class: `4xx`. */
  status?: string;
  method?: string;
  /** Requests whose path starts with this. */
  path?: string;
  error_code?: string;
}

const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'signature', 'x-jws-signature']);

/** `Bearer eyJ…` → `Bearer ***`: the scheme stays readable, the credential does not. */
function masked(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name)) return value;
  return name === 'authorization' && value.includes(' ') ? `${value.split(' ')[0]} ***` : '***';
}

/** Request headers with secrets masked: web Headers, or Node's (lower-cased names, repeats as arrays). */
export function maskHeaders(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      out[name] = masked(name, value);
    });
    return out;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = masked(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/** A form body's client_secret (the token request) masked; any other body as it came. */
export function maskBody(body: string): string {
  return body.replace(/(client_secret=)[^&]*/g, '$1***').replace(/("client_secret"\s*:\s*")[^"]*/g, '$1***');
}

/** The text kept of a body: at most JOURNAL_BODY_LIMIT characters. */
export function clip(text: string): { text: string; truncated: boolean } {
  return text.length > JOURNAL_BODY_LIMIT
    ? { text: text.slice(0, JOURNAL_BODY_LIMIT), truncated: true }
    : { text, truncated: false };
}

function statusMatches(wanted: string, status: number): boolean {
  const m = /^([1-5])xx$/i.exec(wanted);
  return m ? Math.floor(status / 100) === Number(m[1]) : String(status) === wanted;
}

/** An entry, or how to make it: the CoP hot path records a closure and pays for the entry only when read. */
type Pending = JournalEntry | (() => JournalEntry);

export class RequestJournal {
  readonly size: number;
  readonly #ring: Pending[] = [];
  #next = 0;
  readonly #listeners = new Set<(e: JournalEntry) => void>();

  constructor(size = DEFAULT_JOURNAL_SIZE) {
    if (!Number.isInteger(size) || size < 0)
      throw new RangeError(`journal size must be a whole number ≥ 0, got ${size}`);
    this.size = size;
  }

  /**
   * Keeps the entry (the oldest goes when full) and tells the listeners (the request log). Given a
   * function, the entry is made when first read (or at once when a listener wants it).
   */
  record(entry: Omit<JournalEntry, 'id'> | (() => Omit<JournalEntry, 'id'>)): void {
    let kept: Pending;
    if (typeof entry === 'function') {
      let made: JournalEntry | undefined;
      kept = () => (made ??= { id: randomUUID(), ...entry() });
    } else kept = { id: randomUUID(), ...entry };
    if (this.size > 0) {
      this.#ring[this.#next] = kept;
      this.#next = (this.#next + 1) % this.size;
    }
    if (this.#listeners.size === 0) return;
    const e = typeof kept === 'function' ? kept() : kept;
    for (const l of this.#listeners) l(e);
  }

  /** Whether anything listens (the request log): then entries are made as they are recorded. */
  get listened(): boolean {
    return this.#listeners.size > 0;
  }

  /** Called with every entry as it is recorded; returns the unsubscribe. */
  onRecord(listener: (e: JournalEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Newest first; `organisationId` undefined means every organisation's (the log, not a client). */
  list(organisationId: string | undefined, filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const n = this.#ring.length;
    for (let i = 1; i <= n; i++) {
      const slot = (this.#next - i + n) % n;
      const kept = this.#ring[slot]!;
      const e = typeof kept === 'function' ? kept() : kept;
      this.#ring[slot] = e;
      if (organisationId !== undefined && e.organisation_id !== organisationId) continue;
      if (filter.status !== undefined && !statusMatches(filter.status, e.status)) continue;
      if (filter.method !== undefined && e.method !== filter.method.toUpperCase()) continue;
      if (filter.path !== undefined && !e.path.startsWith(filter.path)) continue;
      if (filter.error_code !== undefined && e.error_code !== filter.error_code) continue;
      out.push(e);
    }
    return out;
  }

  /** Forgets an organisation's entries (or all); answers how many went. */
  clear(organisationId?: string): number {
    const ordered = this.list(undefined).reverse();
    const keep = organisationId === undefined ? [] : ordered.filter((e) => e.organisation_id !== organisationId);
    this.#ring.length = 0;
    this.#ring.push(...keep);
    this.#next = this.size === 0 ? 0 : keep.length % this.size;
    return ordered.length - keep.length;
  }
}
