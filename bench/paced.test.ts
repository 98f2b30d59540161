// The paced load generator: its response parser, and counts against a real node:http server.
// No duration or latency is asserted (shared, noisy machines): counts and correctness only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpParseError, ResponseParser } from './http-response-parser.ts';
import { paced } from './paced.ts';

const RESPONSES = [
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello',
  'HTTP/1.1 100 Continue\r\n\r\n', // interim: not a response of its own
  'HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nab\r\n\r\n3\r\ncde\r\n0\r\nX-Trailer: 1\r\n\r\n',
  'HTTP/1.1 204 No Content\r\nContent-Length: 99\r\n\r\n', // 204 has no body whatever it says
  'HTTP/1.1 201 Created\r\ncontent-length: 0\r\nConnection: close\r\n\r\n',
].join('');
const EXPECTED = [
  [200, false],
  [500, false],
  [204, false],
  [201, true],
];

function parse(chunks: Buffer[]): Array<[number, boolean]> {
  const seen: Array<[number, boolean]> = [];
  const parser = new ResponseParser((status, close) => seen.push([status, close]));
  for (const chunk of chunks) parser.push(chunk);
  expect(parser.idle).toBe(true);
  return seen;
}

describe('ResponseParser', () => {
  const bytes = Buffer.from(RESPONSES, 'latin1');

  it('reads several responses from one chunk', () => {
    expect(parse([bytes])).toEqual(EXPECTED);
  });

  it('reads responses split byte by byte', () => {
    expect(parse([...bytes].map((b) => Buffer.from([b])))).toEqual(EXPECTED);
  });

  it('reads responses split at every other place', () => {
    for (let cut = 1; cut < bytes.length; cut++)
      expect(parse([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(EXPECTED);
  });

  it('is not idle in the middle of a response', () => {
    const parser = new ResponseParser(() => {});
    parser.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel'));
    expect(parser.idle).toBe(false);
  });

  it('fails loudly on what it cannot read', () => {
    const bad = [
      'HTTP/1.1 200 OK\r\n\r\nbody until close',
      'SMTP ready\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ];
    for (const text of bad) expect(() => new ResponseParser(() => {}).push(Buffer.from(text))).toThrow(HttpParseError);
  });
});

describe('paced', () => {
  let server: Server | undefined;
  let connections = 0;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done) ?? done(undefined));
    server = undefined;
    connections = 0;
  });

  /** A real server on a free port; `answer` sees each request's body. */
  async function serve(answer: (body: string, req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (s: string) => (body += s));
      req.on('end', () => answer(body, req, res));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/check?x=1`;
  }

  it('completes every request at a low rate, counts non-2xx, and sends the bodies round robin', async () => {
    const received = new Map<string, number>();
    const url = await serve((body, req, res) => {
      received.set(body, (received.get(body) ?? 0) + 1);
      if (req.url !== '/check?x=1' || req.headers['x-test'] !== 'yes') res.writeHead(400).end();
      else if (body === 'b') res.writeHead(500).end('no');
      else if (body === 'c') {
        res.write('chunked '); // no Content-Length and two writes: a chunked response
        res.end('answer');
      } else res.end('ok');
    });
    const result = await paced({
      url,
      headers: { 'x-test': 'yes' },
      bodies: ['a', 'b', 'c'],
      rate: 200,
      durationSeconds: 1,
    });
    expect(result).toMatchObject({ sent: 200, completed: 200, errors: 0, unsent: 0, non2xx: 67 }); // k % 3 === 1 for k < 200
    expect(Object.fromEntries(received)).toEqual({ a: 67, b: 67, c: 66 });
    expect(connections).toBe(10); // keep-alive: the sockets opened at the start carry every request
    expect(Number.isFinite(result.p99) && result.p50 <= result.p99 && result.p99 <= result.max).toBe(true);
  });

  it('does not count the warm-up', async () => {
    let seen = 0;
    const url = await serve((_body, _req, res) => {
      seen++;
      res.end('ok');
    });
    const result = await paced({ url, method: 'GET', rate: 100, durationSeconds: 0.5, warmupSeconds: 0.3 });
    expect(result).toMatchObject({ sent: 50, completed: 50, errors: 0, non2xx: 0, unsent: 0 });
    expect(seen).toBe(80);
  });

  it('counts, not throws, connections the server destroys', async () => {
    const url = await serve((body, req, res) => {
      if (body === 'kill') req.socket.destroy();
      else res.end('ok');
    });
    const result = await paced({ url, bodies: ['ok', 'ok', 'kill'], rate: 200, durationSeconds: 1 });
    expect(result).toMatchObject({ sent: 200, completed: 134, errors: 66, non2xx: 0, unsent: 0 });
  });

  it('counts errors when nothing listens', async () => {
    const url = await serve((_body, _req, res) => res.end());
    server!.close();
    server!.closeAllConnections();
    const result = await paced({ url, rate: 50, durationSeconds: 0.2, connections: 2 });
    expect(result.completed).toBe(0);
    expect(result.errors).toBe(result.sent);
    expect(result.sent + result.unsent).toBe(10);
  });
});
