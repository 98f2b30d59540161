import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

const ID = 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc';
const body = (attributes: Record<string, unknown> = {}, id = ID, organisation_id = NORTHWIND.organisation_id) => ({
  data: {
    id,
    organisation_id,
    type: 'accounts',
    attributes: {
      country: 'GB',
      bank_id: '400300',
      bank_id_code: 'GBDSC',
      bic: 'NWBKGB22',
      account_number: '41426819',
      name: ['Samantha Holder'],
      ...attributes,
    },
  },
});

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

describe('accounts', () => {
  it('creates at version 0 with scheme-clock timestamps, echoing only what was sent', async () => {
    const res = await rt.call('POST', '/v1/organisation/accounts', body({ account_classification: 'business' }));
    expect(res.status).toBe(201);
    const json = (await res.json()) as any;
    expect(json.data).toMatchObject({ id: ID, version: 0, created_on: '2026-12-21T09:00:00.000Z' });
    expect(json.data.attributes.account_classification).toBe('Business');
    // Form3's defaults (not joint, not opted out) apply in behaviour; they are not written in.
    expect(json.data.attributes).not.toHaveProperty('joint_account');
    expect(json.data.attributes).not.toHaveProperty('account_matching_opt_out');
    expect(json.links.self).toBe(`/v1/organisation/accounts/${ID}`);
  });

  it('409s a duplicate id and hides records of other organisations', async () => {
    await rt.call('POST', '/v1/organisation/accounts', body());
    const dup = await rt.call('POST', '/v1/organisation/accounts', body());
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as any).error_message).toBe(
      'Account cannot be created as it violates a duplicate constraint',
    );
    const other = await rt.call('GET', `/v1/organisation/accounts/${ID}`, undefined, { client: HARBOUR });
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).error_message).toBe(`record ${ID} does not exist`);
  });

  it('403s a create for another organisation', async () => {
    const res = await rt.call('POST', '/v1/organisation/accounts', body({}, ID, HARBOUR.organisation_id));
    expect(res.status).toBe(403);
  });

  it('patches at the right version and deletes with ?version=', async () => {
    await rt.call('POST', '/v1/organisation/accounts', body());
    const stale = await rt.call('PATCH', `/v1/organisation/accounts/${ID}`, {
      data: { version: 3, attributes: { switched: true } },
    });
    expect(stale.status).toBe(409);
    const ok = await rt.call('PATCH', `/v1/organisation/accounts/${ID}`, {
      data: { version: 0, attributes: { switched: true } },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).data).toMatchObject({ version: 1, attributes: { switched: true } });
    const wrong = await rt.call('DELETE', `/v1/organisation/accounts/${ID}?version=0`);
    expect(wrong.status).toBe(409);
    expect(((await wrong.json()) as any).error_message).toBe('invalid version');
    expect((await rt.call('DELETE', `/v1/organisation/accounts/${ID}?version=1`)).status).toBe(204);
    expect((await rt.call('DELETE', `/v1/organisation/accounts/${ID}?version=1`)).status).toBe(404);
  });

  it('pages with relative links and no next on the last page', async () => {
    for (let i = 0; i < 3; i++) {
      await rt.call('POST', '/v1/organisation/accounts', body({ account_number: `1000000${i}` }, crypto.randomUUID()));
    }
    const res = await rt.call('GET', '/v1/organisation/accounts?page[size]=2&page[number]=1');
    const json = (await res.json()) as any;
    expect(json.data).toHaveLength(1);
    expect(json.links.next).toBeUndefined();
    expect(json.links.prev).toBe('/v1/organisation/accounts?page%5Bnumber%5D=0&page%5Bsize%5D=2');
    expect(json.links.last).toBe('/v1/organisation/accounts?page%5Bnumber%5D=last&page%5Bsize%5D=2');
  });

  it("applies Form3's account-creation rules: registered bank, GB rules, generated number and IBAN", async () => {
    const { account_number: _, ...unnumbered } = body().data.attributes;
    const res = await rt.call('POST', '/v1/organisation/accounts', {
      data: { ...body().data, attributes: unnumbered },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { attributes } = ((await res.json()) as any).data;
    expect(attributes.account_number).toMatch(/^[0-9]{8}$/);
    expect(attributes.iban).toMatch(new RegExp(`^GB[0-9]{2}NWBK400300${attributes.account_number}$`));
    const refused = await rt.call('POST', '/v1/organisation/accounts', {
      data: { ...body({ bank_id: '309634', bic: undefined }, crypto.randomUUID()).data },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error_message).toBe(
      [
        'validation failure list:',
        'validation failure list:',
        'validation failure list:',
        `bank_id in body 309634 is not registered to organisation ${NORTHWIND.organisation_id} (registered: 400300, 400301, 400302)`,
        'bic in body is required for country GB',
      ].join('\n'),
    );
  });
});
