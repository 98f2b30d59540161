// Generated checks send many requests to one target as its default client: this keeps the token,
// signs as the target requires (Form3's request signing, name verification's JWS) and keeps what
// was sent, so a failing case can be printed as the curl command that sends it again.
import { randomUUID } from 'node:crypto';
import { form3SignedHeaders, signCopRequest } from '../../src/index.ts';
import type { Target } from '../support/targets.ts';

/** A request as sent: enough to print it as curl. */
export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface Exchange {
  sent: SentRequest;
  answer: Answer;
}

export interface SendOptions {
  /** Send no credentials (a check that the operation refuses an unauthenticated request). */
  anonymous?: boolean;
  /** A body sent as it is, with this content type (the token endpoint's form). */
  raw?: { contentType: string; text: string };
  /** Stop reading after the headers (an event stream, which does not end). */
  headersOnly?: boolean;
}

/** The header naming the generated case a request belongs to (read by src/cli/generate-differential.ts). */
const CASE_HEADER = 'x-scheme-sim-case';

const NAME_VERIFICATION = /^\/v1\/participants\/([^/]+)\/open-banking\//;

export class ExchangeClient {
  private token: string | undefined;
  /** Every exchange, in order (the report counts them). */
  sentCount = 0;
  /**
   * The generated case sending, named on each request as `x-scheme-sim-case` when set (a
   * differential run's recording tells the cases apart by it); never part of the curl printed.
   */
  label: string | undefined;

  constructor(readonly target: Target) {}

  private get client() {
    const c = this.target.clients.default;
    if (!c) throw new Error(`target ${this.target.name} has no default client`);
    return c;
  }

  get organisationId(): string {
    return this.client.organisation_id;
  }

  /** `Basic …` of the default client, for the token endpoint. */
  basic(): string {
    return `Basic ${Buffer.from(`${this.client.client_id}:${this.client.client_secret}`).toString('base64')}`;
  }

  private async bearer(): Promise<string> {
    if (this.token) return this.token;
    const res = await this.target.fetch(
      new Request(`${this.target.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: { authorization: this.basic(), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }),
    );
    if (res.status !== 200) throw new Error(`token for ${this.client.client_id}: ${res.status} ${await res.text()}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this.token;
  }

  async send(method: string, path: string, body?: unknown, options: SendOptions = {}): Promise<Exchange> {
    const headers: Record<string, string> = {};
    const text = options.raw ? options.raw.text : body === undefined ? undefined : JSON.stringify(body);
    if (options.raw) headers['content-type'] = options.raw.contentType;
    else if (text !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.target.baseUrl}${path}`;
    const participant = NAME_VERIFICATION.exec(path)?.[1];
    if (participant) {
      headers['x-fapi-financial-id'] = participant;
      const requester = this.target.copRequester;
      if (requester && method === 'POST')
        headers['x-jws-signature'] = await signCopRequest(new TextEncoder().encode(text ?? ''), requester.key, {
          kid: requester.kid,
          iss: requester.iss,
          iat: Math.floor(Date.now() / 1000) - 1,
          profile: requester.profile,
        });
    }
    if (!options.anonymous && !options.raw) {
      const signing = participant ? undefined : this.client.signing;
      if (signing) {
        // The signer names its own headers (Content-Type among them): one of each name is sent.
        const contentType = headers['content-type'];
        delete headers['content-type'];
        Object.assign(
          headers,
          form3SignedHeaders(new URL(url), method, text, signing.key_id, signing.key, new Date(), contentType, {
            'x-request-id': randomUUID(),
          }),
        );
      } else headers.authorization = `Bearer ${await this.bearer()}`;
    }
    if (options.raw && !options.anonymous) headers.authorization = this.basic();
    this.sentCount++;
    const controller = new AbortController();
    const res = await this.target.fetch(
      new Request(url, {
        method,
        headers: this.label ? { ...headers, [CASE_HEADER]: this.label } : headers,
        ...(text !== undefined ? { body: text } : {}),
        signal: controller.signal,
      }),
    );
    let answerText = '';
    if (options.headersOnly && res.status < 300) controller.abort();
    else answerText = await res.text();
    let json: unknown;
    try {
      json = answerText ? JSON.parse(answerText) : undefined;
    } catch {
      json = undefined;
    }
    return {
      sent: { method, path, headers, ...(text !== undefined ? { body: text } : {}) },
      answer: { status: res.status, headers: res.headers, text: answerText, json },
    };
  }
}
