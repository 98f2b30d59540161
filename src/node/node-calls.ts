// The calls nodes of a shared double make of each other about the sandboxes each serves: create one
// here (placement), list and read them, delete one. Only nodes of the same database make them: each
// call shows the database's node secret (docs/shared-double.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthClient } from '../api/auth/clients.ts';
import type { SandboxEntry, SandboxRequest, SandboxSettings } from '../api/sandbox-directory.ts';
import { ApiError, errorBody } from '../api/wire/errors.ts';
import type { Sandboxes } from '../sandboxes.ts';
import { LeaseLostError } from '../store/store-error.ts';
import { notServed, readBody } from './forward-request.ts';

/** The path under which a node answers the other nodes. */
export const NODE_CALLS = '/_scheme-sim/node/sandboxes';
/** The header that carries the database's node secret. */
export const NODE_SECRET = 'x-scheme-sim-node-secret';

/** A sandbox as one node tells another of it. */
export interface SandboxFacts {
  id: string;
  created_on: string;
  expires_at: string;
  seed: 'fixtures' | 'none';
  settings: SandboxSettings;
  clients: OAuthClient[];
  clock: object;
  record_count: number;
}

function factsOf(entry: SandboxEntry): SandboxFacts {
  return {
    id: entry.id,
    created_on: entry.createdOn,
    expires_at: entry.expiresAt,
    seed: entry.seed,
    settings: entry.settings,
    clients: [...entry.clients],
    clock: entry.clock(),
    record_count: entry.recordCount(),
  };
}

/** A sandbox another node serves, as the sandbox routes show it (its requests go to that node, not here). */
export function remoteEntry(facts: SandboxFacts): SandboxEntry {
  return {
    id: facts.id,
    createdOn: facts.created_on,
    expiresAt: facts.expires_at,
    seed: facts.seed,
    settings: facts.settings,
    clients: facts.clients,
    app: {
      fetch() {
        throw new Error(`sandbox ${facts.id} is served by another node`);
      },
    },
    clock: () => facts.clock,
    recordCount: () => facts.record_count,
  };
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Answers another node's call about this node's sandboxes; a call without the secret is refused. */
export async function answerNodeCall(
  req: IncomingMessage,
  res: ServerResponse,
  sandboxes: Sandboxes,
  secret: string,
): Promise<void> {
  const body = await readBody(req).catch(() => Buffer.alloc(0));
  if (secret === '' || req.headers[NODE_SECRET] !== secret)
    return send(res, 403, errorBody('only the nodes of this shared double make this call'));
  const id = (req.url ?? '').slice(NODE_CALLS.length + 1).split('?')[0] ?? '';
  try {
    if (req.method === 'POST' && id === '') {
      const entry = await sandboxes.create(JSON.parse(body.toString('utf8')) as SandboxRequest);
      return send(res, 201, factsOf(entry));
    }
    if (req.method === 'GET' && id === '') return send(res, 200, sandboxes.list().map(factsOf));
    if (req.method === 'GET') {
      const entry = sandboxes.get(id);
      return entry ? send(res, 200, factsOf(entry)) : send(res, 404, errorBody(`sandbox ${id} is not served here`));
    }
    if (req.method === 'DELETE')
      return (await sandboxes.delete(id))
        ? send(res, 204)
        : send(res, 404, errorBody(`sandbox ${id} is not served here`));
    return send(res, 405, errorBody(`${req.method} is not a node call`));
  } catch (err) {
    if (err instanceof ApiError) return send(res, err.status, errorBody(err.message));
    if (err instanceof LeaseLostError) return notServed(res, err.message, false);
    return send(res, 500, errorBody((err as Error).message));
  }
}
