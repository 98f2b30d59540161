import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SIGNING_KEY_ID, devSigningKey } from '../../test/support/dev-signing-key.ts';
import { copRequest, NORTHWIND_COP_PATH } from '../../test/support/testing.ts';
import { form3SignedHeaders } from '../client/form3-request-signer.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { requestListener } from './server.ts';

// Name verification, like every route, answers a request signed as Form3's Go SDK signs them
// (Authorization: Signature …) instead of a bearer token: through the Node adapter of the real
// server and through Hono (a path with something to decode goes there).

let rt: TestRuntime;
let server: Server;
let base: string;
beforeAll(async () => {
  rt = await testRuntime();
  rt.sim.accounts.create({
    id: crypto.randomUUID(),
    organisation_id: NORTHWIND.organisation_id,
    attributes: { country: 'GB', bank_id: '400300', account_number: '12345678', name: ['Samantha Holder'] },
  });
  server = createServer(requestListener(rt));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await rt.close();
});

/** The URL of a path and the headers that sign a POST of `body` to it with the dev key. */
function signed(path: string, body: string): { url: URL; headers: Record<string, string> } {
  const url = new URL(`${base}${path}`);
  const headers = form3SignedHeaders(
    url,
    'POST',
    body,
    DEV_SIGNING_KEY_ID,
    devSigningKey(),
    rt.wall.now(),
    'application/json',
  );
  return { url, headers };
}

async function signedPost(path: string, body: string, tamper: (h: Record<string, string>) => void = () => {}) {
  const { url, headers } = signed(path, body);
  tamper(headers);
  return fetch(url, { method: 'POST', headers, body });
}

describe('name verification signed as Form3 signs requests', () => {
  it.each([
    ['the Node adapter', NORTHWIND_COP_PATH],
    ['Hono (an encoded path)', NORTHWIND_COP_PATH.replace('name-verification', 'name%2Dverification')],
  ])('answers through %s', async (_via, path) => {
    const res = await signedPost(path, JSON.stringify(copRequest()));
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text).Data.VerificationReport).toEqual({ Matched: true });
  });

  it('refuses a body other than the one the Digest covers, with a 401 in Open Banking terms', async () => {
    const body = JSON.stringify(copRequest());
    const { url, headers } = signed(NORTHWIND_COP_PATH, body);
    const other = JSON.stringify(copRequest({ Name: 'Someone Else' }))
      .padEnd(body.length, ' ')
      .slice(0, body.length);
    const res = await fetch(url, { method: 'POST', headers, body: other });
    const json = (await res.json()) as { Code: string; Message: string };
    expect(res.status).toBe(401);
    expect(json.Message).toContain('digest does not match the body');
  });

  it('refuses an unknown key id and a replay', async () => {
    const body = JSON.stringify(copRequest({ Name: 'Samantha Holder ' }));
    const unknown = await signedPost(NORTHWIND_COP_PATH, body, (h) => {
      h.Authorization = h.Authorization!.replace(DEV_SIGNING_KEY_ID, '11111111-2222-4333-8444-555555555555');
    });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { Message: string }).Message).toContain('is not a key of any client');
    const { url, headers } = signed(NORTHWIND_COP_PATH, body);
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(200);
    const replay = await fetch(url, { method: 'POST', headers, body });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { Message: string }).Message).toContain('already used');
  });
});
