// The sim target's own preflight: a running simulator is reset before every scenario, so the
// harness must not wipe a developer's data file by surprise, and its scenarios need the clock they
// were written for (frozen at 2026-12-21T09:00Z after a reset) rather than failing on dates.

/** The instant the scenarios' dates are written for (docs/clock.md). */
export const SCENARIO_START = '2026-12-21T09:00:00.000Z';

export interface SimTargetOptions {
  client_id: string;
  client_secret: string;
  /** Scenarios reset the simulator (SIM_RESET is not 0). */
  resets: boolean;
  /** The caller allowed resetting a simulator that keeps a data file (SIM_RESET_OK=1, --reset-ok). */
  resetOk: boolean;
  /** The run is in this sandbox of the simulator (CONFORMANCE_SANDBOX). */
  sandbox?: string;
}

async function tokenOf(baseUrl: string, o: SimTargetOptions): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${o.client_id}:${o.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** One line saying why the running simulator at `baseUrl` cannot serve the sim target, or undefined. */
export async function simTargetProblem(baseUrl: string, o: SimTargetOptions): Promise<string | undefined> {
  const url = baseUrl.replace(/\/$/, '');
  if (!o.resets) return undefined; // SIM_RESET=0: the caller keeps the simulator's state and its clock
  const health = (await (await fetch(`${url}/health`)).json()) as { store?: string };
  if (health.store !== 'memory' && !o.resetOk) {
    return `the simulator at ${url} keeps a data file, and the sim target resets it before every scenario; start one with --memory, or allow it with --reset-ok (SIM_RESET_OK=1), or keep its state with SIM_RESET=0`;
  }
  const auth = { authorization: `Bearer ${await tokenOf(url, o)}`, 'content-type': 'application/json' };
  const reset = await fetch(`${url}/v1/simulator/reset`, { method: 'POST', headers: auth, body: '{"scope":"all"}' });
  if (reset.status !== 200)
    return `the simulator at ${url} refused a reset of everything (${reset.status}): the sim target needs an admin client (SIM_CLIENT_ID)`;
  const clock = ((await reset.json()) as { data: { now: string; mode: string } }).data;
  if (clock.mode !== 'frozen' || clock.now !== SCENARIO_START) {
    if (o.sandbox)
      return `the scenarios expect the scheme clock frozen at ${SCENARIO_START} after a reset, but the sandbox ${o.sandbox} resets to ${clock.mode} at ${clock.now}; create one with the clock {"mode": "frozen", "start": "${SCENARIO_START}"}, or let the harness create one (CONFORMANCE_SANDBOX=new)`;
    return `the scenarios expect the scheme clock frozen at ${SCENARIO_START} after a reset, but the simulator at ${url} resets to ${clock.mode} at ${clock.now}; start it with --clock frozen --clock-start ${SCENARIO_START}`;
  }
  return undefined;
}
