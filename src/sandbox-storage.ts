// Where each sandbox's store lives, in the engine the server's own store uses: in memory, a data
// file of its own beside the server's, or a schema of its own in the server's PostgreSQL database.
// Deleting a sandbox removes that file or schema, so its storage is freed.
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { STORED_SECRETS } from './api/stored-records.ts';
import type { RecordCheck } from './store/load-check.ts';
import {
  type LeaseFence,
  openPostgresPool,
  openStore,
  type PostgresPool,
  type Store,
  sandboxSchemaName,
} from './store/store.ts';

export interface SandboxStorage {
  /** Whether stores outlive the process (a data file or a schema): a store made ahead then saves a create its disk time. */
  readonly persistent: boolean;
  /** The ids of the sandboxes kept (none in memory). */
  list(): Promise<string[]>;
  /** Opens (or makes) sandbox `id`'s store. */
  open(id: string): Promise<Store>;
  /** Frees a closed sandbox's storage. */
  remove(id: string): Promise<void>;
  /** Releases what the storage holds besides the stores (a connection pool). */
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function sandboxStorage(
  location:
    | { memory: true }
    | { file: string }
    | { postgres: string; fence?: LeaseFence; fenceOf?: (id: string) => LeaseFence },
  options: { check?: RecordCheck; warn?: (message: string) => void },
): SandboxStorage {
  if ('file' in location) return fileStorage(location.file, options);
  if ('postgres' in location)
    return postgresStorage(location.postgres, { ...options, fence: location.fence, fenceOf: location.fenceOf });
  return {
    persistent: false,
    list: async () => [],
    open: () => openStore({}),
    remove: async () => undefined,
    close: async () => undefined,
  };
}

/** `data/sim.json`'s sandboxes live in `data/sim.sandboxes/<id>/sim.json`. */
export function sandboxFolder(dataFile: string): string {
  return join(dirname(dataFile), `${basename(dataFile, extname(dataFile))}.sandboxes`);
}

function fileStorage(dataFile: string, options: { check?: RecordCheck; warn?: (message: string) => void }) {
  const folder = sandboxFolder(dataFile);
  return {
    persistent: true,
    async list() {
      try {
        return (await readdir(folder, { withFileTypes: true }))
          .filter((e) => e.isDirectory() && UUID.test(e.name))
          .map((e) => e.name);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
    },
    open: (id: string) =>
      openStore({
        file: join(folder, id, 'sim.json'),
        secrets: STORED_SECRETS,
        ...(options.check ? { check: options.check } : {}),
        ...(options.warn ? { warn: options.warn } : {}),
      }),
    remove: (id: string) => rm(join(folder, id), { recursive: true, force: true }),
    close: async () => undefined,
  };
}

/**
 * A schema per sandbox in the server's database, on one shared pool of connections (a connection
 * per sandbox would exhaust the server's max_connections long before 1,000 sandboxes). The pool is
 * opened on first use.
 */
function postgresStorage(
  url: string,
  options: {
    check?: RecordCheck;
    warn?: (message: string) => void;
    fence: LeaseFence | undefined;
    /** A node of a shared double: each sandbox's commits prove that sandbox's own lease. */
    fenceOf: ((id: string) => LeaseFence) | undefined;
  },
): SandboxStorage {
  let pool: Promise<PostgresPool> | undefined;
  const poolOf = () => {
    pool ??= openPostgresPool(url, {
      ...(options.warn ? { warn: options.warn } : {}),
      ...(options.fence ? { fence: options.fence } : {}),
    });
    return pool;
  };
  return {
    persistent: true,
    async list() {
      const schemas = await (await poolOf()).listSandboxSchemas();
      return schemas.map((schema) => uuidOf(schema.slice('scheme_sim_sbx_'.length)));
    },
    async open(id: string) {
      return openStore({
        postgresPool: await poolOf(),
        postgresSchema: sandboxSchemaName(id),
        ...(options.fenceOf ? { postgresFence: options.fenceOf(id) } : {}),
        secrets: STORED_SECRETS,
        ...(options.check ? { check: options.check } : {}),
        ...(options.warn ? { warn: options.warn } : {}),
      });
    },
    async remove(id: string) {
      await (await poolOf()).dropSandboxSchema(sandboxSchemaName(id));
    },
    async close() {
      if (pool) await (await pool).close();
    },
  };
}

/** `0123…` (32 hex digits) as a UUID's 8-4-4-4-12 groups. */
function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
