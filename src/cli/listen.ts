// `scheme-sim listen`: like Stripe's `listen`, a temporary webhook subscription for the given
// record types whose notifications are printed and forwarded to a local URL, removed on exit.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { CliError } from './cli-errors.ts';
import { CONNECTION, type Connection, connect, organisationOf, readAnswer } from './connection.ts';
import { readEvents } from './event-stream.ts';
import { parseCommand, usageError } from './usage.ts';

export const LISTEN_HELP = `Usage: scheme-sim listen [--types T,T] [--events E,E] [--forward-to URL] [--port N]

Subscribes a temporary webhook (on 127.0.0.1, --port or a free one) for each record type and event
type, prints each notification as it arrives and, with --forward-to, posts it (body and signature
headers as they came) to a local URL. The subscriptions are deleted when it stops (Ctrl-C).
While it runs it holds them on the simulator's live log: a reset keeps them (and says so), and
subscriptions found gone (a simulator restarted without its data) are made again.
  --types T,T       record types (default: claim_submissions,payment_admissions,report_admissions)
  --events E,E      event types (default: created,updated)
  --forward-to URL  where to post each notification
  --url URL, --client-id ID, --client-secret S   as for scheme-sim clock (or a simulator's profile)
  --sandbox ID      a sandbox of it (env SCHEME_SIM_SANDBOX; scheme-sim sandbox --help)
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

/** The notifications' webhook on 127.0.0.1: prints each and forwards it, with its signature headers. */
async function webhookReceiver(
  port: number,
  forward: string | undefined,
  json: boolean,
  out: (line: string) => void,
): Promise<{ callback: string; close(): Promise<void> }> {
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
        json ? body : `${new Date().toISOString()} ${n.event_type} ${n.record_type} ${n.data?.data?.id ?? ''}`.trim(),
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
  return {
    callback: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

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
    throw usageError(`--forward-to must be an http(s) URL, got '${forward}'`, LISTEN_HELP);
  const port = Number(values.port);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw usageError(`--port must be 0–65535, got ${values.port}`, LISTEN_HELP);
  const types = String(values.types).split(',').filter(Boolean);
  const events = String(values.events).split(',').filter(Boolean);
  const stop = new AbortController();
  signal?.addEventListener('abort', () => stop.abort(), { once: true });
  const session: Session = {
    conn: await connect(values, env, note),
    renew: () => connect(values, env, () => undefined),
  };
  const receiver = await webhookReceiver(port, forward, values.json === true, out);
  const subs = new ListenerSubscriptions(session, receiver.callback, types, events);
  try {
    await subs.create(await organisationOf(session.conn));
  } catch (err) {
    await subs.remove();
    await receiver.close();
    throw err;
  }
  out(
    `listening on ${receiver.callback} for ${events.join(',')} of ${types.join(',')}${forward ? `, forwarding to ${forward}` : ''} (${subs.ids.length} subscriptions; Ctrl-C stops and removes them)`,
  );
  try {
    await followResets(session, subs, out, stop.signal);
  } finally {
    await subs.remove();
    await receiver.close();
  }
}

/** The connection, and how to make it again (a new token after the simulator restarted). */
interface Session {
  conn: Connection;
  renew(): Promise<Connection>;
}

/** The subscriptions of one listen: made, made again when gone, removed at the end. */
class ListenerSubscriptions {
  readonly ids: string[] = [];
  readonly #wanted: Array<{ id: string; record_type: string; event_type: string }> = [];
  #organisation = '';

  constructor(
    private readonly session: Session,
    private readonly callback: string,
    private readonly types: string[],
    private readonly events: string[],
  ) {}

  async create(organisation: string): Promise<void> {
    this.#organisation = organisation;
    for (const record_type of this.types)
      for (const event_type of this.events) {
        const wanted = { id: randomUUID(), record_type, event_type };
        await this.#post(wanted);
        this.#wanted.push(wanted);
        this.ids.push(wanted.id);
      }
  }

  /** Makes again (same ids) those the simulator no longer has; answers how many. */
  async remake(): Promise<number> {
    let made = 0;
    for (const w of this.#wanted) {
      const res = await this.session.conn.request(`/v1/notification/subscriptions/${w.id}`);
      await res.body?.cancel();
      if (res.status !== 404) continue;
      await this.#post(w);
      made++;
    }
    return made;
  }

  async remove(): Promise<void> {
    for (const id of this.ids)
      await this.session.conn
        .request(`/v1/notification/subscriptions/${id}?version=0`, { method: 'DELETE' })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
  }

  async #post(w: { id: string; record_type: string; event_type: string }): Promise<void> {
    const res = await this.session.conn.request('/v1/notification/subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        data: {
          id: w.id,
          organisation_id: this.#organisation,
          attributes: {
            record_type: w.record_type,
            event_type: w.event_type,
            callback_transport: 'http',
            callback_uri: this.callback,
          },
        },
      }),
    });
    if (res.status !== 201)
      throw new CliError(`subscribing to ${w.event_type} ${w.record_type}: ${res.status} ${await res.text()}`);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows the simulator's live log holding the subscriptions (`attach`), so a reset keeps them,
 * until `signal` aborts. A reset is said once; subscriptions found gone (a simulator restarted
 * without its data, a stream lost while a reset ran) are made again and said once; a simulator
 * that went away is waited for, said once.
 */
async function followResets(
  session: Session,
  subs: ListenerSubscriptions,
  out: (line: string) => void,
  signal: AbortSignal,
): Promise<void> {
  let lost = false;
  while (!signal.aborted) {
    let res: Response;
    try {
      res = await session.conn.request(`/v1/simulator/stream?filter[kind]=reset&attach=${subs.ids.join(',')}`, {
        headers: { accept: 'text/event-stream' },
        signal,
      });
    } catch (err) {
      if (signal.aborted) return;
      if (!lost) out(`lost the simulator (${(err as Error).message}); trying again every second`);
      lost = true;
      await sleep(1000, signal);
      continue;
    }
    if (res.status === 401) {
      await res.body?.cancel();
      session.conn = await session.renew();
      continue;
    }
    if (res.status === 404) {
      await res.body?.cancel();
      const made = await subs.remake();
      out(`the subscriptions were gone (the simulator was reset or restarted): ${made} made again`);
      continue;
    }
    if (res.status !== 200) await readAnswer(res, session.conn);
    if (lost) out(`back on ${session.conn.base}`);
    lost = false;
    try {
      for await (const e of readEvents(res)) {
        if (e.event !== 'reset') continue;
        const r = JSON.parse(e.data) as { scope: string; organisation_id?: string; kept_subscriptions: string[] };
        out(
          `the simulator was reset (${r.scope === 'all' ? 'everything' : `organisation ${r.organisation_id}`}); listen's subscriptions were kept (${r.kept_subscriptions.length})`,
        );
      }
    } catch {
      // the stream broke: follow again
    }
  }
}
