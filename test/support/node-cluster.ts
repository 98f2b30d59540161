// Test-only: nodes of a shared double as real processes (`scheme-sim start --node`) on one real
// PostgreSQL, each killable with any signal, and a client that goes round them as a load balancer.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/harness/postgres-server.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSX = import.meta.resolve('tsx');

export interface NodeProcess {
  id: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything it printed so far. */
  log(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<string>;
}

/** Starts `scheme-sim start --node` (with `extra` options) and resolves once it listens. */
export async function startNodeProcess(
  database: string,
  id: string,
  port?: number,
  extra: string[] = [],
): Promise<NodeProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX,
      join(ROOT, 'src', 'cli', 'main.ts'),
      'start',
      '--node',
      '--node-id',
      id,
      '--store',
      database,
      '--port',
      String(chosen),
      '--sandboxes',
      'open',
      '--clock',
      'frozen',
      '--clock-start',
      '2026-12-21T09:00:00Z',
      ...extra,
    ],
    { cwd: ROOT, env: { ...process.env, SCHEME_SIM_PROFILE: join(ROOT, 'reports', `node-${id}-profile.json`) } },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<string>((r) => child.once('exit', (code, signal) => r(String(signal ?? code))));
  await new Promise<void>((ok, fail) => {
    const look = setInterval(() => {
      if (out.includes('scheme-sim listening on')) {
        clearInterval(look);
        ok();
      }
    }, 50);
    void exited.then((how) => {
      clearInterval(look);
      fail(new Error(`node ${id} ended (${how}) before it listened:\n${out}`));
    });
  });
  return { id, port: chosen, url: `http://127.0.0.1:${chosen}`, child, log: () => out, exited };
}

/**
 * Starts `count` nodes on `database` (n1, n2, …), each added to `into` as soon as it runs (the
 * caller kills them), and resolves once every one sees the default world's owner.
 */
export async function startCluster(
  database: string,
  count: number,
  into: NodeProcess[],
  extra: string[] = [],
): Promise<NodeProcess[]> {
  const started: NodeProcess[] = [];
  for (let i = 1; i <= count; i++) {
    const node = await startNodeProcess(database, `n${i}`, undefined, extra);
    into.push(node);
    started.push(node);
  }
  for (const n of started) await untilHealth(n.url, (h) => h.node.owner !== null);
  return started;
}

/** Kills every node of `list` (paused ones too) and empties it. */
export async function killNodes(list: NodeProcess[]): Promise<void> {
  for (const n of list.splice(0)) {
    n.child.kill('SIGCONT');
    n.child.kill('SIGKILL');
    await n.exited;
  }
}

/** Polls a node's /health until `ready` holds of it. */
export async function untilHealth(url: string, ready: (health: any) => boolean): Promise<any> {
  for (;;) {
    const health = await fetch(`${url}/health`)
      .then((r) => r.json())
      .catch(() => undefined);
    if (health && ready(health)) return health;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What each node serves now, by its /health. */
export async function ownsOf(list: NodeProcess[]): Promise<Map<NodeProcess, string[]>> {
  const owns = new Map<NodeProcess, string[]>();
  for (const n of list) owns.set(n, (await untilHealth(n.url, () => true)).node.owns);
  return owns;
}

/** The node that serves the most worlds (its death leaves the most to take over). */
export async function busiest(list: NodeProcess[]): Promise<NodeProcess> {
  const owns = await ownsOf(list);
  return [...owns].sort((a, b) => b[1].length - a[1].length)[0]![0];
}

/** Every answer seen: which node answered it as the owner of which world, at which epoch. */
export interface Answer {
  status: number;
  node: string | null;
  world: string | null;
  epoch: string | null;
}

/**
 * A load balancer's view: each request goes to the next node in turn. With `retryOnce`, a request
 * that got no answer or a 503 is sent once more, to the next node, after its Retry-After.
 */
export function roundRobin(urls: () => string[], answers: Answer[] = []) {
  let next = 0;
  const once = async (path: string, init: RequestInit, after?: number): Promise<Response> => {
    const list = urls();
    // A retry goes to the node after the one that failed it, whatever other requests took meanwhile.
    const index = after === undefined ? next++ : after + 1;
    const url = list[index % list.length];
    const res = await fetch(`${url}${path}`, init);
    answers.push({
      status: res.status,
      node: res.headers.get('x-scheme-sim-node'),
      world: res.headers.get('x-scheme-sim-world'),
      epoch: res.headers.get('x-scheme-sim-epoch'),
    });
    return res;
  };
  return {
    answers,
    async fetch(path: string, init: RequestInit = {}, retryOnce = true): Promise<Response> {
      let first: Response | undefined;
      const index = next; // the index once() takes, synchronously, before its first await
      try {
        first = await once(path, init);
        if (first.status !== 503 || !retryOnce) return first;
      } catch (err) {
        if (!retryOnce) throw err;
      }
      const wait = Number(first?.headers.get('retry-after') ?? 1);
      await new Promise((r) => setTimeout(r, wait * 1000));
      return once(path, init, index);
    },
  };
}
