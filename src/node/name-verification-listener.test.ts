import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copRequest, NORTHWIND_COP_PATH } from '../../test/support/testing.ts';
import { verifyIndependently } from '../harness/independent-jws.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { requestListener } from './server.ts';

const NW = '0015800001041REAAY';
const PATH = NORTHWIND_COP_PATH;
const data = (d: Record<string, unknown> = {}) => JSON.stringify(copRequest(d));

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over a real socket, headers exactly as given (no client defaults beyond Host). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  chunked = false,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    if (chunked && body !== undefined) {
      const buf = Buffer.from(body);
      for (let i = 0; i < buf.length; i += 256 * 1024) req.write(buf.subarray(i, i + 256 * 1024));
      req.end();
    } else req.end(body);
  });
}

/** Ids and generated interaction ids differ per answer; everything else must be equal. */
const normalise = (body: string) => body.replace(/"Id":"[0-9a-f-]{36}"/g, '"Id":"*"');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('name verification through the Node adapter of the real server', () => {
  let rt: TestRuntime;
  let server: Server;
  let port: number;
  let token: string;
  let jwk: Record<string, unknown>;
  beforeAll(async () => {
    rt = await testRuntime();
    rt.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      attributes: { bank_id: '400300', account_number: '12345678', name: ['Samantha Holder'] },
    });
    rt.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      attributes: {
        bank_id: '400300',
        account_number: '23456789',
        name: ['John Smith & Jane Smith'],
        joint_account: true,
      },
    });
    token = await rt.token();
    jwk = ((await (await rt.app.request(`/v1/participants/${NW}/jwks.json`)).json()) as { keys: object[] })
      .keys[0] as Record<string, unknown>;
    server = createServer(requestListener(rt));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await rt.close();
  });

  const json = { 'content-type': 'application/json' };
  const auth = () => ({ authorization: `Bearer ${token}`, ...json });
  const cases: Array<[string, string, string, () => Record<string, string>, string | undefined]> = [
    ['full match', 'POST', PATH, auth, data()],
    ['close joint holder', 'POST', PATH, auth, data({ Identification: '40030023456789', Name: 'Jon Smith' })],
    ['no match', 'POST', PATH, auth, data({ Name: 'Robert Unrelated' })],
    ['unknown account', 'POST', PATH, auth, data({ Identification: '40030099999999' })],
    ['sort code not served', 'POST', PATH, auth, data({ Identification: '99999912345678' })],
    ['query string kept out of the path', 'POST', `${PATH}?x=1`, auth, data()],
    ['echoed interaction id', 'POST', PATH, () => ({ ...auth(), 'x-fapi-interaction-id': 'abc-123' }), data()],
    ['no token', 'POST', PATH, () => json, data()],
    ['bad token', 'POST', PATH, () => ({ authorization: 'Bearer nope', ...json }), data()],
    ['not the Bearer scheme', 'POST', PATH, () => ({ authorization: 'Basic abc', ...json }), data()],
    [
      'unknown participant',
      'POST',
      '/v1/participants/UNKNOWN/open-banking/v3.1/accounts/name-verification',
      auth,
      data(),
    ],
    ['unknown path below', 'POST', `/v1/participants/${NW}/open-banking/v3.1/accounts`, auth, data()],
    ['the prefix alone', 'GET', '/v1/participants', auth, undefined],
    ['another method', 'GET', PATH, auth, undefined],
    ['DELETE', 'DELETE', PATH, auth, undefined],
    ['Accept refused', 'POST', PATH, () => ({ ...auth(), accept: 'text/plain' }), data()],
    ['Accept with q=0', 'POST', PATH, () => ({ ...auth(), accept: 'application/json;q=0, */*' }), data()],
    ['Accept vnd.api only', 'POST', PATH, () => ({ ...auth(), accept: 'application/vnd.api+json' }), data()],
    [
      'Content-Type text',
      'POST',
      PATH,
      () => ({ authorization: `Bearer ${token}`, 'content-type': 'text/plain' }),
      data(),
    ],
    ['no Content-Type', 'POST', PATH, () => ({ authorization: `Bearer ${token}` }), data()],
    [
      'charset parameter',
      'POST',
      PATH,
      () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' }),
      data(),
    ],
    ['malformed JSON', 'POST', PATH, auth, '{'],
    ['empty body', 'POST', PATH, auth, ''],
    ['missing Data', 'POST', PATH, auth, '{}'],
    ['wrong types', 'POST', PATH, auth, data({ AccountType: 1, Identification: 40030012345678, Name: null })],
    ['Name too long', 'POST', PATH, auth, data({ Name: 'a'.repeat(141) })],
    ['non-ASCII name', 'POST', PATH, auth, data({ Name: 'Sámántha Hölder' })],
  ];

  it.each(cases)(
    '%s: the same status, headers and body as through Hono',
    async (_label, method, path, headers, body) => {
      const viaNode = await send(port, method, path, headers(), body);
      // A string body would make the web Request add text/plain; bytes carry no type, as on the wire.
      const honoBody =
        body === undefined ? {} : { body: headers()['content-type'] ? body : new TextEncoder().encode(body) };
      const viaHono = await rt.app.request(path, { method, headers: headers(), ...honoBody });
      expect(viaNode.status).toBe(viaHono.status);
      expect(normalise(viaNode.body)).toBe(normalise(await viaHono.text()));
      expect(viaNode.headers['content-type']).toBe(viaHono.headers.get('content-type'));
      expect(viaNode.headers.allow).toBe(viaHono.headers.get('allow') ?? undefined);
      expect(viaNode.headers['www-authenticate']).toBe(viaHono.headers.get('www-authenticate') ?? undefined);
      const interaction = headers()['x-fapi-interaction-id'];
      if (interaction) expect(viaNode.headers['x-fapi-interaction-id']).toBe(interaction);
      else expect(viaNode.headers['x-fapi-interaction-id']).toMatch(UUID);
      expect(viaNode.headers['x-scheme-sim-jws']).toBe(viaHono.headers.get('x-scheme-sim-jws') ?? undefined);
      // Both are signed by the participant the path names (none for an unknown one), over their own bytes.
      const signature = viaNode.headers['x-jws-signature'];
      expect(signature === undefined).toBe(viaHono.headers.get('x-jws-signature') === null);
      if (path.startsWith(`/v1/participants/${NW}/`)) {
        verifyIndependently(String(signature), Buffer.from(viaNode.body), jwk);
      } else expect(signature).toBeUndefined();
    },
  );

  it('serves the JWKS as Hono does, with no token', async () => {
    const viaNode = await send(port, 'GET', `/v1/participants/${NW}/jwks.json`, {});
    const viaHono = await rt.app.request(`/v1/participants/${NW}/jwks.json`);
    expect(viaNode.status).toBe(200);
    expect(viaNode.body).toBe(await viaHono.text());
    expect(viaNode.headers['content-type']).toBe('application/json');
    expect((await send(port, 'DELETE', `/v1/participants/${NW}/jwks.json`, {})).status).toBe(405);
    expect((await send(port, 'GET', '/v1/participants/NOPE/jwks.json', {})).status).toBe(404);
  });

  it('refuses a body over 1 MiB by its declared length, and a chunked one as it arrives, with 413 and a closed connection', async () => {
    const big = `{"pad":"${'x'.repeat(1024 * 1024)}"}`;
    for (const chunked of [false, true]) {
      const res = await send(
        port,
        'POST',
        PATH,
        chunked ? { ...auth(), 'transfer-encoding': 'chunked' } : auth(),
        big,
        chunked,
      );
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
      expect(JSON.parse(res.body)).toMatchObject({ Code: '413 PayloadTooLarge' });
    }
    // The server still answers afterwards.
    expect((await send(port, 'POST', PATH, auth(), data())).status).toBe(200);
  });

  it('leaves URLs that need decoding or normalising to Hono, which answers them the same way', async () => {
    const encoded = await send(
      port,
      'POST',
      `/v1/participants/${NW}/open-banking/v3.1/accounts/name%2Dverification`,
      auth(),
      data(),
    );
    expect(encoded.status).toBe(200);
    const dotted = await send(port, 'GET', '/v1/participants/../organisation/accounts', {
      authorization: `Bearer ${token}`,
    });
    expect(dotted.status).toBe(200); // normalised by the URL parser to the accounts list
    expect(JSON.parse(dotted.body)).toHaveProperty('data');
  });

  it('survives a client that goes away mid-body', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: PATH,
        headers: { ...auth(), 'content-length': '1000' },
        agent: false,
      });
      req.on('error', () => resolve());
      req.write('{"Data":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 20);
    });
    expect((await send(port, 'POST', PATH, auth(), data())).status).toBe(200);
  });
});
