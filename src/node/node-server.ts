// The HTTP side of one node of a shared double (docs/shared-double.md): it answers the requests of
// the worlds it serves itself, passes the rest to the node that serves each, says how it stands on
// /health, and stops by handing its worlds over first.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { DEFAULT_LEASE } from '../store/postgres-leases.ts';
import { FORWARDED_BY, forwardOnce, notServed, readBody } from './forward-request.ts';
import { answerNodeCall, NODE_CALLS } from './node-calls.ts';
import type { NodeCoordinator } from './node-coordinator.ts';
import type { NodeWorlds } from './node-worlds.ts';

/** How long a request waits for a node to serve it (an owner gone, the next one loading). */
const HOLD_MS = 10_000;
/** Between two looks for an owner while a request waits. */
const LOOK_MS = 250;
/** A graceful stop waits this long at most for the requests in flight (an event stream never ends). */
const DRAIN_MS = 10_000;

export interface RunningNode {
  url: string;
  /** SIGTERM: hand the worlds over, answer what is in flight, then close. */
  stop(): Promise<void>;
}

export function listenNode(
  node: NodeCoordinator,
  worlds: NodeWorlds,
  port: number,
  hostname: string,
): Promise<RunningNode> {
  // The requests this node is answering from a world of its own. A graceful stop waits for these
  // only: a request it passes on may be one for a world of its own, held until the next owner
  // serves it, which happens only once the stop has handed that world over.
  let serving = 0;
  let drained: (() => void) | undefined;
  let localUrl = '';
  const done = () => {
    serving--;
    if (serving === 0) drained?.();
  };

  const serve = (world: string, req: IncomingMessage, res: ServerResponse): boolean => {
    const listener = worlds.listenerOf(world);
    if (!listener) return false;
    serving++;
    res.on('close', done);
    res.setHeader('x-scheme-sim-node', node.nodeId);
    res.setHeader('x-scheme-sim-world', world);
    res.setHeader('x-scheme-sim-epoch', String(node.epochOf(world)));
    listener(req, res);
    return true;
  };

  const pass = async (world: string, req: IncomingMessage, res: ServerResponse) => {
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch {
      return;
    }
    const until = performance.now() + HOLD_MS;
    for (;;) {
      const owner = node.ownerOf(world);
      if (owner) {
        // This node took the lease while the request waited: it goes round through the front door.
        const target = owner.nodeId === node.nodeId ? localUrl : owner.url;
        const outcome = await forwardOnce(target, req, body, res, node.nodeId);
        if (outcome !== 'retry') return;
      }
      if (res.destroyed) return;
      if (performance.now() >= until)
        return notServed(res, 'no node of this shared double serves this request right now; try again shortly');
      await new Promise((r) => setTimeout(r, LOOK_MS));
      if (!node.serves(world)) await node.lookup(world);
    }
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const world = await worlds.worldOf(req.url ?? '/', req.headers.authorization).catch(() => DEFAULT_LEASE);
    if (node.serves(world) && serve(world, req, res)) return;
    // Passed here by another node, which waits and looks again itself: one hop only.
    if (req.headers[FORWARDED_BY]) {
      req.resume();
      return notServed(res, `node ${node.nodeId} does not serve this request now`);
    }
    await pass(world, req, res);
  };

  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/health' || req.url?.startsWith('/health?')))
      return health(node, worlds, res);
    if (req.url?.startsWith(NODE_CALLS)) return void answerNodeCall(req, res, worlds.sandboxes, node.secret);
    void route(req, res);
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      const host = hostname.includes(':') ? `[${hostname}]` : hostname;
      localUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${(server.address() as { port: number }).port}`;
      resolve({
        url: localUrl,
        async stop() {
          node.beginStop();
          // What this node was answering itself is answered first; new requests wait for the next owners.
          await new Promise<void>((r) => {
            if (serving === 0) return r();
            drained = r;
            setTimeout(r, DRAIN_MS).unref();
          });
          await node.handOver();
          await worlds.sandboxes.close().catch(() => undefined);
          // New connections are refused (a balancer sends them elsewhere); requests on connections
          // already open are passed to the next owners, until they go idle.
          await new Promise<void>((r) => {
            server.close(() => r());
            server.closeIdleConnections();
            setTimeout(() => {
              server.closeAllConnections();
              r();
            }, HOLD_MS).unref();
          });
          await node.close();
        },
      });
    });
  });
}

/** GET /health of a node: its own state, what it owns, whether the database answers; the world's when it serves. */
function health(node: NodeCoordinator, worlds: NodeWorlds, res: ServerResponse): void {
  const runtime = node.serves(DEFAULT_LEASE) ? worlds.runtime : undefined;
  const owner = node.ownerOf(DEFAULT_LEASE);
  const world = runtime
    ? {
        now: runtime.sim.clock.now().toISOString(),
        clock: runtime.sim.clock.mode,
        store: 'persistent',
        auth: runtime.deps.mode.auth,
      }
    : {};
  const body = JSON.stringify({
    status: 'ok',
    ...world,
    node: {
      id: node.nodeId,
      url: node.advertiseUrl,
      state: node.state,
      owns: node.owns(),
      database: node.databaseReachable ? 'reachable' : 'unreachable',
      owner: owner ? { id: owner.nodeId, url: owner.url, epoch: owner.epoch } : null,
    },
  });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
