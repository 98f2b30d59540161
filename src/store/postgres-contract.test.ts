import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { storeContract } from '../../test/support/store-contract.ts';
import { POSTGRES_MISSING, type PostgresServer, postgresBinDir, startPostgres } from '../harness/postgres-server.ts';
import { openPostgresPool, type PostgresPool, sandboxSchemaName } from './store.ts';

// The same contract as memory and the journal (store-contract.test.ts), on a real PostgreSQL
// server started from Debian's binaries (bash .ci/run installs them): the default store, and a
// sandbox's store in a schema of its own on a shared pool.
const havePostgres = postgresBinDir() !== undefined;
if (!havePostgres) console.warn(POSTGRES_MISSING);

let server: PostgresServer | undefined;
let pool: PostgresPool | undefined;
beforeAll(async () => {
  if (!havePostgres) return;
  server = await startPostgres();
  pool = await openPostgresPool(await server.createDatabase(), { max: 4 });
}, 60_000);
afterAll(async () => {
  await pool?.close();
  await server?.stop();
});

describe.skipIf(!havePostgres)('PostgreSQL', () => {
  storeContract({
    name: 'postgres',
    durable: true,
    fresh: async () => ({ postgres: await server!.createDatabase() }),
  });
  storeContract({
    name: 'postgres sandbox schema',
    durable: true,
    fresh: async () => ({ postgresPool: pool!, postgresSchema: sandboxSchemaName(randomUUID()) }),
  });
});
