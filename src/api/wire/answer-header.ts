// Reading and adding an answer's headers, and reading its text, is on every request's path (the
// journal, CORS, the empty answer check), so every layer does it through these functions, which keep
// Node's fast path.
/**
 * @hono/node-server's light Response keeps a plain header object (`{ 'Content-Type': … }`, what
 * Hono's c.json gives) in a private slot until something reads `res.headers`; that read builds web
 * Headers (undici's name and value checks), and Node then writes the answer from them on a slower
 * path that copies and sorts them again. Three layers reading or adding one header each cost a
 * create about 10 % of its CPU (issue 46). The slot is the adapter's `Symbol('cache')`: `[status,
 * body, headers]`. Where it is absent (in process, a web Response, or once `res.headers` was read)
 * the web Headers answer, so behaviour is the same either way.
 */
type Slot = [status: number, body: unknown, headers: Record<string, string> | Headers | undefined];

/** What the adapter says an answer with a body and no headers is. */
const DEFAULT_CONTENT_TYPE = 'text/plain; charset=UTF-8';

let slotKey: symbol | undefined;

/** The light Response's slot, when `res` is one that still holds what it was given. */
function heldSlotOf(res: Response): Slot | undefined {
  if (slotKey === undefined) {
    slotKey = Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
    if (slotKey === undefined) return undefined;
  }
  const slot = (res as unknown as Record<symbol, Slot | undefined>)[slotKey];
  return Array.isArray(slot) ? slot : undefined;
}

/** The light Response's slot, when `res` is one whose headers are still a plain object. */
function slotOf(res: Response): Slot | undefined {
  const slot = heldSlotOf(res);
  return slot === undefined || slot[2] instanceof Headers ? undefined : slot;
}

/**
 * The text of an answer as the adapter writes it, when it holds one (null: it has no body), read
 * without building the web Response; undefined when it holds bytes or a stream, or is no light one.
 */
export function answerText(res: Response): string | null | undefined {
  const body = heldSlotOf(res)?.[1];
  return typeof body === 'string' || body === null ? body : undefined;
}

/** The plain header object of a slot; one is made, as the adapter would send it, when the answer has none. */
function recordOf(slot: Slot, make: boolean): Record<string, string> {
  const record = slot[2];
  if (record !== undefined && record !== null) return record as Record<string, string>;
  const sent: Record<string, string> = slot[1] === null ? {} : { 'content-type': DEFAULT_CONTENT_TYPE };
  if (make) slot[2] = sent;
  return sent;
}

/** The key of `name` (lower-case) in a plain header object, in whatever case it was set. */
function keyOf(record: Record<string, string>, name: string): string | undefined {
  for (const key in record) if (key.length === name.length && key.toLowerCase() === name) return key;
  return undefined;
}

/** An answer's header by its lower-case name (null when absent, as Headers.get answers). */
export function answerHeader(res: Response, name: string): string | null {
  const slot = slotOf(res);
  if (!slot) return res.headers.get(name);
  const record = recordOf(slot, false);
  const key = keyOf(record, name);
  return key === undefined ? null : String(record[key]);
}

/** Adds a value to an answer's header (lower-case name), joined to one there as Headers.append joins it. */
export function appendAnswerHeader(res: Response, name: string, value: string): void {
  const slot = slotOf(res);
  if (!slot) {
    res.headers.append(name, value);
    return;
  }
  const record = recordOf(slot, true);
  const key = keyOf(record, name);
  if (key === undefined) record[name] = value;
  else record[key] = `${record[key]}, ${value}`;
}

/**
 * Whether an answer has no body, told from its headers where they settle it: every answer with a
 * body here says its Content-Type (c.json, c.html, c.text, a typed c.body). Reading `body` of the
 * light Response builds the web Response and its stream, and Node then writes the answer on its
 * slow path, reading that stream: about a tenth of a create's CPU (issue 30).
 */
export function isEmptyAnswer(res: Response): boolean {
  const slot = slotOf(res);
  if (slot) return slot[1] === null && answerHeader(res, 'content-type') === null;
  return !res.headers.has('content-type') && res.body === null;
}
