import { testRuntime, type TestRuntime } from '../../src/testing.ts';

/** Where the conformance steps send their requests. */
export interface Target {
  name: 'inprocess' | 'sim' | 'staging';
  baseUrl: string;
  fetch(request: Request): Promise<Response>;
  /** Credentials per named client; "default" is the one steps use unless told otherwise. */
  clients: Record<string, { client_id: string; client_secret: string }>;
  /** The in-process runtime (only for the default target), for steps that inspect the simulator. */
  runtime?: TestRuntime;
  close(): Promise<void>;
}

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} must be set for this conformance target`);
  return v;
}

export async function openTarget(name: string): Promise<Target> {
  if (name === 'sim' || name === 'staging') {
    const prefix = name === 'sim' ? 'SIM' : 'CONFORMANCE';
    const baseUrl = env(`${prefix}_BASE_URL`).replace(/\/$/, '');
    const clients: Target['clients'] = {
      default: {
        client_id: process.env[`${prefix}_CLIENT_ID`] ?? (name === 'sim' ? 'northwind-dev' : env('CONFORMANCE_CLIENT_ID')),
        client_secret: process.env[`${prefix}_CLIENT_SECRET`] ?? (name === 'sim' ? 'northwind-dev-secret' : env('CONFORMANCE_CLIENT_SECRET')),
      },
    };
    if (name === 'sim') {
      clients.northwind = { client_id: 'northwind-dev', client_secret: 'northwind-dev-secret' };
      clients.harbour = { client_id: 'harbour-dev', client_secret: 'harbour-dev-secret' };
      clients.fenwick = { client_id: 'fenwick-dev', client_secret: 'fenwick-dev-secret' };
    }
    return { name, baseUrl, fetch: (r) => fetch(r), clients, close: async () => {} };
  }
  const runtime = await testRuntime();
  runtime.start();
  return {
    name: 'inprocess',
    baseUrl: 'http://scheme-sim.test',
    fetch: async (r) => runtime.app.fetch(r),
    clients: {
      default: { client_id: 'northwind-dev', client_secret: 'northwind-dev-secret' },
      northwind: { client_id: 'northwind-dev', client_secret: 'northwind-dev-secret' },
      harbour: { client_id: 'harbour-dev', client_secret: 'harbour-dev-secret' },
      fenwick: { client_id: 'fenwick-dev', client_secret: 'fenwick-dev-secret' },
    },
    runtime,
    close: () => runtime.close(),
  };
}
