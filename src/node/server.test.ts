import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime.ts';
import { listen, type RunningServer } from './server.ts';

// A subscription whose callback is the simulator itself would have its deliveries call the
// simulator's own API (two of them redelivering each other spin forever): refused once listening.

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const subscription = (callback_uri: string) => ({
  data: {
    id: crypto.randomUUID(),
    organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
    type: 'subscriptions',
    attributes: { event_type: 'created', record_type: 'accounts', callback_transport: 'http', callback_uri },
  },
});

describe('listen', () => {
  it('refuses a callback_uri at its own host and port, by any loopback name, and accepts another port', async () => {
    const runtime = await createRuntime({ memory: true, auth: 'off', scheduledReports: false, seedAccounts: false });
    server = await listen(runtime, 0, '127.0.0.1');
    const post = (uri: string) =>
      fetch(`${server!.url}/v1/notification/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(subscription(uri)),
      });
    for (const uri of [
      `${server.url}/v1/simulator/deliveries/${crypto.randomUUID()}/redeliver`,
      `http://localhost:${server.port}/v1/organisation/accounts`,
      // (An IPv6 literal such as [::1] is refused earlier: Form3's callback_uri pattern has no brackets.)
      `http://127.0.0.2:${server.port}/hooks`,
    ]) {
      const res = await post(uri);
      expect(res.status, uri).toBe(400);
      expect(((await res.json()) as { error_message: string }).error_message).toContain(
        `callback_uri in body must not point at the simulator itself (127.0.0.1:${server.port})`,
      );
    }
    const other = server.port === 65535 ? 65534 : server.port + 1;
    expect((await post(`http://127.0.0.1:${other}/v1/hooks`)).status).toBe(201);
  });
});

// The machine's own name, through the system resolver (the hosts file maps it on Debian and in
// containers): bound to every interface, the simulator answers at whatever it resolves to.
const own = await lookup(hostname(), { all: true }).catch(() => []);

describe('listen, and callback host names that resolve to the simulator', () => {
  const post = (uri: string) =>
    fetch(`${server!.url}/v1/notification/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(subscription(uri)),
    });

  it('refuses a name a resolver maps to 127.0.0.1 at its port, and accepts it at another', async () => {
    const runtime = await createRuntime({
      memory: true,
      auth: 'off',
      scheduledReports: false,
      seedAccounts: false,
      resolveHost: async (name) => (name === 'sim.example.test' ? ['127.0.0.1'] : []),
    });
    server = await listen(runtime, 0, '127.0.0.1');
    const refused = await post(`http://sim.example.test:${server.port}/v1/simulator/deliveries`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error_message: string }).error_message).toBe(
      `validation failure list: callback_uri in body must not point at the simulator itself: sim.example.test resolves to 127.0.0.1, where it listens (127.0.0.1:${server.port})`,
    );
    expect((await post(`http://sim.example.test:${server.port + 1}/hooks`)).status).toBe(201);
    expect((await post(`http://elsewhere.example.test:${server.port}/hooks`)).status).toBe(201);
  });

  it.runIf(own.length > 0)(`refuses the machine's own host name (${hostname()}) when bound to 0.0.0.0`, async () => {
    const runtime = await createRuntime({ memory: true, auth: 'off', scheduledReports: false, seedAccounts: false });
    server = await listen(runtime, 0, '0.0.0.0');
    server.url = `http://127.0.0.1:${server.port}`;
    const refused = await post(`http://${hostname()}:${server.port}/hooks`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error_message: string }).error_message).toContain(
      `${hostname().toLowerCase()} resolves to`,
    );
  });
});

describe('OPTIONS over HTTP', () => {
  it('goes through authentication unless it is a CORS preflight, the Node fast path of name verification too', async () => {
    const runtime = await createRuntime({ memory: true, scheduledReports: false, seedAccounts: false });
    server = await listen(runtime, 0, '127.0.0.1');
    const cop = '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification';
    for (const path of [cop, '/v1/simulator/clock', '/v1/zzz']) {
      const plain = await fetch(`${server.url}${path}`, { method: 'OPTIONS' });
      expect(plain.status, path).toBe(401);
      const preflight = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status, path).toBe(204);
    }
  });
});

describe('the requests the server answers', () => {
  it('are counted, so background delivery can give way to them', async () => {
    const runtime = await createRuntime({ memory: true, auth: 'off', scheduledReports: false, seedAccounts: false });
    server = await listen(runtime, 0, '127.0.0.1');
    const hour = 3_600_000;
    expect(runtime.requests.untilQuiet(hour)).toBe(0); // none answered yet
    await (await fetch(`${server.url}/health`)).arrayBuffer();
    expect(runtime.requests.untilQuiet(hour)).toBeGreaterThan(0);
  });
});
