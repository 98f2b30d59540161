import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import {
  CONTENT_TYPES,
  HOSTILE_HEADERS,
  HOSTILE_IDS,
  HOSTILE_QUERIES,
  ODD_METHODS,
  SMALL_BODIES,
  seeded,
} from './support/hostile-requests.ts';
import { openAccount, subscribeToAccounts } from './support/testing.ts';

// docs/api.md: nothing a client sends causes a 500. src/api/json-bodies-fuzz.test.ts sends hostile
// JSON bodies in process; this sends everything else a client controls, to every operation of the
// OpenAPI document, over a real listening server and raw sockets (no client normalises the request
// line or refuses a header): ids in every path parameter, query strings, headers, methods, content
// types with small bodies, then seeded random mixes of all of them (issue 45). No answer may be a
// 5xx other than an injected fault's, and every request must be answered.

interface Operation {
  method: string;
  template: string;
}
interface Sent {
  method: string;
  target: string;
  headers: Record<string, string | null>;
  body?: string;
}
interface Answer {
  status: number;
  fault: boolean;
  head: string;
}

const UUID = '6f0c2a8e-0000-4000-8000-000000000001';
const PARTICIPANT = '0015800001041REAAY';

let rt: TestRuntime;
let server: RunningServer;
let token: string;
let operations: Operation[];

beforeAll(async () => {
  rt = await testRuntime();
  token = await rt.token();
  server = await listen(rt, 0);
  const doc = (await (await rt.app.request('/v1/openapi.json')).json()) as { paths: Record<string, object> };
  // A reset (which a body of `{}` asks for) empties the world: last, so the records stay for the rest.
  const last = (o: Operation) => Number(o.template === '/v1/simulator/reset');
  operations = Object.entries(doc.paths)
    .flatMap(([template, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), template })))
    .sort((a, b) => last(a) - last(b));
  expect(operations.length).toBeGreaterThanOrEqual(50);
});
beforeEach(async () => {
  existing.set('accounts', await openAccount(rt));
  existing.set('subscriptions', await subscribeToAccounts(rt, [['http', 'http://127.0.0.1:9/hooks']]));
  const report = await rt.call('POST', '/v1/simulator/reports', { report_type: 'BACS_ARUDD' });
  expect(report.status).toBe(201);
  existing.set('reports', ((await report.json()) as { data: { id: string } }).data.id);
});
afterAll(async () => {
  await server.close();
  await rt.close();
});

/** Records that exist, by the collection whose id follows: so that queries and headers reach them. */
const existing = new Map<string, string>();

/** The template's parameters filled in: `chosen` for the one named, an existing record's id (or any) for the others. */
function pathOf(template: string, name?: string, chosen?: string): string {
  return template.replace(/([^/]*)\/\{([^}]+)\}/g, (_, collection: string, p: string) => {
    if (p === name) return `${collection}/${chosen ?? ''}`;
    return `${collection}/${p === 'open_banking_id' ? PARTICIPANT : (existing.get(collection) ?? UUID)}`;
  });
}

/** The request's bytes: the server's Host, a valid token and JSON accept unless `headers` replaces them (`null` removes). */
function bytesOf(s: Sent): Buffer {
  const headers: Record<string, string | null> = {
    host: `127.0.0.1:${server.port}`,
    authorization: `Bearer ${token}`,
    accept: 'application/json',
    ...(s.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...s.headers,
  };
  const lines = [`${s.method} ${s.target} HTTP/1.1`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) if (value !== null) lines.push(`${name}: ${value}`);
  const body = Buffer.from(s.body ?? '', 'utf8');
  if (s.body !== undefined) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/**
 * Sends one request on a socket of its own and reads the answer's head: at the socket's close, or
 * once the head is in for an event stream (which stays open). Status 0: the socket closed unanswered.
 */
function exchange(s: Sent): Promise<Answer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = connect(server.port, '127.0.0.1', () => socket.write(bytesOf(s)));
    const finish = () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('latin1');
      const head = text.slice(0, Math.max(0, text.indexOf('\r\n\r\n'))) || text;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, fault: /\r\nx-scheme-sim-fault:/i.test(head), head: text.slice(0, 600) });
      socket.destroy();
    };
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      const text = Buffer.concat(chunks).toString('latin1');
      if (text.includes('\r\n\r\n') && /\r\ncontent-type: text\/event-stream/i.test(text)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

/** Sends them all, a few at a time; answers the statuses seen and every request answered badly. */
async function sendAll(requests: Sent[]): Promise<{ statuses: Map<number, number>; bad: string[] }> {
  const statuses = new Map<number, number>();
  const bad: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const s = requests[next++]!;
      const a = await exchange(s);
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      if (a.status === 0 || (a.status >= 500 && !a.fault))
        bad.push(
          `${s.method} ${s.target.slice(0, 200)} ${JSON.stringify(s.headers)} body ${JSON.stringify(s.body)?.slice(0, 80)}\n  → ${a.head}`,
        );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { statuses, bad };
}

/** A request's body: a small JSON one where the operation takes one. */
const bodyFor = (method: string) => (method === 'POST' || method === 'PATCH' || method === 'PUT' ? '{}' : undefined);

describe('what a client sends besides a JSON body, over a real server', () => {
  it('answers no 5xx to a hostile id in any path parameter', async () => {
    const requests = operations.flatMap(({ method, template }) =>
      [...template.matchAll(/\{([^}]+)\}/g)].flatMap(([, name]) =>
        HOSTILE_IDS.map((id) => ({ method, target: pathOf(template, name, id), headers: {}, body: bodyFor(method) })),
      ),
    );
    const { statuses, bad } = await sendAll(requests);
    expect(bad, bad.slice(0, 10).join('\n')).toEqual([]);
    // The ids reached the routes: refused for what they are, not all at the door.
    expect((statuses.get(404) ?? 0) + (statuses.get(400) ?? 0)).toBeGreaterThan(requests.length / 2);
  }, 300_000);

  it('answers no 5xx to a hostile query string on any operation', async () => {
    const requests = operations.flatMap(({ method, template }) =>
      HOSTILE_QUERIES.map((q) => ({ method, target: `${pathOf(template)}?${q}`, headers: {}, body: bodyFor(method) })),
    );
    const { statuses, bad } = await sendAll(requests);
    expect(bad, bad.slice(0, 10).join('\n')).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(operations.length);
  }, 300_000);

  it('answers no 5xx to hostile headers on any operation', async () => {
    const requests = operations.flatMap(({ method, template }) =>
      HOSTILE_HEADERS.map((headers) => ({ method, target: pathOf(template), headers, body: bodyFor(method) })),
    );
    const { statuses, bad } = await sendAll(requests);
    expect(bad, bad.slice(0, 10).join('\n')).toEqual([]);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(operations.length);
  }, 300_000);

  it('answers no 5xx to any method on any path, with any content type and a small body', async () => {
    // Every method on every path with three of the (content type, body) pairs, in turn; every pair
    // on the operations that read a body.
    const pairs = CONTENT_TYPES.flatMap((type) => SMALL_BODIES.map((body) => ({ 'content-type': type, body })));
    const paths = [...new Set(operations.map((o) => o.template))].map((t) => pathOf(t));
    let turn = 0;
    const anyMethod = paths.flatMap((target) =>
      ODD_METHODS.flatMap((method) =>
        [0, 1, 2].map(() => {
          const { body, ...headers } = pairs[turn++ % pairs.length]!;
          return { method, target, headers, body };
        }),
      ),
    );
    const readers = operations
      .filter((o) => bodyFor(o.method) !== undefined)
      .flatMap(({ method, template }) =>
        pairs.map(({ body, ...headers }) => ({ method, target: pathOf(template), headers, body })),
      );
    const requests = [...anyMethod, ...readers];
    const { statuses, bad } = await sendAll(requests);
    expect(bad, bad.slice(0, 10).join('\n')).toEqual([]);
    expect(statuses.get(405) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(415) ?? 0).toBeGreaterThan(0);
  }, 600_000);

  it('answers no 5xx to seeded random mixes of all of them', async () => {
    const random = seeded(45);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const requests = Array.from({ length: 1500 }, (): Sent => {
      const { method, template } = pick(operations);
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const name = names.length > 0 && random() < 0.5 ? pick(names) : undefined;
      const headers = Object.assign(
        {},
        ...Array.from({ length: Math.floor(random() * 4) }, () => pick(HOSTILE_HEADERS)),
      );
      return {
        method: random() < 0.8 ? method : pick(ODD_METHODS),
        target: `${pathOf(template, name, name && pick(HOSTILE_IDS))}${random() < 0.7 ? `?${pick(HOSTILE_QUERIES)}` : ''}`,
        headers,
        body: random() < 0.5 ? pick(SMALL_BODIES) : undefined,
      };
    });
    const { bad } = await sendAll(requests);
    expect(bad, bad.slice(0, 10).join('\n')).toEqual([]);
  }, 600_000);
});
