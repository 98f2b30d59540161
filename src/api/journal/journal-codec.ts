// A journaled request as bytes. The journal's ring of 1,000 requests lives long enough for every
// request in it to be promoted to the old space, and what the ring holds is what starts the full
// collections, each of which marks the whole store. Kept as references (Node's header object and its
// strings, the body's buffer, the answer), a request cost about 1.4 KB of promoted objects: at name
// verification's half of peak, one or two full collections in four seconds, and a tail of 40–70 ms
// (bench/RESULTS.md, 2026-11-27). Kept as bytes, it costs no object: only its stretch of the
// ring's buffer (byte-ring.ts); the entry is made from the bytes when the journal is read.
import type { IncomingHttpHeaders } from 'node:http';

/** Bodies are kept up to this many characters, with `*_truncated` set beyond. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/** What the request paths note of a request, for the journal to keep (the entry is made from it when read). */
export interface NotedRequest {
  /** Wall-clock instant it arrived, epoch milliseconds. */
  at: number;
  /** The scheme clock's reading when it arrived, epoch milliseconds (the instant its rules saw). */
  schemeAt: number;
  durationUs: number;
  method: string;
  /** The request target: a path and query, or (in process) a whole URL. */
  target: string;
  /** Name, value, name, value…: names lower-case; secrets still in (masked when read). */
  headers: string[];
  status: number;
  clientId: string | undefined;
  organisationId: string | undefined;
  /** The request body as read: text, or (name verification's Node path) its bytes. */
  body: string | Uint8Array | undefined;
  /** The answer's text as sent, its bytes, or how to make it again (a list page: kept apart, not encoded). */
  answer: string | Uint8Array | (() => string) | undefined;
  /** Where an error answer names its code: Form3's `error_code`, or Open Banking's `Id`. */
  errorKey: 'error_code' | 'Id';
}

/** A noted request read back: bodies as text, the id once given. */
export interface DecodedRequest extends Omit<NotedRequest, 'body' | 'answer'> {
  id: string | undefined;
  body: string | undefined;
  answer: string | undefined;
  /** The answer is made again by the function kept beside the bytes. */
  answerRebuilt: boolean;
  bodyCut: boolean;
  answerCut: boolean;
}

const ID_BYTES = 36;
/**
 * Bytes kept of a body given as bytes: enough for JOURNAL_BODY_LIMIT UTF-16 units however it
 * decodes (a code point takes at most 4 bytes and at least 1 unit), so clipping on read is exact.
 */
const BYTES_KEPT = 4 * JOURNAL_BODY_LIMIT;
// Layout: [0] flags, [1..9) at (f64), [9..13) duration µs (u32), [13..15) status (u16),
// [15..23) schemeAt (f64), [23..59) id (ASCII, first byte 0 until given), the count of header texts (u32), then three
// length-prefixed (u32) UTF-8 texts: method, target, clientId, organisationId and the header names
// and values joined by line feeds; the body; the answer.
const HEAD = 23;
const FLAG = {
  clientId: 1,
  organisationId: 2,
  bodyCut: 4,
  answerCut: 8,
  idKey: 16,
  rebuilt: 32,
  body: 64,
  answer: 128,
};

type Part = string | Uint8Array;

/** Where a noted request's bytes go: `reserve(size)` answers the buffer and the offset to write at. */
export type Reserve = (size: number) => { buffer: Buffer; offset: number };

/** Writes the request where `reserve` says: no reference into the request is kept. */
export function encodeNoted(n: NotedRequest, reserve: Reserve): void {
  const body = kept(n.body);
  const answer = typeof n.answer === 'function' ? undefined : kept(n.answer);
  // The short texts as one, written in one call (a write per text: 4.1 µs a request, against 1.6).
  const block = [n.method, n.target, oneLine(n.clientId), oneLine(n.organisationId), ...n.headers].join('\n');
  const bodyPart = body?.part ?? '';
  const answerPart = answer?.part ?? '';
  const size = HEAD + ID_BYTES + 4 + 12 + byteLength(block) + byteLength(bodyPart) + byteLength(answerPart);
  const { buffer: buf, offset } = reserve(size);
  buf[offset] =
    (n.clientId !== undefined ? FLAG.clientId : 0) |
    (n.organisationId !== undefined ? FLAG.organisationId : 0) |
    (body?.cut ? FLAG.bodyCut : 0) |
    (answer?.cut ? FLAG.answerCut : 0) |
    (n.errorKey === 'Id' ? FLAG.idKey : 0) |
    (typeof n.answer === 'function' ? FLAG.rebuilt : 0) |
    (body ? FLAG.body : 0) |
    (answer ? FLAG.answer : 0);
  buf.writeDoubleLE(n.at, offset + 1);
  buf.writeUInt32LE(Math.min(Math.max(0, Math.round(n.durationUs)), 0xffffffff), offset + 9);
  buf.writeUInt16LE(n.status, offset + 13);
  buf.writeDoubleLE(n.schemeAt, offset + 15);
  buf[offset + HEAD] = 0; // no id yet: only its first byte is read until one is given
  let at = offset + HEAD + ID_BYTES;
  buf.writeUInt32LE(n.headers.length, at);
  at = put(buf, at + 4, block);
  at = put(buf, at, bodyPart);
  put(buf, at, answerPart);
}

/**
 * A text of the joined block, which no line feed may break: an id given by a client, made one line.
 * (The method and target come from the request line, and header names and values from Node's
 * parser or web Headers, all of which refuse a line feed.)
 */
function oneLine(text: string | undefined): string {
  return text === undefined ? '' : text.includes('\n') ? text.replaceAll('\n', ' ') : text;
}

/** A request's headers as name, value pairs, as Node (lower-cased; repeats as arrays) or the web gives them. */
export function headerPairs(headers: Headers | IncomingHttpHeaders): string[] {
  const pairs: string[] = [];
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      pairs.push(name, value);
    });
    return pairs;
  }
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') pairs.push(name, value);
    else if (value !== undefined) for (const v of value) pairs.push(name, v);
  }
  return pairs;
}

/** The request back from its bytes, written at `offset`. */
export function decodeNoted(buf: Buffer, offset: number): DecodedRequest {
  const flags = buf[offset]!;
  let at = offset + HEAD + ID_BYTES;
  const pairs = buf.readUInt32LE(at);
  at += 4;
  const next = () => {
    const length = buf.readUInt32LE(at);
    const text = buf.toString('utf8', at + 4, at + 4 + length);
    at += 4 + length;
    return text;
  };
  const [method = '', target = '', clientId = '', organisationId = '', ...headers] = next().split('\n');
  const body = next();
  const answer = next();
  return {
    id: buf[offset + HEAD] === 0 ? undefined : buf.toString('latin1', offset + HEAD, offset + HEAD + ID_BYTES),
    at: buf.readDoubleLE(offset + 1),
    schemeAt: buf.readDoubleLE(offset + 15),
    durationUs: buf.readUInt32LE(offset + 9),
    status: buf.readUInt16LE(offset + 13),
    method,
    target,
    headers: headers.length === pairs ? headers : headers.slice(0, pairs),
    clientId: flags & FLAG.clientId ? clientId : undefined,
    organisationId: flags & FLAG.organisationId ? organisationId : undefined,
    body: flags & FLAG.body ? body : undefined,
    answer: flags & FLAG.answer ? answer : undefined,
    answerRebuilt: (flags & FLAG.rebuilt) !== 0,
    bodyCut: (flags & FLAG.bodyCut) !== 0,
    answerCut: (flags & FLAG.answerCut) !== 0,
    errorKey: flags & FLAG.idKey ? 'Id' : 'error_code',
  };
}

/** Gives the noted request its id, once: later reads see the same one. */
export function giveId(buf: Buffer, offset: number, id: string): void {
  if (id.length !== ID_BYTES) throw new RangeError(`a journal id is ${ID_BYTES} characters`);
  buf.write(id, offset + HEAD, ID_BYTES, 'latin1');
}

/** A body as kept: text up to the journal's limit, bytes up to BYTES_KEPT; `cut` when more came. */
function kept(value: string | Uint8Array | undefined): { part: Part; cut: boolean } | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string')
    return value.length > JOURNAL_BODY_LIMIT
      ? { part: value.slice(0, JOURNAL_BODY_LIMIT), cut: true }
      : { part: value, cut: false };
  return value.byteLength > BYTES_KEPT
    ? { part: value.subarray(0, BYTES_KEPT), cut: true }
    : { part: value, cut: false };
}

function byteLength(p: Part): number {
  return typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : p.byteLength;
}

/** Writes `p` after its length (the bytes written: no second pass over a text to count them). */
function put(buf: Buffer, at: number, p: Part): number {
  let length: number;
  if (typeof p === 'string') length = buf.write(p, at + 4, 'utf8');
  else {
    buf.set(p, at + 4);
    length = p.byteLength;
  }
  buf.writeUInt32LE(length, at);
  return at + 4 + length;
}
