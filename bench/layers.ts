// Each layer the simulator puts on every request, measured alone (issue 30): a Hono app served as
// the simulator serves its own, with a create-shaped echo handler behind one layer (bench/layer-server.ts),
// against the same app with none, in alternating rounds of fresh processes; and the simulator's
// whole stack of layers in front of the same echo. Figures: server CPU per request and what the
// layer adds to the bare app's. Not budgeted: the create budget (bench/create.ts) holds the sum.
import { join } from 'node:path';
import { distIsCurrent } from '../bin/dist-current.mjs';
import { type BenchReport, runWhenMain } from './lib.ts';
import { accountCreateBody, type CpuFigure, cpuPerRequest, median, ROOT, spawnServer } from './processes.ts';

const ROUNDS = Number(process.env.LAYERS_BENCH_ROUNDS ?? 3);
const WARMUP = 2000;
const MEASURED = 4000;
const LAYERS = ['none', 'journal', 'cors', 'json-reader', 'actor', 'v1', 'app'] as const;
const ECHO_PATH = '/v1/bench/echo';
const WHAT: Record<(typeof LAYERS)[number], string> = {
  none: 'no layer (the baseline)',
  journal: 'request journal (src/api/journal/journal-layer.ts)',
  cors: 'CORS, a request without an Origin (src/api/layers/cors.ts)',
  'json-reader': "the JSON body reader instead of Hono's c.req.json() (src/api/body/body.ts)",
  actor: 'the actor of changes alone, a slot set around the synchronous work (src/sim/actor.ts)',
  v1: "every /v1 request's rules as one layer: bearer-token authentication, the actor, fault rules (none set), the long-work gate (idle) (src/api/layers/v1-layer.ts)",
  app: "the simulator's whole app: every layer of a /v1 request, its router, the echo last",
};

async function measure(layer: string): Promise<CpuFigure> {
  const server = await spawnServer(['--import', 'tsx', join(ROOT, 'bench', 'layer-server.ts'), layer]);
  try {
    const token = /token (\S+)/.exec(server.output())?.[1];
    if (!token) throw new Error(`layer-server ${layer} printed no token:\n${server.output()}`);
    const traffic = {
      path: ECHO_PATH,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      makeBody: accountCreateBody,
    };
    await cpuPerRequest(server, traffic, WARMUP);
    return await cpuPerRequest(server, traffic, MEASURED);
  } finally {
    await server.close();
  }
}

export async function run(): Promise<BenchReport> {
  const figures = new Map<string, CpuFigure[]>(LAYERS.map((l) => [l, []]));
  for (let r = 0; r < ROUNDS; r++) for (const layer of LAYERS) figures.get(layer)!.push(await measure(layer));
  const cpu = (l: string) => median(figures.get(l)!.map((f) => f.cpuMicros));
  const none = cpu('none');
  const failed = [...figures.values()].flat().reduce((n, f) => n + f.failed, 0);
  return {
    name: 'layers: what each per-request layer costs alone',
    withinBudget: failed === 0,
    lines: [
      `the layers' code: ${distIsCurrent(ROOT) ? 'the built dist/, as the bin runs it' : 'the sources through tsx (dist/ not current: npm run build)'}`,
      `${ROUNDS} rounds of fresh processes; ${WARMUP} create-shaped requests of warm-up, ${MEASURED} measured, 10 connections; server CPU per request, median of the rounds`,
      ...LAYERS.map((l) => {
        const rounds = figures
          .get(l)!
          .map((f) => f.cpuMicros.toFixed(0))
          .join('/');
        const added =
          l === 'none'
            ? ''
            : `; adds ${(cpu(l) - none).toFixed(1)} µs (${(((cpu(l) - none) / none) * 100).toFixed(0)} %)`;
        return `${WHAT[l]}: ${cpu(l).toFixed(1)} µs (rounds ${rounds})${added}`;
      }),
      `failed requests: ${failed}`,
    ],
  };
}

await runWhenMain(import.meta.url, run);
