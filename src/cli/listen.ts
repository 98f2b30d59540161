// `scheme-sim listen`: like Stripe's `listen`, a temporary webhook subscription for the given
// record types whose notifications are printed and forwarded to a local URL, removed on exit.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { CliError, UsageError } from './cli-errors.ts';
import { CONNECTION, type Connection, connect } from './connection.ts';
import { parseCommand } from './usage.ts';

export const LISTEN_HELP = `Usage: scheme-sim listen [--types T,T] [--events E,E] [--forward-to URL] [--port N]

Subscribes a temporary webhook (on 127.0.0.1, --port or a free one) for each record type and event
type, prints each notification as it arrives and, with --forward-to, posts it (body and signature
headers as they came) to a local URL. The subscriptions are deleted when it stops (Ctrl-C).
  --types T,T       record types (default: claim_submissions,payment_admissions,report_admissions)
  --events E,E      event types (default: created,updated)
  --forward-to URL  where to post each notification
  --url URL, --client-id ID, --client-secret S   as for scheme-sim clock (or the profile npm start wrote)
  --json            print each notification in full
  -h, --help        this help`;

const FORWARDED = [
  'content-type',
  'date',
  'digest',
  'signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
];

/** Runs until `signal` aborts (Ctrl-C in the CLI); answers when the subscriptions are gone. */
export async function listenCommand(
  argv: string[],
  out: (line: string) => void = console.log,
  env: Record<string, string | undefined> = process.env,
  signal?: AbortSignal,
  note?: (line: string) => void,
): Promise<void> {
  const { values } = parseCommand(
    argv,
    {
      ...CONNECTION,
      types: { type: 'string', default: 'claim_submissions,payment_admissions,report_admissions' },
      events: { type: 'string', default: 'created,updated' },
      'forward-to': { type: 'string' },
      port: { type: 'string', default: '0' },
    },
    LISTEN_HELP,
  );
  if (values.help) return void out(LISTEN_HELP);
  const forward = values['forward-to'] as string | undefined;
  if (forward !== undefined && !/^https?:\/\/./.test(forward))
    throw new UsageError(`--forward-to must be an http(s) URL, got '${forward}'`);
  const port = Number(values.port);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new UsageError(`--port must be 0–65535, got ${values.port}`);
  const types = String(values.types).split(',').filter(Boolean);
  const events = String(values.events).split(',').filter(Boolean);
  const conn = await connect(values, env, note);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      const body = Buffer.concat(chunks).toString('utf8');
      let n: { event_type?: string; record_type?: string; data?: { data?: { id?: string } } } = {};
      try {
        n = JSON.parse(body);
      } catch {
        // printed as it came
      }
      out(
        values.json
          ? body
          : `${new Date().toISOString()} ${n.event_type} ${n.record_type} ${n.data?.data?.id ?? ''}`.trim(),
      );
      if (forward) {
        const headers: Record<string, string> = {};
        for (const h of FORWARDED) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
        fetch(forward, { method: 'POST', headers, body }).then(
          (r) => out(`  → ${forward} ${r.status}`),
          (err: Error) => out(`  → ${forward} failed: ${err.message}`),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const callback = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const created: string[] = [];
  const stop = async () => {
    for (const id of created)
      await conn.request(`/v1/notification/subscriptions/${id}?version=0`, { method: 'DELETE' }).catch(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    const organisation = await organisationOf(conn);
    for (const record_type of types) {
      for (const event_type of events) {
        const id = randomUUID();
        const res = await conn.request('/v1/notification/subscriptions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            data: {
              id,
              organisation_id: organisation,
              attributes: { record_type, event_type, callback_transport: 'http', callback_uri: callback },
            },
          }),
        });
        if (res.status !== 201)
          throw new CliError(`subscribing to ${event_type} ${record_type}: ${res.status} ${await res.text()}`);
        created.push(id);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  out(
    `listening on ${callback} for ${events.join(',')} of ${types.join(',')}${forward ? `, forwarding to ${forward}` : ''} (${created.length} subscriptions; Ctrl-C stops and removes them)`,
  );
  await new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', () => resolve());
  });
  await stop();
}

/**
 * The caller's organisation: the token's own claim (scheme-sim tokens are JWTs naming it); without a
 * token (--auth off), the organisation the journal files the caller's requests under.
 */
async function organisationOf(conn: Connection): Promise<string> {
  const token = conn.auth.authorization?.split(' ')[1];
  if (token) {
    try {
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
      if (typeof claims.organisation_id === 'string') return claims.organisation_id;
    } catch {
      // not a JWT: ask the simulator
    }
  }
  await conn.request('/v1/simulator/clock');
  const probe = await conn.request('/v1/simulator/requests?page[size]=1');
  const json = (await probe.json()) as { data?: Array<{ attributes: { organisation_id?: string } }> };
  const org = json.data?.[0]?.attributes.organisation_id;
  if (!org) throw new CliError(`cannot tell the organisation of these credentials (${probe.status})`);
  return org;
}
