// A real PostgreSQL server for tests: a throwaway cluster in a temp folder on a free local port,
// from the Debian package's binaries (bash .ci/run installs them). One server per test file; a
// fresh database per test keeps tests apart without paying for a cluster each.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const { Client } = pg;

const DEBIAN_ROOT = '/usr/lib/postgresql';

export const POSTGRES_MISSING =
  'PostgreSQL binaries not found under /usr/lib/postgresql — install the postgresql package (bash .ci/run does)';

/** The bin folder of the highest PostgreSQL version installed the Debian way, if any. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((v) => /^\d+(\.\d+)?$/.test(v) && existsSync(join(DEBIAN_ROOT, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(DEBIAN_ROOT, versions[0], 'bin');
}

export interface PostgresServer {
  /** A URL of the server's `postgres` database as the superuser `postgres` (trust auth, no password). */
  readonly url: string;
  /** A new empty database on this server, by URL (t_<random>). */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root, and CI and this sandbox run as root: then the cluster is
 * created and run as the `postgres` system user the Debian package adds (`nobody` if there is
 * none), by spawning with that uid/gid. The temp folder is handed to that user.
 */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root, and there is neither a postgres nor a nobody user to run PostgreSQL as');
}

/** A local TCP port nobody listens on right now (the OS picks it; it is closed again at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(POSTGRES_MISSING);
  const user = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const dataDir = join(dir, 'data');
  const env = { ...process.env, LC_ALL: 'C', HOME: dir };
  try {
    // --no-sync: a throwaway cluster need not be flushed to disk before it starts (a quarter of
    // initdb's time); the server itself keeps its default fsync, as the engine's tests rely on it.
    execFileSync(
      join(bin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
      {
        ...user,
        env,
        stdio: 'pipe',
      },
    );
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb failed: ${(err as Error).message}\n${stderr}`);
  }
  const port = await freePort();
  const args = ['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
  const child = spawn(join(bin, 'postgres'), args, { ...user, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  // A test run that dies without afterAll still takes its server down (postgres does not notice).
  const killOnExit = () => child.kill('SIGQUIT');
  process.once('exit', killOnExit);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilAccepting(url, child, () => log);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    stop,
    async createDatabase() {
      const name = `t_${randomBytes(6).toString('hex')}`;
      const admin = new Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
  };
}

async function waitUntilAccepting(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `postgres exited (${child.exitCode ?? child.signalCode}) before accepting connections:\n${log()}`,
      );
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error(`postgres did not accept connections within 20 s: ${(err as Error).message}\n${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** SIGINT is PostgreSQL's fast shutdown (rolls back open sessions, checkpoints, exits). */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGINT');
  });
}
