// Test-only: the steady load of the shared double's chaos and rolling-restart tests (issue 43):
// each sandbox's client, one request after another, creating accounts and (with `mixed`) asking
// name verifications and submitting DDIC claims, through a round-robin balancer; and what it
// keeps: every acknowledged write, and when each sandbox was last answered.
import { performance } from 'node:perf_hooks';
import { childRequest, claimRequest } from './claim-requests.ts';
import type { Answer, roundRobin } from './node-cluster.ts';
import { accountBody, type SandboxClient } from './sandbox-client.ts';

type Send = ReturnType<typeof roundRobin>;

/** A write the double acknowledged (2xx): an account, or a claim with its submission's D0. */
export interface Acknowledged {
  sandbox: SandboxClient;
  kind: 'account' | 'claim';
  id: string;
  /** A claim's submission_date (the organisation-day whose contra settles it). */
  day?: string;
  at: number;
}

/** Seed account 40030012345678 of every sandbox, Samantha Holder, asked as "Sam Holder": a close match. */
export const NAME_VERIFICATION = {
  path: '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification',
  body: {
    Data: {
      SchemeName: 'SortCodeAccountNumber',
      AccountType: 'Personal',
      Identification: '40030012345678',
      Name: 'Sam Holder',
    },
  },
};

let counter = 0;

/**
 * Runs each sandbox's loop until stopped. Plain: account creates. Mixed: in turn an account create,
 * a name verification, a claim created and submitted. With `retryOnce`, a request that got no
 * answer or a 503 is sent once more (a 409 on the retry of a create whose first answer was lost
 * counts as acknowledged once the id reads back).
 */
export function steadyLoad(sandboxes: SandboxClient[], send: Send, options: { retryOnce: boolean; mixed: boolean }) {
  const acknowledged: Acknowledged[] = [];
  /** Every 2xx answer of a sandbox: when its request was sent, and when it was answered (performance.now()). */
  const served = new Map<SandboxClient, Array<{ sent: number; answered: number }>>(sandboxes.map((s) => [s, []]));
  const failures: string[] = [];
  let verified = 0;
  let running = true;

  const post = async (s: SandboxClient, path: string, body: unknown): Promise<Response | Error> => {
    const sent = performance.now();
    const res = await send
      .fetch(
        path,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        },
        options.retryOnce,
      )
      .catch((err: Error) => err);
    if (res instanceof Error) failures.push(`${s.id} ${path}: ${res.message}`);
    else if (res.ok) served.get(s)!.push({ sent, answered: performance.now() });
    return res;
  };
  /** Whether a create answered 2xx, or (retried) 409 for an id that reads back; records a failure otherwise. */
  const created = async (s: SandboxClient, res: Response | Error, readBack: string): Promise<boolean> => {
    if (res instanceof Error) return false;
    if (res.status === 201) return true;
    if (res.status === 409 && options.retryOnce && (await readable(s, readBack, send))) return true;
    failures.push(`${s.id}: ${res.status} ${await res.text()}`);
    return false;
  };

  const account = async (s: SandboxClient) => {
    const body = accountBody(s.admin.organisation_id, `Load ${counter}`, String(10_000_000 + counter++));
    const res = await post(s, '/v1/organisation/accounts', body);
    if (await created(s, res, `/v1/organisation/accounts/${body.data.id}`))
      acknowledged.push({ sandbox: s, kind: 'account', id: body.data.id, at: performance.now() });
    return res;
  };
  const verification = async (s: SandboxClient) => {
    const res = await post(s, NAME_VERIFICATION.path, NAME_VERIFICATION.body);
    if (res instanceof Error) return res;
    const text = await res.text();
    if (res.status === 200 && JSON.parse(text).Data.VerificationReport.Name === 'Samantha Holder') verified++;
    else failures.push(`${s.id} name verification: ${res.status} ${text}`);
    return res;
  };
  const claim = async (s: SandboxClient) => {
    const n = counter++;
    const body = claimRequest(s.admin.organisation_id, {
      reference: `DDIC${String(n).padStart(8, '0')}`,
      disputed_transactions: [{ amount: '1.00', date: '2026-12-01' }],
    });
    const made = await post(s, '/v1/transaction/claims', body);
    if (!(await created(s, made, `/v1/transaction/claims/${body.data.id}`))) return made;
    const res = await post(
      s,
      `/v1/transaction/claims/${body.data.id}/submissions`,
      childRequest(s.admin.organisation_id),
    );
    if (res instanceof Error || res.status !== 201) {
      if (!(res instanceof Error)) failures.push(`${s.id} submission: ${res.status} ${await res.text()}`);
      return res;
    }
    const day = ((await res.json()) as { data: { attributes: { submission_date: string } } }).data.attributes
      .submission_date;
    acknowledged.push({ sandbox: s, kind: 'claim', id: body.data.id, day, at: performance.now() });
    return res;
  };

  const steps = options.mixed ? [account, verification, claim] : [account];
  const loops = sandboxes.map(async (s) => {
    for (let i = 0; running; i++) {
      const res = await steps[i % steps.length]!(s);
      if (res instanceof Error) await new Promise((r) => setTimeout(r, 100));
    }
  });
  return {
    acknowledged,
    served,
    failures,
    /** Name verifications answered 200 with the seed account's name. */
    verified: () => verified,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function readable(s: SandboxClient, path: string, send: Send): Promise<boolean> {
  const res = await send.fetch(path, { headers: { authorization: `Bearer ${s.token}` } });
  return res.status === 200;
}

/** The acknowledged writes some node of `urls` does not read back, each with its answer. */
export async function missingAnywhere(acked: Acknowledged[], urls: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const url of urls)
    for (const { sandbox, kind, id } of acked) {
      const path = kind === 'account' ? `/v1/organisation/accounts/${id}` : `/v1/transaction/claims/${id}`;
      const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${sandbox.token}` } });
      if (res.status !== 200) missing.push(`${kind} ${id} via ${url}: ${res.status}`);
    }
  return missing;
}

/** No world's epoch was answered by two nodes; the owner of each world at each epoch (`world@epoch`). */
export function oneOwnerPerEpoch(answers: Answer[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const a of answers) {
    if (a.node === null || a.epoch === null || a.world === null) continue;
    const key = `${a.world}@${a.epoch}`;
    const seen = owners.get(key);
    if (seen !== undefined && seen !== a.node) throw new Error(`${key} answered by ${seen} and ${a.node}`);
    owners.set(key, a.node);
  }
  return owners;
}
