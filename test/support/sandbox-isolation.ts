// Test-only: every way across a sandbox boundary a client has, tried from sandbox A against sandbox
// B (and the default sandbox D). Each crossing that works is a leak, named; none is the goal.
// test/sandbox-isolation.test.ts runs it, and plants a leak to show it can fail.
import { randomUUID } from 'node:crypto';
import { accountBody, type Fetch, type SandboxClient } from './sandbox-client.ts';
import { NORTHWIND_COP_PATH } from './testing.ts';

const json = async (res: Response): Promise<any> => {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** B's records, made so that A can try to reach them. */
interface Planted {
  accountId: string;
  accountNumber: string;
  name: string;
  subscriptionId: string;
  marker: string;
}

async function plant(b: SandboxClient): Promise<Planted> {
  const marker = `marker-${randomUUID()}`;
  const accountNumber = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const name = `Isolde ${marker.slice(7, 15)} Boundary`;
  const account = await b.call(
    'POST',
    '/v1/organisation/accounts',
    accountBody(b.admin.organisation_id, name, accountNumber),
  );
  if (account.status !== 201) throw new Error(`B's account: ${account.status} ${await account.text()}`);
  const subscription = await b.call('POST', '/v1/notification/subscriptions', {
    data: {
      id: randomUUID(),
      type: 'subscriptions',
      organisation_id: b.admin.organisation_id,
      attributes: {
        callback_uri: 'https://receiver.example/hook',
        callback_transport: 'http',
        event_type: 'created',
        record_type: 'accounts',
      },
    },
  });
  if (subscription.status !== 201)
    throw new Error(`B's subscription: ${subscription.status} ${await subscription.text()}`);
  // A request only B made, for the journal check.
  await b.call('GET', `/v1/organisation/accounts?filter[account_number]=${marker}`);
  return {
    accountId: (await json(account)).data.id,
    accountNumber,
    name,
    subscriptionId: (await json(subscription)).data.id,
    marker,
  };
}

/**
 * Tries every crossing from A into B; the leaks found, each as a sentence (empty: none).
 * `fetch` reaches the server with no credentials of its own; `defaultToken` is a client of D.
 */
export async function findLeaks(
  fetch: Fetch,
  a: SandboxClient,
  b: SandboxClient,
  defaultToken: string,
): Promise<string[]> {
  const leaks: string[] = [];
  const leak = (what: string) => leaks.push(what);
  const p = await plant(b);
  const bClockBefore = (await json(await b.call('GET', '/v1/simulator/clock'))).data.now;

  // Records, by id and by listing.
  if ((await a.call('GET', `/v1/organisation/accounts/${p.accountId}`)).status !== 404)
    leak("A's token reads B's account by id");
  const listed = await json(await a.call('GET', '/v1/organisation/accounts?page[size]=1000'));
  if (JSON.stringify(listed).includes(p.accountId)) leak("A's account list shows B's account");
  if ((await a.call('DELETE', `/v1/organisation/accounts/${p.accountId}?version=0`)).status !== 404)
    leak("A's token deletes B's account");
  // Subscriptions (and so notifications).
  if ((await a.call('GET', `/v1/notification/subscriptions/${p.subscriptionId}`)).status !== 404)
    leak("A's token reads B's subscription");
  if (JSON.stringify(await json(await a.call('GET', '/v1/notification/subscriptions'))).includes(p.subscriptionId))
    leak("A's subscription list shows B's subscription");
  // Name verification: B's account is unknown in A's world.
  const cop = await json(
    await a.call('POST', NORTHWIND_COP_PATH, {
      Data: {
        SchemeName: 'SortCodeAccountNumber',
        AccountType: 'Personal',
        Identification: `400300${p.accountNumber}`,
        Name: p.name,
      },
    }),
  );
  if (cop?.Data?.VerificationReport?.Matched === true) leak("A's name verification matches B's account");
  // The clock: A's advance moves A only.
  const advanced = await a.call('POST', '/v1/simulator/clock/advance', { working_days: 14 });
  if (advanced.status !== 200) leak(`A could not advance its own clock (${advanced.status})`);
  if ((await json(await b.call('GET', '/v1/simulator/clock'))).data.now !== bClockBefore)
    leak("A's advance moved B's clock");
  // A reset of A's world leaves B's records.
  const reset = await a.call('POST', '/v1/simulator/reset', {});
  if (reset.status >= 300) leak(`A could not reset its own sandbox (${reset.status})`);
  if ((await b.call('GET', `/v1/organisation/accounts/${p.accountId}`)).status !== 200)
    leak("A's reset removed B's account");
  // The request journal (which the dashboard reads) and its live stream's backlog.
  if (JSON.stringify(await json(await a.call('GET', '/v1/simulator/requests?limit=1000'))).includes(p.marker))
    leak("A's request journal shows B's request");
  if (
    JSON.stringify(
      await json(
        await fetch('/v1/simulator/requests?limit=1000', { headers: { authorization: `Bearer ${defaultToken}` } }),
      ),
    ).includes(p.marker)
  )
    leak("the default sandbox's request journal shows B's request");
  // The sandboxes API: A sees only itself.
  if ((await a.call('GET', `/v1/simulator/sandboxes/${b.id}`)).status !== 404) leak("A's token reads B's sandbox");
  if (JSON.stringify(await json(await a.call('GET', '/v1/simulator/sandboxes'))).includes(b.id))
    leak("A's sandbox list shows B");
  if ((await a.call('DELETE', `/v1/simulator/sandboxes/${b.id}`)).status !== 404) leak("A's token deletes B's sandbox");
  // Tokens against another world's path prefix, and the default world's.
  if ((await a.call('GET', `/sandboxes/${b.id}/v1/organisation/accounts/${p.accountId}`)).status !== 401)
    leak("A's token works under B's path prefix");
  const viaDefault = await fetch(`/sandboxes/${b.id}/v1/organisation/accounts/${p.accountId}`, {
    headers: { authorization: `Bearer ${defaultToken}` },
  });
  if (viaDefault.status !== 401) leak("the default sandbox's token works under B's path prefix");
  if (
    (await fetch(`/v1/organisation/accounts/${p.accountId}`, { headers: { authorization: `Bearer ${defaultToken}` } }))
      .status !== 404
  )
    leak("the default sandbox's token reads B's account");
  // A token request with B's client id but A's secret.
  const basic = Buffer.from(`${b.admin.client_id}:${a.admin.client_secret}`).toString('base64');
  if (
    (await fetch('/v1/oauth2/token', { method: 'POST', headers: { authorization: `Basic ${basic}` } })).status === 200
  )
    leak("B's client id takes a token with A's secret");
  return leaks;
}
