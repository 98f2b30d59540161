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
      `http://[::1]:${server.port}/hooks`,
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
