// Cucumber's world for the conformance steps: one scenario's target, client, remembered values and
// last response, and the request sending every flow's steps share.
import { randomUUID } from 'node:crypto';
import { type IWorldOptions, setWorldConstructor, World } from '@cucumber/cucumber';
import type { TestRuntime } from '../../src/harness/test-runtime.ts';
import { form3SignedHeaders } from '../../src/index.ts';
import { checkSignedAnswer, signNameVerification } from './cop-signing.ts';
import { removeAccountAfterwards } from './created-accounts.ts';
import { describeBody, formatExchange } from './exchange.ts';
import type { WebhookReceiver } from './receiver.ts';
import type { LastResponse, Scenario } from './scenario.ts';
import { readSettings } from './settings.ts';
import { openTarget, type Target, type TargetName, type TargetOptions } from './targets.ts';

export interface WorldParameters {
  target: TargetName;
}

/**
 * The state of one scenario: the target it talks to, the client it acts as, remembered values and
 * the last response. The steps of every flow share it: keep strings for {{interpolation}} in
 * `vars` and anything else in `state`, rather than adding fields.
 */
export class SimWorld extends World<WorldParameters> implements Scenario {
  target!: Target;
  /** Named client whose token requests carry; null sends no Authorization header. */
  client: string | null = 'default';
  readonly tokens = new Map<string, string>();
  readonly vars: Record<string, string> = {};
  /** Headers every request of the scenario carries (unless the step sets its own). */
  readonly headers: Record<string, string> = {};
  /** Per-scenario values that are not strings (parsed bodies, counters) for flow steps. */
  readonly state: Record<string, unknown> = {};
  last: LastResponse | undefined;
  /** The last request sent, as a trace (secrets masked), for failure messages. */
  lastExchange: string | undefined;
  /** Every {{placeholder}} the scenario filled in, with its value, for the report of a failure. */
  readonly filled = new Map<string, string>();
  receiver!: WebhookReceiver;
  /** The options the target was last opened with (a restart opens it again with them). */
  openedWith: TargetOptions = {};
  /** What the scenario created on the target, undone after it in reverse order, passed or failed (hooks.ts). */
  readonly undo: Array<{ what: string; run: () => Promise<void> }> = [];

  constructor(options: IWorldOptions<WorldParameters>) {
    super(options);
  }

  /** Opens the target of the profile (or reopens it with other options, e.g. auth off in process). */
  async open(receiver: WebhookReceiver, options: TargetOptions = {}): Promise<void> {
    this.receiver = receiver;
    this.openedWith = options;
    await this.target?.close();
    this.tokens.clear();
    this.target = await openTarget(this.parameters.target ?? 'inprocess', options);
    const main = this.target.clients.default;
    if (main) this.vars.organisation_id = main.organisation_id;
    // Each client's id ({{harbour_client_id}}): a sandbox's clients have ids of their own (CONFORMANCE_SANDBOX).
    for (const [name, c] of Object.entries(this.target.clients)) this.vars[`${name}_client_id`] = c.uuid ?? c.client_id;
    // Staging reaches the harness's receiver through a public URL the user forwards to it, if any.
    this.vars.webhook_url = readSettings().CONFORMANCE_CALLBACK_URL?.replace(/\/$/, '') ?? receiver.url;
    this.vars.sort_code = this.target.bank.sort_code;
    this.vars.bic = this.target.bank.bic;
    this.vars.cop_participant = this.target.cop.participant;
    this.vars.cop_account = this.target.cop.account;
    this.vars.cop_name = this.target.cop.name;
    this.vars.cop_type = this.target.cop.type;
  }

  /**
   * Registers how to remove something the scenario created on the target (an account, a
   * subscription): hooks.ts runs it after the scenario, whatever its outcome, and fails the
   * scenario if it cannot, so a run leaves nothing of its own behind.
   */
  afterwards(what: string, run: () => Promise<void>): void {
    this.undo.push({ what, run });
  }

  /** The in-process runtime, for steps that only make sense there (tag them @inprocess). */
  get runtime(): TestRuntime {
    if (!this.target.runtime)
      throw new Error(`this step needs the in-process target, not ${this.target.name}; tag the scenario @inprocess`);
    return this.target.runtime;
  }

  organisationOf(client: string): string {
    const c = this.target.clients[client];
    if (!c) throw new Error(`no client "${client}" on target ${this.target.name}`);
    return c.organisation_id;
  }

  /** Replaces {{name}} with a remembered value; {{new_uuid}} with a fresh UUID. */
  interpolate(text: string): string {
    return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
      if (name === 'new_uuid') return randomUUID();
      const v = this.vars[name];
      if (v === undefined)
        throw new Error(
          `no value remembered as "${name}"; remembered: ${Object.keys(this.vars).sort().join(', ') || 'nothing yet'}`,
        );
      this.filled.set(name, v);
      return v;
    });
  }

  /** `Basic <base64(id:secret)>` for a named client of the target. */
  basicAuth(client: string): string {
    const creds = this.target.clients[client];
    if (!creds) throw new Error(`no credentials for client "${client}" on target ${this.target.name}`);
    return basicHeader(creds.client_id, creds.client_secret);
  }

  /** POSTs to the token endpoint as given, without caching; the response is not recorded. */
  requestToken(init: { authorization?: string; contentType?: string; body?: string } = {}): Promise<Response> {
    const headers = new Headers();
    if (init.authorization !== undefined) headers.set('authorization', init.authorization);
    if (init.contentType !== undefined) headers.set('content-type', init.contentType);
    return this.target.fetch(
      new Request(`${this.target.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers,
        body: init.body ?? 'grant_type=client_credentials',
      }),
    );
  }

  /** A bearer token for a named client, obtained once per scenario and cached. */
  async token(client: string): Promise<string> {
    const cached = this.tokens.get(client);
    if (cached) return cached;
    const res = await this.requestToken({
      authorization: this.basicAuth(client),
      contentType: 'application/x-www-form-urlencoded',
    });
    if (res.status !== 200) throw new Error(`token request for ${client} failed: ${res.status} ${await res.text()}`);
    const token = ((await res.json()) as { access_token: string }).access_token;
    this.tokens.set(client, token);
    return token;
  }

  /** Sends a request with the current client's token and records the response as `last`. */
  async send(
    method: string,
    path: string,
    options: { body?: string | Uint8Array; headers?: Record<string, string>; contentType?: string | null } = {},
  ): Promise<LastResponse> {
    const headers = new Headers(options.headers ?? {});
    for (const [k, v] of Object.entries(this.headers)) if (!headers.has(k)) headers.set(k, v);
    // Requests are signed when the client has a key; the Open Banking name-verification routes
    // (/v1/participants) keep the bearer token, their profile's own authentication.
    const openBanking = path.startsWith('/v1/participants');
    const signing = this.client !== null && !openBanking ? this.target.clients[this.client]?.signing : undefined;
    if (this.client !== null && !signing && !headers.has('authorization'))
      headers.set('authorization', `Bearer ${await this.token(this.client)}`);
    let body = options.body;
    if (options.contentType === null) {
      // No Content-Type at all: a string body would otherwise be labelled text/plain by fetch.
      headers.delete('content-type');
      if (typeof body === 'string') body = new TextEncoder().encode(body);
    } else if (options.contentType !== undefined) headers.set('content-type', options.contentType);
    else if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const sentPath = this.interpolate(path);
    const url = `${this.target.baseUrl}${sentPath}`;
    if (method === 'POST') await signNameVerification(this, sentPath, headers, body);
    if (signing && !headers.has('authorization')) {
      // Signed as Form3's SDK signs (src/client/form3-request-signer.ts), with this request's own type.
      const text = typeof body === 'string' ? body : body === undefined ? undefined : new TextDecoder().decode(body);
      const signed = form3SignedHeaders(
        new URL(url),
        method,
        text,
        signing.key_id,
        signing.key,
        new Date(),
        headers.get('content-type'),
        // Scenarios repeat requests on purpose (the same id twice is a 409): a signed request id
        // keeps a deliberate repeat within the same second from being refused as a replay.
        { 'x-request-id': randomUUID() },
      );
      for (const [k, v] of Object.entries(signed)) headers.set(k, v);
    }
    const res = await this.target.fetch(
      new Request(url, {
        method,
        headers,
        ...(body !== undefined ? { body: body as BodyInit } : {}),
      }),
    );
    const last = await this.record(res);
    const bodyShown = describeBody(body);
    this.lastExchange = formatExchange(
      { method, url, headers, ...(bodyShown !== undefined ? { body: bodyShown } : {}) },
      last,
    );
    // Every exchange goes into the cucumber report (reports/cucumber.html), under its step.
    await this.attach(this.lastExchange, { mediaType: 'text/plain', fileName: `${method} ${path}` });
    await checkSignedAnswer(this, sentPath, last);
    removeAccountAfterwards(this, method, sentPath, last);
    return last;
  }

  /** The target's wall time: the in-process runtime's manual clock, or the system clock. */
  wallNow(): Date {
    return this.target.runtime?.wall.now() ?? new Date();
  }

  /** What a failed assertion adds to its message: the exchange it is about. */
  get exchange(): string {
    return this.lastExchange ? `\n--- exchange ---\n${this.lastExchange}` : '';
  }

  /** Reads a response fully and keeps it as `last`, the subject of the Then steps. */
  async record(res: Response): Promise<LastResponse> {
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    this.last = { status: res.status, headers: res.headers, text, json, bytes };
    return this.last;
  }

  get response(): LastResponse {
    if (!this.last) throw new Error('no request was sent yet');
    return this.last;
  }
}

setWorldConstructor(SimWorld);

export function basicHeader(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** Reads a dotted path (`data.attributes.name.0`) out of a JSON value. */
export function pick(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}
