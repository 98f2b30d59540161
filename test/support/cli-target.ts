// A test runtime listening on a free port, with the environment a CLI command reads to reach it as
// Northwind: what the tests of the commands that talk to a running simulator share.

import { NORTHWIND, type TestRuntime, testRuntime } from '../../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../../src/node/server.ts';

export interface CliTarget {
  rt: TestRuntime;
  server: RunningServer;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function cliTarget(): Promise<CliTarget> {
  const rt = await testRuntime();
  const server = await listen(rt, 0);
  return {
    rt,
    server,
    env: {
      SCHEME_SIM_URL: server.url,
      SCHEME_SIM_CLIENT_ID: NORTHWIND.client_id,
      SCHEME_SIM_CLIENT_SECRET: NORTHWIND.client_secret,
    },
    async close() {
      await server.close();
      await rt.close();
    },
  };
}
