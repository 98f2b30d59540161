import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ERROR_BODY_BYTES, postWebhook, readBodyPrefix } from './http-transport.ts';

const HUGE = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** A server that answers `status` with a 50 MB body written as the client reads it; counts the bytes it got out. */
async function hugeBodyServer(
  status: number,
): Promise<{ url: string; written: () => number; done: Promise<void>; server: Server }> {
  let written = 0;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': String(HUGE) });
    const pump = () => {
      while (written < HUGE) {
        written += CHUNK.byteLength;
        if (!res.write(CHUNK)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', finish);
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, written: () => written, done, server };
}

const request = (uri: string) => ({
  uri,
  id: 'n1',
  body: '{}',
  now: new Date(),
  timeoutMs: 10_000,
  signal: new AbortController().signal,
});

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  servers = [];
});

describe('postWebhook', () => {
  it.each([500, 200, 410])(
    'reads no more than a prefix of a 50 MB body answered with %i, and drops the stream',
    async (status) => {
      const s = await hugeBodyServer(status);
      servers.push(s.server);
      const outcome = await postWebhook(request(s.url));
      expect(outcome.response_code).toBe(status);
      if (status === 500) {
        expect(outcome.error_message).toBe(`callback answered 500: ${'x'.repeat(200)}`);
      }
      await s.done; // the connection was dropped long before the body was all out
      expect(s.written()).toBeLessThan(HUGE / 4);
    },
  );
});

describe('readBodyPrefix', () => {
  it('stops at the limit and cancels the stream', async () => {
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new TextEncoder().encode('y'.repeat(300)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const text = await readBodyPrefix(body);
    expect(text).toHaveLength(MAX_ERROR_BODY_BYTES);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it('reads a short body whole and a missing one as empty', async () => {
    expect(await readBodyPrefix(new Response('upstream down').body)).toBe('upstream down');
    expect(await readBodyPrefix(null)).toBe('');
  });
});

/** A raw server that drops the first `drops` connections once a request arrives (as a receiver closing an idle keep-alive connection does), then answers 200. */
async function droppingServer(drops: number): Promise<{ url: string; connections: () => number; close: () => void }> {
  let connections = 0;
  const server = createNetServer((socket) => {
    const n = ++connections;
    socket.once('data', () => {
      if (n <= drops) return void socket.destroy();
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, connections: () => connections, close: () => server.close() };
}

describe('postWebhook on a connection the receiver closed', () => {
  const request = (uri: string) => ({
    uri,
    id: 'n-1',
    body: '{}',
    now: new Date(),
    timeoutMs: 5_000,
    signal: new AbortController().signal,
  });

  it('sends again at once, on a new connection, and succeeds', async () => {
    const server = await droppingServer(1);
    try {
      expect(await postWebhook(request(server.url))).toEqual({ ok: true, response_code: 200 });
      expect(server.connections()).toBe(2);
    } finally {
      server.close();
    }
  });

  it('sends again only once: a second closed connection is a failure for the retry schedule', async () => {
    const server = await droppingServer(5);
    try {
      const outcome = await postWebhook(request(server.url));
      expect(outcome).toMatchObject({ ok: false, response_code: null, error_category: 'connection_error' });
      expect(server.connections()).toBe(2);
    } finally {
      server.close();
    }
  });
});
