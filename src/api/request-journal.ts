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
  /** The simulator's own tool that sent it (the x-scheme-sim-tool header: `cli`, `dashboard`). */
  tool?: string;
  /** A read by one of those tools (its polling): hidden from the journal unless asked for. */
  own?: true;
}

/** The header the simulator's own tools (CLI, dashboard) send, naming themselves. */
export const TOOL_HEADER = 'x-scheme-sim-tool';

export interface JournalFilter {
  /** `404`, or a class: `4xx`. */
  status?: string;
  method?: string;
  /** Requests whose path starts with this. */
  path?: string;
  error_code?: string;
  /**
   * `false` (the default): without the tools' own reads; `true`: only them; `true,false`: both.
   */
  own?: string;
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

/** Whether an entry passes a filter (`organisationId` undefined: any organisation's). */
export function entryMatches(e: JournalEntry, organisationId: string | undefined, filter: JournalFilter): boolean {
  if (organisationId !== undefined && e.organisation_id !== organisationId) return false;
  if (!(filter.own ?? 'false').split(',').includes(String(e.own === true))) return false;
  if (filter.status !== undefined && !statusMatches(filter.status, e.status)) return false;
  if (filter.method !== undefined && e.method !== filter.method.toUpperCase()) return false;
  if (filter.path !== undefined && !e.path.startsWith(filter.path)) return false;
  if (filter.error_code !== undefined && e.error_code !== filter.error_code) return false;
  return true;
}

/** `404`, or a class: `4xx`. */
export function statusMatches(wanted: string, status: number): boolean {
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
    const id = randomUUID();
    let kept: Pending;
    if (typeof entry === 'function') {
      let made: JournalEntry | undefined;
      kept = () => (made ??= { id, ...entry() });
    } else kept = { id, ...entry };
    if (this.size > 0) {
      this.#ring[this.#next] = kept;
      this.#next = (this.#next + 1) % this.size;
    }
    if (this.#listeners.size === 0) return;
    // A listener gets the entry as it is now; the journal's copy is made when first read, so an
    // answer still being read (a success's) is in it then.
    const e = typeof entry === 'function' ? { id, ...entry() } : (kept as JournalEntry);
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

  /**
   * Newest first; `organisationId` undefined means every organisation's (the log, not a client).
   * The tools' own reads are left out unless `filter.own` asks for them.
   */
  list(organisationId: string | undefined, filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const n = this.#ring.length;
    for (let i = 1; i <= n; i++) {
      const slot = (this.#next - i + n) % n;
      const kept = this.#ring[slot]!;
      const e = typeof kept === 'function' ? kept() : kept;
      this.#ring[slot] = e;
      if (entryMatches(e, organisationId, filter)) out.push(e);
    }
    return out;
  }

  /** Forgets an organisation's entries (or all); answers how many went. */
  clear(organisationId?: string): number {
    const ordered = this.list(undefined, { own: 'true,false' }).reverse();
    const keep = organisationId === undefined ? [] : ordered.filter((e) => e.organisation_id !== organisationId);
    this.#ring.length = 0;
    this.#ring.push(...keep);
    this.#next = this.size === 0 ? 0 : keep.length % this.size;
    return ordered.length - keep.length;
  }
}
