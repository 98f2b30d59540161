// What the simulator saw: every request and its answer, newest first, bounded (WireMock's request
// journal). Kept in memory: it is for looking at a running double, not a record to restore.
import { randomUUID } from 'node:crypto';
import { ByteRing } from './byte-ring.ts';
import {
  type DecodedRequest,
  decodeNoted,
  encodeNoted,
  giveId,
  JOURNAL_BODY_LIMIT,
  type NotedRequest,
} from './journal-codec.ts';

export { JOURNAL_BODY_LIMIT, type NotedRequest };
export const DEFAULT_JOURNAL_SIZE = 1000;

export interface JournalEntry {
  id: string;
  /** Wall-clock instant the request arrived. */
  time: string;
  /** The scheme clock's reading when it arrived (its world's clock: a sandbox's own). */
  scheme_time: string;
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

/**
 * Request headers, as noted (name, value pairs: journal-codec.ts's headerPairs), with secrets
 * masked; a repeated name's values joined as Node and web Headers join them.
 */
export function maskHeaders(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const name = pairs[i]!;
    const value = masked(name, pairs[i + 1]!);
    // Own keys only: a header named like an Object.prototype member (`constructor`) is a header.
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
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

export class RequestJournal {
  readonly size: number;
  /** The kept requests as bytes (journal-codec.ts); an entry given whole takes a byte and its place below. */
  readonly #ring: ByteRing;
  /** Beside a slot: the entry as given (`record`), or how to make a list page's answer again. */
  #beside: (JournalEntry | (() => string) | undefined)[] = [];
  readonly #listeners = new Set<(e: JournalEntry) => void>();

  constructor(size = DEFAULT_JOURNAL_SIZE) {
    if (!Number.isInteger(size) || size < 0)
      throw new RangeError(`journal size must be a whole number ≥ 0, got ${size}`);
    this.size = size;
    this.#ring = new ByteRing(size);
  }

  /** Keeps an entry as it is given (the oldest goes when full), and tells the listeners. */
  record(entry: Omit<JournalEntry, 'id'>): void {
    const e: JournalEntry = { id: randomUUID(), ...entry };
    if (this.size > 0) this.#beside[this.#ring.push(1)] = e;
    for (const l of this.#listeners) l(e);
  }

  /**
   * Keeps a request the hot paths noted, as bytes: the entry (masking, the URL split, the bodies'
   * text) and its id are made when it is first read, or at once when a listener wants it.
   */
  recordNoted(noted: NotedRequest): void {
    if (this.size === 0 && this.#listeners.size === 0) return;
    let slot = -1;
    let scratch: Buffer | undefined;
    encodeNoted(noted, (length) => {
      if (this.size === 0) return { buffer: (scratch = Buffer.alloc(length)), offset: 0 };
      slot = this.#ring.push(length);
      return { buffer: this.#ring.buffer, offset: this.#ring.offsetOf(slot) };
    });
    const rebuild = typeof noted.answer === 'function' ? noted.answer : undefined;
    if (slot !== -1) this.#beside[slot] = rebuild;
    if (this.#listeners.size === 0) return;
    const buffer = scratch ?? this.#ring.buffer;
    const offset = scratch ? 0 : this.#ring.offsetOf(slot);
    giveId(buffer, offset, randomUUID());
    const e = entryOfNoted(decodeNoted(buffer, offset), rebuild);
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
    for (let i = 0; i < this.#ring.count; i++) {
      const slot = this.#ring.slotOf(i);
      const beside = this.#beside[slot];
      let e: JournalEntry;
      if (typeof beside === 'object') e = beside;
      else {
        const decoded = decodeNoted(this.#ring.buffer, this.#ring.offsetOf(slot));
        // Another organisation's request is not made into an entry (masked, its page made again).
        if (organisationId !== undefined && decoded.organisationId !== organisationId) continue;
        e = this.#entryOf(slot, decoded, beside);
      }
      if (entryMatches(e, organisationId, filter)) out.push(e);
    }
    return out;
  }

  /** A noted request's entry, given its id the first time it is read. */
  #entryOf(slot: number, decoded: DecodedRequest, rebuild: (() => string) | undefined): JournalEntry {
    if (decoded.id === undefined) {
      decoded.id = randomUUID();
      giveId(this.#ring.buffer, this.#ring.offsetOf(slot), decoded.id);
    }
    return entryOfNoted(decoded, rebuild);
  }

  /** Forgets an organisation's entries (or all); answers how many went. */
  clear(organisationId?: string): number {
    const ordered = this.list(undefined, { own: 'true,false' }).reverse();
    const keep = organisationId === undefined ? [] : ordered.filter((e) => e.organisation_id !== organisationId);
    this.#ring.clear();
    this.#beside = [];
    for (const e of keep) this.#beside[this.#ring.push(1)] = e;
    return ordered.length - keep.length;
  }
}

/** The journal's entry of a noted request: secrets masked, the URL split, bodies clipped. */
function entryOfNoted(n: DecodedRequest, rebuild: (() => string) | undefined): JournalEntry {
  const url = new URL(n.target, 'http://journal.invalid');
  const headers = maskHeaders(n.headers);
  const body = n.body ? clip(maskBody(n.body)) : undefined; // an empty body is no body, as before
  const answerText = n.answerRebuilt ? rebuild?.() : n.answer;
  const answer = answerText === undefined ? undefined : clip(answerText);
  const code =
    n.status >= 400 && answer
      ? (n.errorKey === 'Id' ? /"Id"\s*:\s*"([^"]+)"/ : /"error_code"\s*:\s*"([^"]+)"/).exec(answer.text)?.[1]
      : undefined;
  const tool = headers[TOOL_HEADER]?.slice(0, 40);
  return {
    id: n.id!,
    time: new Date(n.at).toISOString(),
    scheme_time: new Date(n.schemeAt).toISOString(),
    method: n.method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ''),
    headers,
    ...(body ? { body: body.text, ...(body.truncated || n.bodyCut ? { body_truncated: true } : {}) } : {}),
    status: n.status,
    ...(code ? { error_code: code } : {}),
    ...(answer
      ? {
          response_body: answer.text,
          ...(answer.truncated || n.answerCut ? { response_truncated: true as const } : {}),
        }
      : {}),
    duration_ms: n.durationUs / 1000,
    ...(n.clientId ? { client_id: n.clientId } : {}),
    ...(n.organisationId ? { organisation_id: n.organisationId } : {}),
    // A tool's read (its polling) is marked own: hidden from the journal unless asked for.
    ...(tool ? { tool, ...(n.method === 'GET' || n.method === 'HEAD' ? { own: true as const } : {}) } : {}),
  };
}
