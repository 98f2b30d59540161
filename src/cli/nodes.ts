// `scheme-sim nodes`: the nodes of a shared double on one PostgreSQL database, which are live and
// which owns what (docs/shared-double.md). Read from the database, so it works whichever node is down.
import pg from 'pg';
import { LEASE_TTL_MS } from '../node/node-coordinator.ts';
import { DEFAULT_LEASE, listNodes } from '../store/postgres-leases.ts';
import { describeDatabaseUrl } from '../store/postgres-tables.ts';
import { parseCommand, usageError } from './usage.ts';

const NODES_HELP = `Usage: scheme-sim nodes [--store URL] [--json]

Lists the nodes of the shared double on the database (scheme-sim start --node): each node's id,
the URL the other nodes reach it at, its state (owner, standby, taking-over, stopping), whether
it is live (a heartbeat younger than the ${LEASE_TTL_MS / 1000} s lease) and the worlds it owns
(default is the default world; the others are sandbox ids).

  --store URL   the database (default SCHEME_SIM_STORE)
  --json        one JSON document instead of lines
  -h, --help    this help`;

export async function nodesCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = console.log,
): Promise<void> {
  const { values } = parseCommand(
    argv,
    {
      store: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    NODES_HELP,
  );
  if (values.help) return out(NODES_HELP);
  const url = (values.store as string | undefined) ?? env.SCHEME_SIM_STORE;
  if (!url || !/^postgres(ql)?:\/\//.test(url))
    throw usageError('--store postgres://… (or SCHEME_SIM_STORE) names the database of the nodes', NODES_HELP);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    const exists = await client.query("SELECT to_regclass('scheme_sim_nodes') IS NOT NULL AS found");
    const nodes = exists.rows[0].found ? await listNodes(client, LEASE_TTL_MS) : [];
    if (values.json) return out(JSON.stringify({ database: describeDatabaseUrl(url), nodes }, null, 2));
    if (nodes.length === 0) return out(`no node has joined ${describeDatabaseUrl(url)} (scheme-sim start --node)`);
    for (const n of nodes) {
      const owns = n.owns.map((w) => (w === DEFAULT_LEASE ? 'default (the default world)' : w)).join(', ') || 'nothing';
      out(
        `${n.nodeId}  ${n.advertiseUrl}  ${n.live ? n.state : `gone (last heartbeat ${Math.round(n.heartbeatAgeMs / 1000)} s ago)`}  owns ${owns}`,
      );
    }
  } catch (err) {
    throw new Error(`cannot read the nodes of ${describeDatabaseUrl(url)}: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
