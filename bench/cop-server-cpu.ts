// Name verification's server CPU per request against bare Hono's, each in its own process (issue 46's
// budget with repeated bodies: ≤ 2× bare Hono). bench/cop.ts's in-process figure charges the load
// generator to both sides; here only the server process's CPU counts (bench/processes.ts says why).
// Each round starts a fresh `scheme-sim start --memory` and a fresh bench/bare-server.mjs answering
// the simulator's own answer, alternating, and sends each the same two loads: the CI guard's three
// repeated bodies, and names new to the matcher (the same three names with 2–41 spaces after the
// first word, so no account is asked one name twice within 40 asks: only the matching is afresh).
// `npx tsx bench/cop-server-cpu.ts` prints the rounds (COP_CPU_ROUNDS, default 3).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NAME_VERIFICATION_BODIES, NAME_VERIFICATION_PATH } from './guard-loads.ts';
import {
  bareServer,
  cpuPerRequest,
  devToken,
  median,
  type ServerProcess,
  simServer,
  type Traffic,
} from './processes.ts';

/** Issue 46: with repeated bodies, name verification costs at most twice bare Hono's CPU per request. */
export const REPEATED_CPU_BUDGET = 2;
const WARMUP = 3000;
const MEASURED = 6000;

/** Body `n` of the guard's three, its name with 2–41 spaces after the first word (the same answer). */
export function freshGuardBody(n: number): string {
  const body = JSON.parse(NAME_VERIFICATION_BODIES[n % NAME_VERIFICATION_BODIES.length]!) as {
    Data: { Name: string };
  };
  body.Data.Name = body.Data.Name.replace(' ', ' '.repeat(2 + (Math.floor(n / 3) % 40)));
  return JSON.stringify(body);
}

export interface ServerCpu {
  /** Server CPU per answered request, µs, one per round. */
  repeated: { sim: number[]; bare: number[] };
  fresh: { sim: number[]; bare: number[] };
  failed: number;
}

/** The simulator's answer to the first body, as bare Hono is to answer it (the same bytes and signature). */
async function answerOf(sim: ServerProcess, headers: Record<string, string>): Promise<object> {
  const res = await fetch(`${sim.url}${NAME_VERIFICATION_PATH}`, {
    method: 'POST',
    headers,
    body: NAME_VERIFICATION_BODIES[0],
  });
  if (!res.ok) throw new Error(`sample answer: ${res.status} ${await res.text()}`);
  const copHeaders: Record<string, string> = {};
  for (const name of ['x-jws-signature', 'x-fapi-interaction-id']) copHeaders[name] = res.headers.get(name) ?? '';
  return { cop: { body: await res.text(), headers: copHeaders } };
}

/** `rounds` rounds, each a fresh simulator then a fresh bare Hono, both sent both loads. */
export async function measureServerCpu(rounds = 3): Promise<ServerCpu> {
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-cop-cpu-'));
  const answersFile = join(dir, 'answers.json');
  const out: ServerCpu = { repeated: { sim: [], bare: [] }, fresh: { sim: [], bare: [] }, failed: 0 };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const side of ['sim', 'bare'] as const) {
        const server = side === 'sim' ? await simServer(['--memory']) : await bareServer(answersFile);
        try {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (side === 'sim') {
            headers.authorization = `Bearer ${await devToken(server.url)}`;
            if (round === 0) writeFileSync(answersFile, JSON.stringify(await answerOf(server, headers)));
          }
          let asked = 0;
          const loads: Array<['repeated' | 'fresh', Traffic]> = [
            ['repeated', { path: NAME_VERIFICATION_PATH, method: 'POST', headers, bodies: NAME_VERIFICATION_BODIES }],
            [
              'fresh',
              { path: NAME_VERIFICATION_PATH, method: 'POST', headers, makeBody: () => freshGuardBody(asked++) },
            ],
          ];
          // Both loads warm the server before either is measured: the first measured after a
          // start-up pays for the JIT and heap still settling (measured: whichever load came first
          // read 15–20 µs dearer, on bare Hono as on the simulator).
          for (const [, traffic] of loads) await cpuPerRequest(server, traffic, WARMUP);
          for (const [kind, traffic] of loads) {
            const figure = await cpuPerRequest(server, traffic, MEASURED);
            out[kind][side].push(figure.cpuMicros);
            out.failed += figure.failed;
          }
        } finally {
          await server.close();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** The simulator's CPU ÷ bare Hono's, medians of the rounds. */
export const cpuRatio = (side: { sim: number[]; bare: number[] }) => median(side.sim) / median(side.bare);

/** One line per load: the rounds, the medians and their ratio. */
export function describeServerCpu(cpu: ServerCpu): string[] {
  const us = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
  const line = (label: string, side: { sim: number[]; bare: number[] }) =>
    `${label}: name verification ${median(side.sim).toFixed(0)} µs server CPU per request (rounds ${us(side.sim)}), bare Hono ${median(side.bare).toFixed(0)} µs (${us(side.bare)}): ${cpuRatio(side).toFixed(2)}×`;
  return [
    line('repeated bodies', cpu.repeated),
    line('names new to the matcher (not budgeted in CPU)', cpu.fresh),
    `failed requests ${cpu.failed}`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cpu = await measureServerCpu(Number(process.env.COP_CPU_ROUNDS ?? 3));
  for (const l of describeServerCpu(cpu)) console.log(l);
  const ratio = cpuRatio(cpu.repeated);
  console.log(
    `budget: repeated bodies ≤ ${REPEATED_CPU_BUDGET}× bare Hono's CPU per request: ${ratio.toFixed(2)}× ${ratio <= REPEATED_CPU_BUDGET ? 'held' : 'NOT HELD'}`,
  );
}
