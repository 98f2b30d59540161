import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime } from '../runtime.ts';
import { listen, type RunningServer } from './server.ts';

// A client that leaves mid-body, or sends framing the parser gives up on, is no server error: the
// operator's log must not show a 500 for it (issue: 34 such lines in one fuzz run).

let server: RunningServer;
beforeAll(async () => {
  const runtime = await createRuntime({ memory: true, auth: 'off', scheduledReports: false, seedAccounts: false });
  server = await listen(runtime, 0);
});
afterAll(() => server.close());

/** Writes raw bytes, waits a little for an answer, then drops the connection. */
function raw(bytes: string, waitMs = 30): Promise<string> {
  return new Promise((done) => {
    let answer = '';
    const socket = connect(server.port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (d) => {
      answer += d;
    });
    socket.on('error', () => {});
    setTimeout(() => {
      socket.destroy();
      done(answer);
    }, waitMs);
  });
}

/** A small deterministic generator (mulberry32): the same fuzz every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROUTES = [
  '/v1/organisation/accounts',
  '/v1/notification/subscriptions',
  '/v1/transaction/claims',
  '/v1/simulator/reports',
  '/v1/simulator/clock/advance',
  '/v1/simulator/reset',
  '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification',
  '/v1/oauth2/token',
];
const BODY = JSON.stringify({
  data: {
    id: 'f2c1b0a4-5d6e-4f70-8a91-b2c3d4e5f607',
    organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
    type: 'accounts',
    attributes: { country: 'GB', name: ['Samantha Holder'], bank_id: '400300', bank_id_code: 'GBDSC', bic: 'NWBKGB22' },
  },
});

/** A request whose body stops early, or whose chunked framing breaks, at a random point. */
function brokenRequest(next: () => number): string {
  const path = ROUTES[Math.floor(next() * ROUTES.length)]!;
  const cut = Math.floor(next() * BODY.length);
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`;
  switch (Math.floor(next() * 3)) {
    case 0: // promises more than it sends, then leaves
      return `${head}Content-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, cut)}`;
    case 1: // a chunk size that is not hexadecimal
      return `${head}Transfer-Encoding: chunked\r\n\r\n${cut.toString(16)}\r\n${BODY.slice(0, cut)}\r\nzz\r\n`;
    default: // a chunk longer than its size says, then leaves
      return `${head}Transfer-Encoding: chunked\r\n\r\n2\r\n${BODY.slice(0, cut + 3)}`;
  }
}

describe('client aborts and malformed framing', () => {
  it('are logged at info as what they are, never as a 500, over 150 fuzzed requests', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const infos = vi.spyOn(console, 'info').mockImplementation(() => {});
    try {
      const next = random(20);
      for (let i = 0; i < 150; i++) {
        const answer = await raw(brokenRequest(next));
        expect(answer).not.toMatch(/^HTTP\/1\.1 5\d\d/);
      }
      await new Promise((r) => setTimeout(r, 100)); // the last aborts reach the handlers
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([]);
      const lines = infos.mock.calls.map((c) => String(c[0]));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/the client left before its request was read/);
    } finally {
      errors.mockRestore();
      infos.mockRestore();
    }
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  }, 60_000);
});
