import { afterEach, describe, expect, it } from 'vitest';
import { requestSchemasOf } from '../api/app.ts';
import { isCompiled } from '../api/schemas/index.ts';
import { createRuntime } from '../runtime.ts';
import { listen, type RunningServer } from './server.ts';

// The first requests to a fresh server must not wait for what the first of them would make: a
// validator compiled on the event loop, a participant's RSA key (bench/first-requests.ts).

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('listen warms the runtime before it listens', () => {
  it('compiles the validator of every request body and readies every participant key', async () => {
    const runtime = await createRuntime({ memory: true, scheduledReports: false });
    const schemas = requestSchemasOf(runtime.app);
    expect(schemas).toEqual(expect.arrayContaining(['account-create', 'name-verification-request', 'claim-create']));
    server = await listen(runtime, 0);
    for (const id of schemas) expect(isCompiled(id), id).toBe(true);
    for (const p of runtime.sim.participants.all())
      expect(runtime.sim.signingKeys.get(p.open_banking_id)).toBeDefined();
  });
});
