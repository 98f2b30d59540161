import { afterAll, beforeAll, describe } from 'vitest';
import { storeContract } from '../../test/support/store-contract.ts';
import { POSTGRES_MISSING, type PostgresServer, postgresBinDir, startPostgres } from '../harness/postgres-server.ts';

// The same contract as memory and the journal (store-contract.test.ts), on a real PostgreSQL
// server started from Debian's binaries (bash .ci/run installs them).
const havePostgres = postgresBinDir() !== undefined;
if (!havePostgres) console.warn(POSTGRES_MISSING);

let server: PostgresServer | undefined;
beforeAll(async () => {
  if (havePostgres) server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(!havePostgres)('PostgreSQL', () => {
  storeContract({
    name: 'postgres',
    durable: true,
    fresh: async () => ({ postgres: await server!.createDatabase() }),
  });
});
