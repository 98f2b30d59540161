import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

// Under --auth off --no-seed the accounts registry answers as Form3's public fake account API
// (form3tech-oss/interview-accountapi) does, for a client written against it: no credentials, any
// organisation_id, which partitions the records, and the fake API's statuses and messages
// (the table in ../shared/reference/form3-contract.md, from the fake API's client tests).

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime({ auth: 'off', seedAccounts: false });
});
afterEach(() => rt.close());

const BASE = '/v1/organisation/accounts';
const JSON_API = { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' };
const send = (method: string, path: string, body?: unknown) =>
  rt.app.request(path, {
    method,
    headers: JSON_API,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const account = (organisation_id: string, id: string = randomUUID()) => ({
  data: {
    id,
    organisation_id,
    type: 'accounts',
    attributes: { country: 'GB', bank_id: '400300', bank_id_code: 'GBDSC', bic: 'NWBKGB22', name: ['Samantha Holder'] },
  },
});

describe('--auth off, as the fake account API', () => {
  it('takes any integer version on create (its model: an int64 with no rule) and starts the account at 0', async () => {
    for (const version of [1_000_000_000, -3, 0]) {
      const body = account(randomUUID());
      const res = await send('POST', BASE, { data: { ...body.data, version } });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(((await res.json()) as { data: { version: number } }).data.version).toBe(0);
      expect(
        ((await (await send('GET', `${BASE}/${body.data.id}`)).json()) as { data: { version: number } }).data,
      ).toMatchObject({ version: 0 });
    }
    // A version that is no integer still breaks the schema's rule.
    const text = await send('POST', BASE, { data: { ...account(randomUUID()).data, version: '7' } });
    expect(text.status).toBe(400);
  });

  it('creates for any organisation, which partitions the records; reads see every one unless filtered', async () => {
    const orgs = [randomUUID(), randomUUID(), randomUUID()];
    const ids: string[] = [];
    for (const org of orgs) {
      const res = await send('POST', BASE, account(org));
      expect(res.status, await res.clone().text()).toBe(201);
      ids.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    const fetched = await send('GET', `${BASE}/${ids[1]}`);
    expect(fetched.status).toBe(200);
    expect(((await fetched.json()) as { data: { organisation_id: string } }).data.organisation_id).toBe(orgs[1]);
    const all = (await (await send('GET', BASE)).json()) as { data: unknown[]; links: Record<string, string> };
    expect(all.data).toHaveLength(3);
    const one = (await (await send('GET', `${BASE}?filter[organisation_id]=${orgs[2]}`)).json()) as {
      data: Array<{ id: string }>;
    };
    expect(one.data.map((a) => a.id)).toEqual([ids[2]]);
    const paged = (await (await send('GET', `${BASE}?page[number]=0&page[size]=2`)).json()) as {
      data: unknown[];
      links: Record<string, string>;
    };
    expect(paged.data).toHaveLength(2);
    expect(paged.links.first).toContain('page%5Bnumber%5D=first');
    expect(paged.links.last).toContain('page%5Bnumber%5D=last');
    const same = await send('POST', BASE, account(orgs[0]!, ids[0]));
    expect(same.status).toBe(409);
    expect(await same.json()).toMatchObject({
      error_message: 'Account cannot be created as it violates a duplicate constraint',
    });
  });

  it('deletes at the right version; a wrong version is 409 invalid version, an unknown id an empty 404', async () => {
    const org = randomUUID();
    const id = ((await (await send('POST', BASE, account(org))).json()) as { data: { id: string } }).data.id;
    const wrong = await send('DELETE', `${BASE}/${id}?version=7`);
    expect(wrong.status).toBe(409);
    expect(((await wrong.json()) as { error_message: string }).error_message).toBe('invalid version');
    expect((await send('DELETE', `${BASE}/${id}?version=0`)).status).toBe(204);
    const unknown = await send('DELETE', `${BASE}/${randomUUID()}?version=0`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('');
    const gone = await send('GET', `${BASE}/${id}`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error_message: string }).error_message).toBe(`record ${id} does not exist`);
  });

  it('names the missing field as go-swagger does', async () => {
    const body = account(randomUUID());
    const { country: _, ...noCountry } = body.data.attributes;
    const res = await send('POST', BASE, { data: { ...body.data, attributes: noCountry } });
    expect(res.status).toBe(400);
    // Byte for byte the fake API's texts (its client tests): one prefix per model level.
    const P = 'validation failure list:';
    expect(((await res.json()) as { error_message: string }).error_message).toBe(
      `${P}\n${P}\n${P}\ncountry in body is required`,
    );
    const noOrg = await send('POST', BASE, { data: { ...body.data, organisation_id: undefined } });
    expect(((await noOrg.json()) as { error_message: string }).error_message).toBe(
      `${P}\n${P}\norganisation_id in body is required`,
    );
    const noAttributes = await send('POST', BASE, { data: { ...body.data, attributes: undefined } });
    expect(((await noAttributes.json()) as { error_message: string }).error_message).toBe(
      `${P}\n${P}\nattributes in body is required`,
    );
  });

  it('applies no country rule, registered-bank check or generated number, and demands a name', async () => {
    const res = await send('POST', BASE, {
      data: {
        id: randomUUID(),
        organisation_id: randomUUID(),
        type: 'accounts',
        attributes: { country: 'GB', bank_id: '999999999', account_number: '123456789', name: ['Sam'] },
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { attributes } = ((await res.json()) as { data: { attributes: Record<string, unknown> } }).data;
    expect(attributes).toEqual({ country: 'GB', bank_id: '999999999', account_number: '123456789', name: ['Sam'] });
    const unnamed = await send('POST', BASE, {
      data: { id: randomUUID(), organisation_id: randomUUID(), type: 'accounts', attributes: { country: 'GB' } },
    });
    expect(unnamed.status).toBe(400);
    expect(((await unnamed.json()) as { error_message: string }).error_message).toBe(
      'validation failure list:\nvalidation failure list:\nvalidation failure list:\nname in body is required',
    );
  });
});
