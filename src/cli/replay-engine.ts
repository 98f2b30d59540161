// Sends a recording's requests, in order, to one target (a replay) or two (differential), each
// request rewritten for the target it goes to: ids the recorded target gave or the client chose
// become the ones this target gave or the replay chose afresh, the recorded client's credentials
// become this target's (tokens are asked for again), and the answers are compared.
import { randomUUID } from 'node:crypto';
import { type Answer, compareAnswers, type Divergence, isDateTime, isId, ValueMap } from './exchange-compare.ts';
import {
  bodyBytes,
  type Exchange,
  fingerprintOf,
  isMasked,
  jsonOf,
  maskJson,
  type RecordedResponse,
} from './exchange-record.ts';

export interface Credentials {
  id: string;
  secret: string;
}

/** A target of a replay: where, as whom, and what it has learned of the recording's values. */
export interface ReplayTarget {
  /** Its base URL (with a sandbox's path prefix when reached so). */
  base: string;
  /** The client each recorded client id stands for here. */
  clients: Map<string, Credentials>;
  /** The client any other recorded client stands for (the CLI's connection). */
  client?: Credentials;
  /** The organisation of `client` here: a recorded `organisation_id` first seen becomes it. */
  organisation?: string;
  /** The recording's ids and times → this target's. */
  ids: ValueMap;
  /** Fingerprints of recorded tokens → the tokens this target issued in their place. */
  tokens: Map<string, string>;
  /** A token of `client`, for requests made with a token issued before the recording began. */
  token?: string;
}

export function replayTarget(
  base: string,
  client?: Credentials,
  organisation?: string,
  clients = new Map<string, Credentials>(),
): ReplayTarget {
  return {
    base,
    clients,
    ...(client ? { client } : {}),
    ...(organisation ? { organisation } : {}),
    ids: new ValueMap(),
    tokens: new Map(),
  };
}

/** One exchange's outcome: what it was and where the answers differed. */
export interface ExchangeOutcome {
  seq: number;
  method: string;
  /** The path with ids as `{id}`, without the query: `/v1/organisation/accounts/{id}`. */
  template: string;
  /** The last path segment that is not an id: `accounts`, `submissions`, `name-verification`. */
  flow: string;
  divergences: Divergence[];
  /** Why it was not replayed (an event stream, which a replay would wait on for ever). */
  skipped?: string;
}

export function templateOf(path: string): string {
  return (path.split('?')[0] ?? '').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}');
}

const flowOf = (template: string) =>
  template
    .split('/')
    .filter((s) => s !== '' && s !== '{id}')
    .at(-1) ?? '/';

/** A recorded request body's JSON rewritten for the target: known values mapped, chosen ids afresh. */
function rewriteJson(value: unknown, target: ReplayTarget, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteJson(v, target));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteJson(v, target, k)]));
  if (typeof value !== 'string') return value;
  if (isId(value)) {
    const known = target.ids.get(value);
    if (known !== undefined) return known;
    // The client's own organisation, as the recorded client sent its own.
    if (key === 'organisation_id' && target.organisation) {
      target.ids.set(value, target.organisation);
      return target.organisation;
    }
    // An id the client chose for a new record: the replay chooses its own, so it never collides.
    if (key === 'id') {
      const fresh = randomUUID();
      target.ids.set(value, fresh);
      return fresh;
    }
    return value;
  }
  if (isDateTime(value)) return target.ids.get(value) ?? value;
  return target.ids.rewrite(value);
}

/** The credentials a recorded client id stands for at the target. */
const credentialsOf = (target: ReplayTarget, recordedClient: string | undefined) =>
  (recordedClient !== undefined ? target.clients.get(recordedClient) : undefined) ?? target.client;

/** A token request's form body with the target's client in place of the recorded one. */
function rewriteForm(text: string, target: ReplayTarget): string {
  const form = new URLSearchParams(text);
  const creds = credentialsOf(target, form.get('client_id') ?? undefined);
  if (form.has('client_id') && creds) form.set('client_id', creds.id);
  if (form.has('client_secret') && creds) form.set('client_secret', creds.secret);
  return form.toString();
}

/** A token of the target's own client, asked for once. */
async function defaultToken(target: ReplayTarget): Promise<string | undefined> {
  if (target.token || !target.client) return target.token;
  const res = await fetch(`${target.base}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${target.client.id}:${target.client.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string };
  if (res.status !== 200 || !body.access_token)
    throw new Error(`token request to ${target.base} as ${target.client.id} answered ${res.status}`);
  target.token = body.access_token;
  return target.token;
}

/** Headers that describe the recorded connection, not the request: the target's are its own. */
const NOT_REPLAYED = new Set(['host', 'content-length', 'authorization', 'accept-encoding', 'connection']);

/** The request of an exchange as the target gets it. */
async function requestFor(ex: Exchange, target: ReplayTarget): Promise<RequestInit & { url: string }> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(ex.request.headers)) if (!NOT_REPLAYED.has(k) && !isMasked(v)) headers[k] = v;
  const auth = ex.request.auth;
  if (auth?.scheme === 'basic') {
    const creds = credentialsOf(target, auth.client_id);
    if (creds) headers.authorization = `Basic ${Buffer.from(`${creds.id}:${creds.secret}`).toString('base64')}`;
  } else if (auth?.scheme === 'bearer') {
    const fingerprint = fingerprintOf(auth.token);
    const token = (fingerprint && target.tokens.get(fingerprint)) || (await defaultToken(target));
    if (token) headers.authorization = `Bearer ${token}`;
  }
  let body: string | Blob | undefined;
  const type = ex.request.headers['content-type'] ?? '';
  const json = jsonOf(ex.request);
  if (json !== undefined) body = JSON.stringify(rewriteJson(json, target));
  else if (/x-www-form-urlencoded/i.test(type) && ex.request.body !== undefined)
    body = rewriteForm(ex.request.body, target);
  else if (ex.request.body !== undefined) body = new Blob([new Uint8Array(bodyBytes(ex.request))]);
  return {
    url: `${target.base}${target.ids.rewrite(ex.request.path)}`,
    method: ex.request.method,
    headers,
    ...(body !== undefined ? { body } : {}),
    redirect: 'manual',
  };
}

/** How long a replayed request may wait for its whole answer before it counts as none. */
const ANSWER_TIMEOUT_MS = 60_000;

const mediaTypeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** The recorded answer as compared. */
function recordedAnswer(response: RecordedResponse): Answer {
  const json = jsonOf(response);
  return {
    status: response.status,
    mediaType: mediaTypeOf(response.headers['content-type']),
    ...(json !== undefined ? { json } : {}),
    length: bodyBytes(response).length,
  };
}

/** Sends one exchange's request to a target: its answer as compared, and the raw JSON (tokens unmasked). */
async function send(ex: Exchange, target: ReplayTarget): Promise<{ answer: Answer; raw: unknown }> {
  const { url, ...init } = await requestFor(ex, target);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
  } catch (err) {
    // undici wraps the reason: a code, or for a refused connection tried on several addresses, each one's.
    const reason = (err as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
    const cause = reason?.code ?? reason?.errors?.[0]?.code ?? reason?.message ?? (err as Error).message;
    return { answer: { status: 0, mediaType: '', length: 0, error: cause }, raw: undefined };
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  const mediaType = mediaTypeOf(res.headers.get('content-type') ?? undefined);
  let raw: unknown;
  if (/json/.test(mediaType) && bytes.length > 0) {
    try {
      raw = JSON.parse(bytes.toString('utf8'));
    } catch {
      raw = undefined;
    }
  }
  return {
    answer: {
      status: res.status,
      mediaType,
      ...(raw !== undefined ? { json: maskJson(raw) } : {}),
      length: bytes.length,
    },
    raw,
  };
}

/** A token the target issued in place of a recorded one: later requests with that one use it. */
function learnToken(recorded: Answer, raw: unknown, target: ReplayTarget): void {
  const fingerprint = fingerprintOf((recorded.json as { access_token?: unknown } | undefined)?.access_token);
  const token = (raw as { access_token?: unknown } | undefined)?.access_token;
  if (fingerprint && typeof token === 'string') target.tokens.set(fingerprint, token);
}

/**
 * Replays the exchanges in order. With one target, each answer is compared with the recorded one;
 * with two (differential), the second target's answer with the first's, each target still
 * learning its ids from the recording.
 */
export async function replayExchanges(
  exchanges: Exchange[],
  targets: [ReplayTarget] | [ReplayTarget, ReplayTarget],
): Promise<ExchangeOutcome[]> {
  const between = new ValueMap();
  const outcomes: ExchangeOutcome[] = [];
  for (const ex of [...exchanges].sort((a, b) => a.seq - b.seq)) {
    const template = templateOf(ex.request.path);
    const recorded = ex.response ? recordedAnswer(ex.response) : undefined;
    const base = { seq: ex.seq, method: ex.request.method, template, flow: flowOf(template) };
    if (recorded?.mediaType === 'text/event-stream') {
      outcomes.push({ ...base, divergences: [], skipped: 'an event stream: it ends when its client leaves' });
      continue;
    }
    const answers: Answer[] = [];
    const learned: Divergence[][] = [];
    for (const target of targets) {
      const { answer, raw } = await send(ex, target);
      answers.push(answer);
      if (recorded) {
        learnToken(recorded, raw, target);
        learned.push(compareAnswers(recorded, answer, target.ids));
      }
    }
    let divergences: Divergence[];
    if (targets.length === 2) divergences = compareAnswers(answers[0]!, answers[1]!, between);
    else if (recorded) divergences = learned[0]!;
    else divergences = [];
    outcomes.push({ ...base, divergences });
  }
  return outcomes;
}
