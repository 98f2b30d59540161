import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecording } from './exchange-record.ts';
import { proxyCommand, startProxy } from './proxy.ts';

// The proxy in front of a plain HTTP server: it streams (a first chunk reaches the client while
// the answer is still open), passes any method, header and bytes through, answers 502 when the
// target does not, and records each exchange.

let dir: string;
let upstream: Server;
let target: string;
let releaseStream: () => void = () => {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-'));
  upstream = createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: first\n\n');
      releaseStream = () => res.end('event: last\n\n');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      res.writeHead(207, {
        'content-type': 'application/octet-stream',
        'x-echo-method': req.method,
        'x-echo-header': String(req.headers['x-custom']),
      });
      res.end(body);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('scheme-sim proxy', () => {
  it('passes methods, headers and bytes through, and records them', async () => {
    const file = join(dir, 'echo.jsonl');
    const proxy = await startProxy(target, file);
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const res = await fetch(`${proxy.url}/anything?x=1`, {
      method: 'PATCH',
      headers: { 'x-custom': 'kept', 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(res.status).toBe(207);
    expect(res.headers.get('x-echo-method')).toBe('PATCH');
    expect(res.headers.get('x-echo-header')).toBe('kept');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    await proxy.close();
    const [exchange] = readRecording(file);
    expect(exchange).toMatchObject({
      seq: 1,
      request: {
        method: 'PATCH',
        path: '/anything?x=1',
        headers: { 'x-custom': 'kept' },
        body: bytes.toString('base64'),
        encoding: 'base64',
      },
      response: {
        status: 207,
        headers: { 'x-echo-method': 'PATCH' },
        body: bytes.toString('base64'),
        encoding: 'base64',
      },
    });
  });

  it('streams: the first event reaches the client before the answer ends', async () => {
    const file = join(dir, 'stream.jsonl');
    const proxy = await startProxy(target, file);
    const first = await new Promise<string>((resolve, reject) => {
      const req = request(`${proxy.url}/stream`, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          if (text.includes('first')) {
            resolve(text);
            releaseStream();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(first).toBe('event: first\n\n');
    // Recorded once the answer has ended, with both events.
    for (let i = 0; i < 100 && readRecording(file).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(readRecording(file)[0]?.response?.body).toBe('event: first\n\nevent: last\n\n');
    await proxy.close();
  });

  it('answers 502 when the target does not, and records why', async () => {
    const file = join(dir, 'down.jsonl');
    const proxy = await startProxy('http://127.0.0.1:9', file);
    const res = await fetch(`${proxy.url}/health`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error_message: string }).error_message).toMatch(
      /^scheme-sim proxy: the target did not answer: .*ECONNREFUSED/,
    );
    await proxy.close();
    expect(readRecording(file)[0]).toMatchObject({
      request: { path: '/health' },
      error: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('runs a command through it (-- COMMAND), with PROXY_URL set, and exits with its status', async () => {
    const file = join(dir, 'command.jsonl');
    const script =
      "fetch(process.env.PROXY_URL + '/ping', { method: 'POST', body: 'hi' }).then((r) => process.exit(r.status === 207 && process.env.SCHEME_SIM_URL === process.env.PROXY_URL ? 3 : 4))";
    const code = await proxyCommand(
      ['--target', target, '--record', file, '--port', '0', '--', process.execPath, '-e', script],
      { PATH: process.env.PATH },
    );
    expect(code).toBe(3);
    expect(readRecording(file).map((e) => `${e.request.method} ${e.request.path} ${e.request.body}`)).toEqual([
      'POST /ping hi',
    ]);
  });

  it('refuses a missing --record, a port that is none, and -- without a command', async () => {
    await expect(proxyCommand(['--target', target])).rejects.toThrow(/--record FILE names the recording/);
    await expect(proxyCommand(['--record', 'x', '--port', 'http'])).rejects.toThrow(
      /--port must be a port number, got 'http'/,
    );
    await expect(proxyCommand(['--record', join(dir, 'x'), '--target', target, '--'])).rejects.toThrow(
      /-- must be followed by a command/,
    );
  });
});
