// A fresh `scheme-sim start` must answer its first requests as fast as later ones: the requests run
// on a scratch runtime before the server says it is listening (decision 025).
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { NAME_VERIFICATION_PATH } from '../api/open-banking/participant-paths.ts';
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime.ts';
import type { GivenSigningKey } from '../sim/cop/participant.ts';
import { SIGNING_KEYS_META } from '../sim/cop/participant-signing-keys.ts';
import { listen } from './server.ts';

/** Rounds of the first requests' kinds; each round is six requests. */
export const WARM_UP_ROUNDS = 60;
const IN_FLIGHT = 8;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Runs the code of a client's first requests before the server says it is listening. V8 compiles
 * each function on its first call and optimises it only after many: without this, the first
 * requests to a fresh `scheme-sim start` waited on both, their p99 three to five times the warm
 * one (issue 30, bench/first-requests.ts). The requests go to a scratch runtime, never to
 * `runtime`: the same fixtures, mode and participant keys, in memory, nothing seeded or scheduled,
 * served on a free loopback port (so Node's HTTP path warms too) and closed after. Nothing of it
 * reaches the real store, clock, journal or subscribers. Returns how many answers of each kind and
 * status it had (`create 201`), for a test to see the paths it meant to warm were taken.
 */
export async function warmUp(
  runtime: Runtime,
  options: RuntimeOptions,
  rounds: number = WARM_UP_ROUNDS,
): Promise<Record<string, number>> {
  const stored = runtime.sim.store.getMeta<Record<string, GivenSigningKey>>(SIGNING_KEYS_META) ?? {};
  // The keys the real runtime generated, lent for the participants the fixtures give none (a key
  // the fixtures give wins over a stored one, there as here).
  const lent = Object.fromEntries(
    runtime.sim.participants
      .all()
      .filter((p) => !p.signing_key && stored[p.open_banking_id])
      .map((p) => [p.open_banking_id, stored[p.open_banking_id]!]),
  );
  const scratch = await createRuntime({
    ...options,
    data: undefined,
    postgres: undefined,
    forceUnlock: false,
    memory: true,
    seedAccounts: false,
    scheduledReports: false,
    // Not made again (~0.1–0.3 s of CPU each).
    participantSigningKeys: { ...lent, ...options.participantSigningKeys },
  });
  const server = await listen(scratch, 0, '127.0.0.1');
  // Kept-alive sockets, as clients keep theirs: the server's path for a connection's later requests warms too.
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    answerOf(agent, server.url, method, path, headers, body);
  try {
    const client = scratch.devClient;
    const token = client ? await tokenOf(send, client.client_id, client.client_secret) : undefined;
    const organisation = client?.organisation_id ?? randomUUID();
    const participant = scratch.sim.participants.all().find((p) => p.organisation_id === organisation);
    const sortCode = participant?.sort_codes[0];
    const bic = scratch.sim.organisations.get(organisation)?.bics?.[0];
    const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const answers: Record<string, number> = {};
    const note = (kind: string, answer: { status: number }) => {
      const key = `${kind} ${answer.status}`;
      answers[key] = (answers[key] ?? 0) + 1;
    };
    let next = 0;
    const round = async (k: number) => {
      const id = randomUUID();
      const number = String(10_000_000 + k);
      const attributes = {
        country: 'GB',
        ...(sortCode ? { bank_id: sortCode, bank_id_code: 'GBDSC', account_number: number } : {}),
        ...(bic ? { bic } : {}),
        name: ['Samantha Holder'],
        account_classification: 'Personal',
      };
      const accounts = '/v1/organisation/accounts';
      const create = { data: { id, organisation_id: organisation, type: 'accounts', attributes } };
      note('create', await send('POST', accounts, auth, create));
      note('fetch', await send('GET', `${accounts}/${id}`, auth));
      note('list', await send('GET', `${accounts}?page[size]=20`, auth));
      note('refused create', await send('POST', accounts, auth, { data: { ...create.data, id: 'x' } }));
      if (participant && sortCode) {
        const path = NAME_VERIFICATION_PATH.of(participant.open_banking_id);
        const name = k % 2 === 0 ? 'Samantha Holder' : 'Sam Holder';
        const cop = {
          Data: {
            SchemeName: 'SortCodeAccountNumber',
            AccountType: 'Personal',
            Identification: `${sortCode}${number}`,
            Name: name,
          },
        };
        const headers = { ...auth, 'x-fapi-financial-id': participant.open_banking_id };
        note('name verification', await send('POST', path, headers, cop));
      }
      note('health', await send('GET', '/health', {}));
    };
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < rounds) await round(next++);
      }),
    );
    return answers;
  } finally {
    agent.destroy();
    await server.close();
  }
}

type Send = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<{ status: number; text: string }>;

async function tokenOf(send: Send, id: string, secret: string): Promise<string | undefined> {
  const basic = Buffer.from(`${id}:${secret}`).toString('base64');
  const answer = await send(
    'POST',
    '/v1/oauth2/token',
    { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    'grant_type=client_credentials',
  );
  return answer.status === 200 ? (JSON.parse(answer.text) as { access_token?: string }).access_token : undefined;
}

/**
 * The answer to one request, sent with node:http on `agent`; a stalled one fails the warm-up
 * (start-up says it was skipped) rather than holding start-up. Not `fetch`: undici is a client of
 * its own to load and warm (its parser is WebAssembly) on the thread being warmed, and took 0.1 s
 * of every start more (issue 30's start-up budget; bench/RESULTS.md, 2026-11-27).
 */
function answerOf(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: `${url.pathname}${url.search}`,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: { ...(text !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in ${REQUEST_TIMEOUT_MS} ms`)));
    req.once('error', reject);
    req.end(text);
  });
}
