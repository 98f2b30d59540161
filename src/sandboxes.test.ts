import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { devSigningKey } from '../test/support/dev-signing-key.ts';
import { postgresForTests } from '../test/support/postgres-for-tests.ts';
import {
  accountBody,
  type Fetch,
  newSandbox,
  type SandboxClient,
  sandboxClient,
} from '../test/support/sandbox-client.ts';
import { form3SignedHeaders } from './client/form3-request-signer.ts';
import { claimAttributes } from './harness/claim-attributes.ts';
import { postgresBinDir } from './harness/postgres-server.ts';
import { type TestRuntime, testRuntime } from './harness/test-runtime.ts';
import { listen } from './node/server.ts';
import { sandboxFolder } from './sandbox-storage.ts';
import { openStore } from './store/store.ts';

const json = async (res: Response) => (await res.json()) as any;
const fetchOf =
  (r: TestRuntime): Fetch =>
  async (path, init) =>
    r.app.request(path, init);
const FROZEN = { clock: { mode: 'frozen', start: '2026-12-21T09:00:00Z' } };

let rt: TestRuntime | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await rt?.close();
  rt = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The README's tour in a sandbox: an account, a claim and its submission, as its own admin. */
async function fileClaim(s: SandboxClient): Promise<string> {
  const org = s.admin.organisation_id;
  const id = randomUUID();
  const attributes = claimAttributes(['12.34'], { reference: `DDIC${id.slice(0, 8)}` }, '2026-12-18');
  expect(
    (await s.call('POST', '/v1/transaction/claims', { data: { id, organisation_id: org, type: 'claims', attributes } }))
      .status,
  ).toBe(201);
  const sub = await s.call('POST', `/v1/transaction/claims/${id}/submissions`, {
    data: { id: randomUUID(), organisation_id: org, type: 'claim_submissions' },
  });
  expect(sub.status).toBe(201);
  return id;
}

// The contras only: a sandbox seeded from the fixtures also holds their seed payments.
const contras = async (s: SandboxClient) =>
  (await json(await s.call('GET', '/v1/transaction/payments?filter[scheme_payment_sub_type]=DDICSettlement'))).data;

describe('sandboxes on one server', () => {
  it("settle each sandbox's claims on its own clock: advancing A leaves B's clock and claim", async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const a = await newSandbox(fetchOf(rt), FROZEN, admin);
    const b = await newSandbox(fetchOf(rt), FROZEN, admin);
    const claimA = await fileClaim(a);
    const claimB = await fileClaim(b);
    expect((await a.call('POST', '/v1/simulator/clock/advance', { working_days: 14 })).status).toBe(200);

    const [contra] = await contras(a);
    expect(contra.relationships.claims.data.map((c: any) => c.id)).toEqual([claimA]);
    expect(await contras(b)).toEqual([]);
    expect((await json(await b.call('GET', '/v1/simulator/clock'))).data.now).toBe('2026-12-21T09:00:00.000Z');
    expect((await json(await rt.call('GET', '/v1/simulator/clock'))).data.now).toBe('2026-12-21T09:00:00.000Z');
    const bClaim = await json(await b.call('GET', `/v1/transaction/claims/${claimB}`));
    expect(bClaim.data.relationships?.payment).toBeUndefined();

    // Deleting A leaves B whole.
    expect((await rt.call('DELETE', `/v1/simulator/sandboxes/${a.id}`)).status).toBe(204);
    expect((await b.call('POST', '/v1/simulator/clock/advance', { working_days: 14 })).status).toBe(200);
    expect((await contras(b))[0].relationships.claims.data.map((c: any) => c.id)).toEqual([claimB]);
  });

  it('each answer with its own settings: strict bodies in one, not in the other', async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const strict = await newSandbox(fetchOf(rt), { settings: { strict: true } }, admin);
    const lax = await newSandbox(fetchOf(rt), {}, admin);
    const body = (org: string) => ({
      data: {
        id: randomUUID(),
        organisation_id: org,
        type: 'accounts',
        attributes: {
          country: 'GB',
          bank_id: '400300',
          bic: 'NWBKGB22',
          bank_id_code: 'GBDSC',
          name: ['X Y'],
          colour: 'blue',
        },
      },
    });
    expect((await strict.call('POST', '/v1/organisation/accounts', body(strict.admin.organisation_id))).status).toBe(
      400,
    );
    expect((await lax.call('POST', '/v1/organisation/accounts', body(lax.admin.organisation_id))).status).toBe(201);
  });

  it('answer name verification with their own matcher thresholds, in one process', async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const lenient = await newSandbox(
      fetchOf(rt),
      { seed: 'none', settings: { match_thresholds: { typo_min_jaro_winkler: 0.85 } } },
      admin,
    );
    const strict = await newSandbox(
      fetchOf(rt),
      { seed: 'none', settings: { match_thresholds: { typo_min_jaro_winkler: 0.95 } } },
      admin,
    );
    const reasonOf = async (s: SandboxClient) => {
      const account = accountBody(s.admin.organisation_id, 'John Smith', '31415926');
      expect((await s.call('POST', '/v1/organisation/accounts', account)).status).toBe(201);
      const answer = await json(
        await s.call('POST', '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification', {
          Data: {
            SchemeName: 'SortCodeAccountNumber',
            AccountType: 'Personal',
            Identification: '40030031415926',
            Name: 'John Smyth',
          },
        }),
      );
      return answer.Data.VerificationReport.ReasonCode;
    };
    expect(await reasonOf(lenient)).toBe('MBAM');
    expect(await reasonOf(strict)).toBe('ANNM');
    const bad = await rt.call('POST', '/v1/simulator/sandboxes', {
      data: {
        attributes: {
          settings: { match_thresholds: { jaro_winkler_prefix_scale: 0.25, jaro_winkler_max_prefix: 10 } },
        },
      },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toMatch(
      /settings\.match_thresholds\.jaro_winkler_prefix_scale × jaro_winkler_max_prefix must be at most 1/,
    );
  });

  it('keeps every sandbox, its clock and its records across a restart on the journal store; delete frees its files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandboxes-'));
    dirs.push(dir);
    const data = join(dir, 'sim.json');
    rt = await testRuntime({ data, memory: false });
    const admin = await rt.token();
    const a = await newSandbox(fetchOf(rt), FROZEN, admin);
    const b = await newSandbox(fetchOf(rt), FROZEN, admin);
    const claimA = await fileClaim(a);
    expect((await a.call('POST', '/v1/simulator/clock/advance', { working_days: 3 })).status).toBe(200);
    await rt.close();

    rt = await testRuntime({ data, memory: false });
    expect(rt.sandboxes.size).toBe(2);
    // The same credentials take tokens again; the old tokens verify too (each sandbox keeps its key).
    const a2 = await sandboxClient(fetchOf(rt), a.data);
    expect((await json(await a2.call('GET', '/v1/simulator/clock'))).data.now).toBe('2026-12-24T09:00:00.000Z');
    expect((await a.call('GET', `/v1/transaction/claims/${claimA}`)).status).toBe(200);
    expect((await json(await b.call('GET', '/v1/simulator/clock'))).data.now).toBe('2026-12-21T09:00:00.000Z');

    expect(existsSync(join(sandboxFolder(data), a.id))).toBe(true);
    expect((await rt.call('DELETE', `/v1/simulator/sandboxes/${a.id}`)).status).toBe(204);
    expect(existsSync(join(sandboxFolder(data), a.id))).toBe(false);
    await rt.close();
    rt = await testRuntime({ data, memory: false });
    expect(rt.sandboxes.list().map((s) => s.id)).toEqual([b.id]);
  });

  it("take requests signed as Form3's SDK signs them with the sandbox's key id, by credentials or under the prefix", async () => {
    rt = await testRuntime();
    const server = await listen(rt, 0);
    try {
      const net: Fetch = (path, init) => fetch(`${server.url}${path}`, init);
      const s = await newSandbox(net, { seed: 'none' }, await rt.token());
      for (const path of ['/v1/organisation/accounts', `/sandboxes/${s.id}/v1/organisation/accounts`]) {
        const url = new URL(`${server.url}${path}`);
        // Each of the admin's keys is tried: the test clients register the dev key and a test key.
        const answers = await Promise.all(
          s.admin.key_ids.map((id) =>
            fetch(url, { headers: form3SignedHeaders(url, 'GET', undefined, id, devSigningKey(), rt!.wall.now()) }),
          ),
        );
        expect(
          answers.map((a) => a.status),
          path,
        ).toContain(200);
        const ok = answers.find((a) => a.status === 200)!;
        expect(((await ok.json()) as { data: unknown[] }).data, path).toEqual([]); // the sandbox's: no seed
      }
    } finally {
      await server.close();
      rt = undefined;
    }
  });

  it('makes the next store ahead on the journal store, and leaves no spare behind a stop or a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandboxes-spare-'));
    dirs.push(dir);
    const data = join(dir, 'sim.json');
    rt = await testRuntime({ data, memory: false });
    const first = await rt.sandboxes.create({ seed: 'none' });
    await new Promise((r) => setTimeout(r, 500)); // the spare is made in the background
    const folders = () => readdirSync(sandboxFolder(data)).sort();
    expect(folders()).toHaveLength(2); // the sandbox and the next one's store
    const second = await rt.sandboxes.create({ seed: 'none' });
    expect(folders()).toContain(second.id); // it took the spare's folder
    await rt.close();
    expect(folders()).toEqual([first.id, second.id].sort());
    // A store made ahead and never used (a crash): start-up removes it.
    const leftover = randomUUID();
    await (await openStore({ file: join(sandboxFolder(data), leftover, 'sim.json') })).close();
    expect(folders()).toContain(leftover);
    rt = await testRuntime({ data, memory: false });
    expect(rt.sandboxes.size).toBe(2);
    expect(folders()).not.toContain(leftover);
  });

  it('works in process through createRuntime: create, get, list, delete', async () => {
    rt = await testRuntime();
    const s = await rt.sandboxes.create({ seed: 'none' });
    expect(rt.sandboxes.get(s.id)).toBe(s);
    expect(rt.sandboxes.list()).toEqual([s]);
    expect(s.recordCount()).toBe(0);
    expect(await rt.sandboxes.delete(s.id)).toBe(true);
    expect(rt.sandboxes.get(s.id)).toBeUndefined();
  });

  it("routes a sandbox's token however its scheme is spelt, and leaves a malformed one to the default world", async () => {
    rt = await testRuntime();
    const s = await rt.sandboxes.create({ seed: 'none' });
    const admin = s.clients[0]!;
    const res = await s.app.request('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${admin.client_id}:${admin.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const token = (await json(res)).access_token as string;
    expect(token).toMatch(/^sbx_[0-9a-f]{32}\./);
    const route = (authorization: string) => rt!.sandboxes.routeWorld('/v1/organisation/accounts', authorization);
    for (const spelt of [
      `Bearer ${token}`,
      `bearer ${token}`,
      `BEARER ${token}`,
      `Bearer  ${token}`,
      `Bearer\t${token}`,
    ])
      expect(route(spelt), spelt.slice(0, 12)).toEqual({ world: s.world });
    // Upper-case hex names the same sandbox (the id is matched without case).
    expect(route(`Bearer sbx_${token.slice(4, 36).toUpperCase()}${token.slice(36)}`)).toEqual({ world: s.world });
    // A well-formed id of no sandbox is refused; a malformed one is no sandbox's (the default world refuses it).
    expect(route(`Bearer sbx_${'0'.repeat(32)}${token.slice(36)}`)).toMatchObject({ refused: 401 });
    expect(route(`Bearer sbx_${'z'.repeat(32)}${token.slice(36)}`)).toBeUndefined();
    expect(route(`Bearer sbx_${token.slice(4, 35)}${token.slice(36)}`)).toBeUndefined();
  });
});

describe.skipIf(postgresBinDir() === undefined)('sandboxes on PostgreSQL', () => {
  const pg = postgresForTests();

  it('keeps every sandbox across a restart, a schema each; delete drops its schema', async () => {
    const postgres = await pg.server.createDatabase();
    rt = await testRuntime({ postgres, memory: false });
    const admin = await rt.token();
    const a = await newSandbox(fetchOf(rt), FROZEN, admin);
    const b = await newSandbox(fetchOf(rt), { ...FROZEN, seed: 'none' }, admin);
    const claimA = await fileClaim(a);
    expect((await a.call('POST', '/v1/simulator/clock/advance', { working_days: 3 })).status).toBe(200);
    await rt.close();

    rt = await testRuntime({ postgres, memory: false });
    expect(
      rt.sandboxes
        .list()
        .map((s) => s.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect((await json(await a.call('GET', '/v1/simulator/clock'))).data.now).toBe('2026-12-24T09:00:00.000Z');
    expect((await a.call('GET', `/v1/transaction/claims/${claimA}`)).status).toBe(200);
    expect((await json(await b.call('GET', '/v1/organisation/accounts'))).data).toEqual([]);

    expect((await rt.call('DELETE', `/v1/simulator/sandboxes/${a.id}`)).status).toBe(204);
    await rt.close();
    rt = await testRuntime({ postgres, memory: false });
    expect(rt.sandboxes.list().map((s) => s.id)).toEqual([b.id]);
  }, 60_000);
});
