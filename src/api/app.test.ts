import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FENWICK, HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { schemaValidator } from './schemas/index.ts';

const BASE = '/v1/organisation/accounts';
type Json = Record<string, any>;

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

async function createAccount(
  attributes: Record<string, unknown> = {},
  client = NORTHWIND,
  id: string = crypto.randomUUID(),
) {
  const res = await rt.call(
    'POST',
    BASE,
    {
      data: {
        id,
        organisation_id: client.organisation_id,
        type: 'accounts',
        attributes: { country: 'GB', name: ['Holder'], ...client.bank, ...attributes },
      },
    },
    { client },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return id;
}

const json = async (res: Response) => (await res.json()) as Json;

describe('tenants', () => {
  it("answers 404 for another organisation's record on GET, PATCH and DELETE, and leaves it alone", async () => {
    const id = await createAccount();
    for (const [method, path, body] of [
      ['GET', `${BASE}/${id}`, undefined],
      ['PATCH', `${BASE}/${id}`, { data: { version: 0, attributes: { switched: true } } }],
      ['DELETE', `${BASE}/${id}?version=0`, undefined],
    ] as const) {
      const res = await rt.call(method, path, body, { client: HARBOUR });
      expect(res.status, method).toBe(404);
      // A DELETE answers an empty 404, as Form3's fake account API does; the others name the record.
      if (method === 'DELETE') expect(await res.text()).toBe('');
      else expect((await json(res)).error_message).toBe(`record ${id} does not exist`);
    }
    expect((await json(await rt.call('GET', `${BASE}/${id}`))).data.version).toBe(0);
  });

  it("lists only the caller's organisation", async () => {
    await createAccount({}, NORTHWIND);
    await createAccount({}, HARBOUR);
    await createAccount({}, HARBOUR);
    expect((await json(await rt.call('GET', BASE))).data).toHaveLength(1);
    expect((await json(await rt.call('GET', BASE, undefined, { client: HARBOUR }))).data).toHaveLength(2);
    expect((await json(await rt.call('GET', BASE, undefined, { client: FENWICK }))).data).toHaveLength(0);
  });

  it('403s a create for another organisation, naming it', async () => {
    const res = await rt.call('POST', BASE, {
      data: {
        id: crypto.randomUUID(),
        organisation_id: HARBOUR.organisation_id,
        type: 'accounts',
        attributes: { country: 'GB', name: ['x'], ...NORTHWIND.bank },
      },
    });
    expect(res.status).toBe(403);
    expect((await json(res)).error_message).toContain(
      `organisation_id ${HARBOUR.organisation_id} is not the organisation of this client`,
    );
  });

  it('403s a PATCH that names another organisation', async () => {
    const id = await createAccount();
    const res = await rt.call('PATCH', `${BASE}/${id}`, {
      data: { organisation_id: HARBOUR.organisation_id, version: 0, attributes: {} },
    });
    expect(res.status).toBe(403);
  });

  it('409s an id already used by another organisation (ids are global)', async () => {
    const id = await createAccount({}, HARBOUR);
    const res = await rt.call('POST', BASE, {
      data: {
        id,
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: { country: 'GB', name: ['x'], ...NORTHWIND.bank },
      },
    });
    expect(res.status).toBe(409);
  });
});

describe('paging', () => {
  beforeEach(async () => {
    for (let i = 0; i < 5; i++)
      await createAccount({ account_number: `1000000${i}`, bank_id: '400300', bank_id_code: 'GBDSC', bic: 'NWBKGB22' });
  });

  it('defaults to page 0 of size 100 with first, last and self links and no prev or next', async () => {
    const body = await json(await rt.call('GET', BASE));
    expect(schemaValidator('account-list')(body)).toBe(true);
    expect(body.data).toHaveLength(5);
    expect(body.links).toEqual({
      self: `${BASE}?page%5Bnumber%5D=0&page%5Bsize%5D=100`,
      first: `${BASE}?page%5Bnumber%5D=first&page%5Bsize%5D=100`,
      last: `${BASE}?page%5Bnumber%5D=last&page%5Bsize%5D=100`,
    });
  });

  it('pages in creation order with prev and next', async () => {
    const all = (await json(await rt.call('GET', BASE))).data.map((a: Json) => a.id);
    const p1 = await json(await rt.call('GET', `${BASE}?page[number]=1&page[size]=2`));
    expect(p1.data.map((a: Json) => a.id)).toEqual(all.slice(2, 4));
    expect(p1.links.prev).toBe(`${BASE}?page%5Bnumber%5D=0&page%5Bsize%5D=2`);
    expect(p1.links.next).toBe(`${BASE}?page%5Bnumber%5D=2&page%5Bsize%5D=2`);
    expect(p1.links.last).toBe(`${BASE}?page%5Bnumber%5D=last&page%5Bsize%5D=2`);
  });

  it('understands page[number]=first and last', async () => {
    const first = await json(await rt.call('GET', `${BASE}?page[number]=first&page[size]=2`));
    expect(first.data).toHaveLength(2);
    expect(first.links.prev).toBeUndefined();
    const last = await json(await rt.call('GET', `${BASE}?page[number]=last&page[size]=2`));
    expect(last.data).toHaveLength(1);
    expect(last.links.next).toBeUndefined();
    expect(last.links.self).toBe(`${BASE}?page%5Bnumber%5D=2&page%5Bsize%5D=2`);
  });

  it('answers an empty page past the end, and sizes 1 and 1000', async () => {
    expect((await json(await rt.call('GET', `${BASE}?page[number]=9&page[size]=2`))).data).toEqual([]);
    expect((await json(await rt.call('GET', `${BASE}?page[size]=1`))).data).toHaveLength(1);
    expect((await json(await rt.call('GET', `${BASE}?page[size]=1000`))).data).toHaveLength(5);
  });

  it('keeps filters in the links', async () => {
    const body = await json(await rt.call('GET', `${BASE}?filter[country]=GB&page[size]=2`));
    expect(body.links.next).toBe(`${BASE}?filter%5Bcountry%5D=GB&page%5Bnumber%5D=1&page%5Bsize%5D=2`);
  });
});

describe('filters', () => {
  it('match each supported attribute exactly, and combine', async () => {
    await createAccount({
      bank_id: '400300',
      bank_id_code: 'GBDSC',
      bic: 'NWBKGB22',
      account_number: '11111111',
      customer_id: 'c-1',
      iban: 'GB11NWBK40030011111111',
    });
    await createAccount({
      bank_id: '400301',
      bank_id_code: 'GBDSC',
      bic: 'NWBKGB22',
      account_number: '22222222',
      customer_id: 'c-2',
    });
    await createAccount({ country: 'FR', bank_id: undefined, bic: undefined, account_number: '33333333' });
    const count = async (q: string) => (await json(await rt.call('GET', `${BASE}?${q}`))).data.length;
    expect(await count('filter[country]=GB')).toBe(2);
    expect(await count('filter[country]=FR')).toBe(1);
    expect(await count('filter[bank_id]=400300')).toBe(1);
    expect(await count('filter[bank_id_code]=GBDSC')).toBe(2);
    expect(await count('filter[account_number]=22222222')).toBe(1);
    expect(await count('filter[customer_id]=c-1')).toBe(1);
    expect(await count('filter[iban]=GB11NWBK40030011111111')).toBe(1);
    expect(await count('filter[country]=GB&filter[bank_id]=400301')).toBe(1);
    expect(await count('filter[country]=DE')).toBe(0);
  });

  it('filters by organisation_id and type, Form3’s other account filters, with comma values meaning any of', async () => {
    const typed = await rt.call('POST', BASE, {
      data: {
        id: crypto.randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        attributes: { country: 'FR', name: ['Anne Martin'], type: 'savings' },
      },
    });
    expect(typed.status).toBe(201);
    const ids = async (query: string) =>
      ((await json(await rt.call('GET', `${BASE}?${query}`))).data as Array<{ id: string }>).length;
    expect(await ids(`filter[organisation_id]=${NORTHWIND.organisation_id}&filter[type]=savings`)).toBe(1);
    expect(await ids(`filter[organisation_id]=${HARBOUR.organisation_id}`)).toBe(0); // another's are not yours
    expect(await ids('filter[type]=current,savings')).toBe(1);
    expect(await ids('filter[type]=current')).toBe(0);
  });

  it('400s an unknown filter listing the supported ones', async () => {
    const res = await rt.call('GET', `${BASE}?filter[colour]=red`);
    expect(res.status).toBe(400);
    expect((await json(res)).error_message).toBe(
      'filter[colour] is not a supported filter; supported: filter[account_number], filter[bank_id], filter[bank_id_code], filter[country], filter[customer_id], filter[iban], filter[organisation_id], filter[type]',
    );
  });
});

describe('durability', () => {
  it('answers a change only after the store committed it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const commit = vi.spyOn(rt.sim.store, 'commit').mockImplementation(() => gate);
    await rt.token();
    let answered = false;
    const pending = rt
      .call('POST', BASE, {
        data: {
          id: crypto.randomUUID(),
          organisation_id: NORTHWIND.organisation_id,
          type: 'accounts',
          attributes: { country: 'FR', name: ['x'] },
        },
      })
      .then((res) => ((answered = true), res));
    await new Promise((r) => setTimeout(r, 30));
    expect(commit).toHaveBeenCalled();
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(201);
    commit.mockRestore();
  });

  it('does not write for a request that changed nothing', async () => {
    await rt.token();
    const commit = vi.spyOn(rt.sim.store, 'commit');
    await rt.call('GET', BASE);
    await rt.call('POST', BASE, '{"data":');
    expect(commit).not.toHaveBeenCalled();
    commit.mockRestore();
  });
});
