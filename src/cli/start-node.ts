// `scheme-sim start --node --store postgres://…`: this process as one node of a shared double
// (docs/shared-double.md). It answers every request: a world's whose lease it holds itself, the
// rest by passing it to the node that holds that world's lease.
import { randomBytes } from 'node:crypto';
import { hostname as osHostname } from 'node:os';
import { NodeCoordinator } from '../node/node-coordinator.ts';
import { listenNode } from '../node/node-server.ts';
import { NodeWorlds } from '../node/node-worlds.ts';
import { requestLogger } from '../node/request-log.ts';
import { createRuntime, type RuntimeOptions } from '../runtime.ts';
import { stopOnSignals } from './stop-on-signals.ts';

export const NODE_START_OPTIONS = {
  node: { type: 'boolean', default: false },
  'node-id': { type: 'string' },
  'advertise-url': { type: 'string' },
} as const;

export const NODE_START_USAGE = `  --node              one node of a shared double on --store: any number of nodes on one database
                      answer every request; one node at a time writes each world (docs/shared-double.md)
  --node-id ID        this node's name in the database and in /health (default HOST-PID-RANDOM)
  --advertise-url URL where the other nodes reach this one (default http://HOST:PORT from --host,
                      --port; the machine's name when --host is 0.0.0.0 or ::)`;

interface NodeStart {
  url: string;
  nodeId: string | undefined;
  advertiseUrl: string | undefined;
  port: number;
  host: string;
  runtimeOptions: RuntimeOptions;
  log: { format: 'text' | 'json'; level: 'info' | 'debug' } | undefined;
}

/** Starts the node; resolves once it listens and has joined the double (it may not serve yet). */
export async function startNode(o: NodeStart, fail: (message: string) => never): Promise<void> {
  if (o.advertiseUrl !== undefined && !/^https?:\/\/[^/]+\/?$/.test(o.advertiseUrl))
    fail(`--advertise-url must be http(s)://host:port with no path, got ${o.advertiseUrl}`);
  const nodeId = o.nodeId ?? `${osHostname()}-${process.pid}-${randomBytes(2).toString('hex')}`;
  if (!/^[\w.:-]{1,100}$/.test(nodeId)) fail(`--node-id must be 1–100 letters, digits, or . _ : -, got ${nodeId}`);
  const log = (message: string) => console.log(`scheme-sim: ${message}`);
  let selfUrls: string[] = [];
  let worlds: NodeWorlds | undefined;
  const node = new NodeCoordinator({
    url: o.url,
    nodeId,
    advertiseUrl: o.advertiseUrl?.replace(/\/$/, '') ?? '',
    log,
    open: (world, fence) => worlds!.open(world, fence),
    close: (world) => worlds!.close(world),
  });
  const write = o.log ? requestLogger(o.log) : undefined;
  worlds = new NodeWorlds(node, {
    runtimeOptions: o.runtimeOptions,
    hostname: o.host,
    onRuntime(runtime) {
      // A subscription may not call back any node of the double.
      for (const url of selfUrls) runtime.sandboxes.addSelfAddress(url);
      if (write) runtime.deps.journal?.onRecord(write);
    },
  });
  if (write) worlds.sandboxes.onRequest((entry, id) => write({ ...entry, path: `/sandboxes/${id}${entry.path}` }));
  worlds.sandboxes.start();
  const running = await listenNode(node, worlds, o.port, o.host).catch((err: Error) =>
    fail(`cannot listen on ${o.host}:${o.port}: ${err.message}`),
  );
  if (!o.advertiseUrl) {
    const port = new URL(running.url).port;
    const host = o.host === '0.0.0.0' || o.host === '::' ? osHostname() : o.host;
    node.advertiseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  selfUrls = [...new Set([running.url, node.advertiseUrl])];
  for (const url of selfUrls) worlds.sandboxes.addSelfAddress(url);
  // Validators compiled and fixtures read now, on a throwaway world in memory: a takeover then
  // costs the load of the data only.
  const { postgres: _database, ...inMemory } = o.runtimeOptions;
  const warm = await createRuntime({ ...inMemory, memory: true }).catch((err: Error) => fail(err.message));
  await warm.warm().finally(() => warm.close());
  await node.start().catch((err: Error) => fail(err.message));
  // Before the banner, so a signal sent on reading it finds the handler (as in start.ts).
  stopOnSignals(() => running.stop(), 'handing over and stopping');
  console.log(`scheme-sim listening on ${running.url}`);
  console.log(`  node:   ${nodeId}, reached by the other nodes at ${node.advertiseUrl}`);
  console.log(`  store:  ${node.location} (shared by every node; one of them writes at a time)`);
  console.log(`  health: ${running.url}/health (this node's state, what it owns, the database)`);
}
