import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresForTests } from '../../test/support/postgres-for-tests.ts';
import { storeContract } from '../../test/support/store-contract.ts';
import { openPostgresPool, type PostgresPool, sandboxSchemaName } from './store.ts';

// The same contract as memory and the journal (store-contract.test.ts), on a real PostgreSQL
// server started from Debian's binaries (bash .ci/run installs them): the default store, and a
// sandbox's store in a schema of its own on a shared pool.
const postgres = postgresForTests();
let pool: PostgresPool | undefined;
beforeAll(async () => {
  if (!postgres.available) return;
  pool = await openPostgresPool(await postgres.server.createDatabase(), { max: 4 });
}, 60_000);
afterAll(async () => {
  await pool?.close();
});

describe.skipIf(!postgres.available)('PostgreSQL', () => {
  storeContract({
    name: 'postgres',
    durable: true,
    commitsOverlap: true,
    fresh: async () => ({ postgres: await postgres.server.createDatabase() }),
  });
  storeContract({
    name: 'postgres sandbox schema',
    durable: true,
    commitsOverlap: true,
    fresh: async () => ({ postgresPool: pool!, postgresSchema: sandboxSchemaName(randomUUID()) }),
  });
});
