import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountBody } from '../../../test/support/sandbox-client.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { DASHBOARD_VIEWS } from './dashboard-views.ts';

// The dashboard's views, run as the browser runs them (the same text), over what the API answers.

interface Views {
  exchangesOf(list: unknown[]): Record<string, string>;
  sideOf(nv: unknown): 'asked' | 'received';
  nameVerificationItem(nv: unknown, partnerId?: string): string;
  accountRow(account: unknown): string;
  requestRow(entry: unknown): string;
  table(headings: string[], rows: string[]): string;
  ACCOUNT_HEADINGS: string[];
  REQUEST_HEADINGS: string[];
}
const views = new Function(
  `${DASHBOARD_VIEWS}\nreturn { exchangesOf, sideOf, nameVerificationItem, accountRow, requestRow, table, ACCOUNT_HEADINGS, REQUEST_HEADINGS };`,
)() as Views;

const NORTHWIND_OB = '0015800001041REAAY';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
  await rt.call(
    'POST',
    '/v1/organisation/accounts',
    accountBody(NORTHWIND.organisation_id, 'Grace Hopper', '27182818'),
  );
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

/** Plays a scenario on Northwind's own participant (201 or the test fails). */
async function play(name: string, parameters: Record<string, unknown>): Promise<void> {
  const res = await rt.call('POST', '/v1/simulator/scenarios', {
    data: { attributes: { name, parameters: { open_banking_id: NORTHWIND_OB, ...parameters } } },
  });
  expect(res.status).toBe(201);
}

/** Northwind asks a name verification; answers its id. */
async function ask(name: string, bankId = NORTHWIND.bank.bank_id): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call('POST', '/v1/organisation/nameverifications', {
    data: {
      id,
      organisation_id: NORTHWIND.organisation_id,
      attributes: {
        account_number: '27182818',
        account_number_code: 'BBAN',
        bank_id: bankId,
        bank_id_code: 'GBDSC',
        name: [name],
      },
    },
  });
  expect(res.status).toBe(201);
  return id;
}

/** Northwind's name verifications, oldest first, as the dashboard reads them. */
async function listed(): Promise<any[]> {
  return (await json(await rt.call('GET', '/v1/organisation/nameverifications?page[size]=100'))).data;
}

describe('the two sides of a name verification', () => {
  it('labels each side, and links the sides of each exchange of one organisation, twice asked alike', async () => {
    // Northwind asks of its own sort code: it holds both sides. Twice the same, at one scheme instant.
    const first = await ask('Grace Hoper');
    const second = await ask('Grace Hoper');
    const elsewhere = await ask('Grace Hopper', HARBOUR.bank.bank_id); // received at Harbour
    const list = await listed();
    const ids = list.map((nv) => nv.id);
    expect(list.map(views.sideOf)).toEqual(['asked', 'received', 'asked', 'received', 'asked']);
    expect([ids[0], ids[2], ids[4]]).toEqual([first, second, elsewhere]);
    const partner = views.exchangesOf(list);
    expect(partner).toEqual({ [first]: ids[1], [ids[1]]: first, [second]: ids[3], [ids[3]]: second });

    const asked = views.nameVerificationItem(list[0], partner[first]);
    expect(asked).toContain(`data-side="asked" data-exchange="${first}"`);
    expect(asked).toContain(
      `<span class="side asked">asked</span> <span class="muted">requester's side</span> 400300 27182818 "Grace Hoper": answer <span class="answer">rejected MBAM (the name is a close match to the account name): Grace Hopper</span>`,
    );
    expect(asked).toContain(`<a class="exchange" href="#nv-${ids[1]}">its received side</a>`);
    const received = views.nameVerificationItem(list[1], partner[ids[1]!]);
    expect(received).toContain(`data-side="received" data-exchange="${first}"`);
    expect(received).toContain(
      `<span class="side received">received</span> <span class="muted">payee bank's side</span> 400300 27182818 "Grace Hoper": from Northwind Bank plc, answered <span class="answer">rejected MBAM`,
    );
    expect(received).toContain(`<a class="exchange" href="#nv-${first}">its asked side</a>`);
    // Harbour received that one: Northwind's list holds one side, linked to nothing.
    expect(views.nameVerificationItem(list[4], partner[elsewhere])).not.toContain('class="exchange"');
  });

  it("pairs a slow responder's late answer with its own request, not an older look-alike", async () => {
    await play('name_verification.responder_slow', { seconds: 30 });
    const late = await ask('Grace Hoper'); // answered 30 s of scheme time later
    const prompt = await ask('Grace Hoper'); // answered at once
    rt.sim.scheduler.advanceTo(new Date('2026-12-21T09:00:30.000Z'));
    const list = await listed();
    const ids = list.map((nv) => nv.id);
    // Created: the late one's request, the prompt one's, its received side, then the late answer.
    expect([ids[0], ids[1]]).toEqual([late, prompt]);
    expect(list.map(views.sideOf)).toEqual(['asked', 'asked', 'received', 'received']);
    expect(views.exchangesOf(list)).toEqual({ [prompt]: ids[2], [ids[2]]: prompt, [late]: ids[3], [ids[3]]: late });
  });

  it('pairs a failed exchange, and keeps apart answers that differ', async () => {
    await play('name_verification.responder_failed', { reason: 'down for maintenance' });
    const failed = await ask('Grace Hopper');
    const matched = await ask('Grace Hopper');
    const list = await listed();
    const ids = list.map((nv) => nv.id);
    expect(views.exchangesOf(list)).toEqual({
      [failed]: ids[1],
      [ids[1]]: failed,
      [matched]: ids[3],
      [ids[3]]: matched,
    });
    expect(views.nameVerificationItem(list[1], failed)).toContain(
      '<span class="answer">failed: Northwind Bank plc (0015800001041REAAY) did not answer: down for maintenance</span>',
    );
    expect(views.nameVerificationItem(list[2], ids[3])).toContain('answer <span class="answer">confirmed</span>');
  });

  it('shows a request awaiting its answer as asked', async () => {
    await play('name_verification.responder_slow', { seconds: 30 });
    await ask('Grace Hopper');
    const [waiting] = await listed();
    expect(views.nameVerificationItem(waiting, undefined)).toContain(
      '<span class="side asked">asked</span> <span class="muted">requester\'s side</span> 400300 27182818 "Grace Hopper": answer <span class="answer">awaiting the answer</span>',
    );
  });
});

describe('an account row', () => {
  it('shows the id, name and alternative names, sort code, number, organisation and created time, escaped', async () => {
    const body = accountBody(NORTHWIND.organisation_id, 'Ada <Lovelace>', '31415926');
    (body.data.attributes as Record<string, unknown>).alternative_names = ['Ada King'];
    const created = await json(await rt.call('POST', '/v1/organisation/accounts', body));
    const row = views.table(views.ACCOUNT_HEADINGS, [views.accountRow(created.data)]);
    expect(row).toContain(
      '<th>sort code (bank_id)</th><th>account number</th><th>organisation</th><th>created (scheme time)</th>',
    );
    expect(row).toContain(
      `<tr class="account" data-account="${created.data.id}"><td><span class="id">${created.data.id}</span></td>`,
    );
    expect(row).toContain('<td class="names">Ada &#60;Lovelace&#62;<br><span class="muted">also Ada King</span></td>');
    expect(row).toContain('<td class="bank-id"><span class="ts">400300</span> <span class="muted">GBDSC</span></td>');
    expect(row).toContain('<td class="number"><span class="ts">31415926</span></td>');
    expect(row).toContain(`<td><span class="id">${NORTHWIND.organisation_id}</span></td>`);
    expect(row).toContain('<td class="created"><time datetime="2026-12-21T09:00:00.000Z">');
  });
});

describe('a request row', () => {
  it('shows the wall time and the scheme time it arrived at, each under its own heading', async () => {
    rt.sim.clock.setTo(new Date('2027-01-04T12:00:00.000Z'));
    await rt.call('GET', '/v1/organisation/accounts');
    const [entry] = (await json(await rt.call('GET', '/v1/simulator/requests'))).data;
    const html = views.table(views.REQUEST_HEADINGS, [views.requestRow(entry)]);
    expect(html).toContain('<tr><th>wall time</th><th>scheme time</th><th>request</th>');
    expect(html).toContain(
      '<td class="wall"><time datetime="2026-12-21T09:00:00.000Z">2026-12-21T09:00:00.000Z</time></td>' +
        '<td class="scheme"><time datetime="2027-01-04T12:00:00.000Z">2027-01-04T12:00:00.000Z</time></td>' +
        '<td>GET /v1/organisation/accounts</td><td>200</td>',
    );
  });
});
