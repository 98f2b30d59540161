// The tests that need a real PostgreSQL get it one way: skipped with a warning on a machine
// without its binaries (bash .ci/run installs them), one server per test file, started before the
// file's tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import {
  POSTGRES_MISSING,
  type PostgresServer,
  postgresBinDir,
  startPostgres,
} from '../../src/harness/postgres-server.ts';

export interface TestPostgres {
  /** Whether this machine has PostgreSQL: `describe.skipIf(!postgres.available)`. */
  readonly available: boolean;
  /** The file's server, from its first beforeAll on (registered here, so it runs first and stops last). */
  readonly server: PostgresServer;
}

/** Call at a test file's top level, before its own hooks. */
export function postgresForTests(): TestPostgres {
  const available = postgresBinDir() !== undefined;
  if (!available) console.warn(POSTGRES_MISSING);
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    if (available) server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    available,
    get server(): PostgresServer {
      if (!server) throw new Error('PostgreSQL is not started yet: ask for it in a test or a hook');
      return server;
    },
  };
}
