import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resendingOnClose } from './fetch-again.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A server that drops the connection of its first `drops` requests without answering. */
async function dropping(drops: number): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  let seen = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      if (seen++ < drops) req.socket.destroy();
      else res.end('ok');
    });
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, bodies };
}

describe('resendingOnClose', () => {
  it('sends a request once more, body and all, when its connection closes before an answer', async () => {
    const { url, bodies } = await dropping(2);
    await expect(fetch(url, { method: 'POST', body: 'x' })).rejects.toThrow('fetch failed');
    const res = await resendingOnClose(fetch)(url, { method: 'POST', body: 'again' });
    expect(await res.text()).toBe('ok');
    expect(bodies).toEqual(['x', 'again', 'again']);
  });

  it('sends it once more only: a second close is the caller’s', async () => {
    const { url, bodies } = await dropping(2);
    await expect(resendingOnClose(fetch)(url, { method: 'POST', body: 'y' })).rejects.toThrow('fetch failed');
    expect(bodies).toEqual(['y', 'y']);
  });
});
