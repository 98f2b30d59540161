import { randomUUID } from 'node:crypto';
import { setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import { openTarget, type Target } from './targets.ts';
import type { WebhookReceiver } from './receiver.ts';

export interface LastResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  bytes: Uint8Array;
}

export interface WorldParameters {
  target: 'inprocess' | 'sim' | 'staging';
}

/** Organisation of each named client; staging reads it from CONFORMANCE_ORGANISATION_ID. */
const ORGANISATIONS: Record<string, string> = {
  default: process.env.CONFORMANCE_ORGANISATION_ID ?? '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
  northwind: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
  harbour: '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11',
  fenwick: 'c0a9e1f2-6d3b-4a8e-b7c4-2f9e8d1a6b53',
};

export class SimWorld extends World<WorldParameters> {
  target!: Target;
  /** Named client whose token requests carry; null sends no Authorization header. */
  client: string | null = 'default';
  readonly tokens = new Map<string, string>();
  readonly vars: Record<string, string> = {};
  last: LastResponse | undefined;
  receiver!: WebhookReceiver;

  constructor(options: IWorldOptions<WorldParameters>) {
    super(options);
  }

  async open(receiver: WebhookReceiver): Promise<void> {
    this.receiver = receiver;
    this.target = await openTarget(this.parameters.target ?? 'inprocess');
    this.vars.organisation_id = ORGANISATIONS.default!;
    this.vars.webhook_url = receiver.url;
  }

  organisationOf(client: string): string {
    const id = ORGANISATIONS[client];
    if (!id) throw new Error(`unknown client ${client}`);
    return id;
  }

  /** Replaces {{name}} with a remembered value; {{new_uuid}} with a fresh UUID. */
  interpolate(text: string): string {
    return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
      if (name === 'new_uuid') return randomUUID();
      const v = this.vars[name];
      if (v === undefined) throw new Error(`no value remembered as "${name}"`);
      return v;
    });
  }

  async token(client: string): Promise<string> {
    const cached = this.tokens.get(client);
    if (cached) return cached;
    const creds = this.target.clients[client];
    if (!creds) throw new Error(`no credentials for client "${client}" on target ${this.target.name}`);
    const res = await this.target.fetch(
      new Request(`${this.target.baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }),
    );
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
    if (this.client !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${await this.token(this.client)}`);
    let body = options.body;
    if (options.contentType === null) {
      // No Content-Type at all: a string body would otherwise be labelled text/plain by fetch.
      headers.delete('content-type');
      if (typeof body === 'string') body = new TextEncoder().encode(body);
    } else if (options.contentType !== undefined) headers.set('content-type', options.contentType);
    else if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const res = await this.target.fetch(
      new Request(`${this.target.baseUrl}${this.interpolate(path)}`, {
        method,
        headers,
        ...(body !== undefined ? { body: body as BodyInit } : {}),
      }),
    );
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

/** Reads a dotted path (`data.attributes.name.0`) out of a JSON value. */
export function pick(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}
