// Name verification against the target's known account ({{cop_account}} at {{cop_participant}},
// held name {{cop_name}}; staging: CONFORMANCE_COP_*), asked in the ways a payer might ask.
import { randomUUID } from 'node:crypto';
import { Given, When } from '@cucumber/cucumber';
import type { SimWorld } from '../support/world.ts';

/** The held name with one letter dropped from its longest word: a typo a payer makes. */
export function typoOf(name: string): string {
  const words = name.split(' ');
  const longest = words.reduce((at, w, i) => (w.length > words[at]!.length ? i : at), 0);
  const w = words[longest]!;
  words[longest] = w.slice(0, -2) + w.slice(-1);
  return words.join(' ');
}

const ASKED: Record<string, (w: SimWorld) => string> = {
  'its held name': (w) => w.vars.cop_name!,
  'a typo of its name': (w) => typoOf(w.vars.cop_name!),
  'an unrelated name': () => 'Quentin Zebedee-Featherstonehaugh',
};

async function verify(world: SimWorld, identification: string, name: string): Promise<void> {
  await world.send(
    'POST',
    `/v1/participants/${world.vars.cop_participant}/open-banking/v3.1/accounts/name-verification`,
    {
      headers: { 'x-fapi-financial-id': world.vars.cop_participant!, 'x-fapi-interaction-id': randomUUID() },
      body: JSON.stringify({
        Data: {
          SchemeName: 'SortCodeAccountNumber',
          AccountType: world.vars.cop_type,
          Identification: identification,
          Name: name,
        },
      }),
    },
  );
}

When('I verify the known CoP account with {string}', async function (this: SimWorld, asked: string) {
  const name = ASKED[asked];
  if (!name) throw new Error(`ask with one of: ${Object.keys(ASKED).join(', ')}`);
  await verify(this, this.vars.cop_account!, name(this));
});

When(
  'I verify an account number that does not exist at the known CoP account’s sort code',
  async function (this: SimWorld) {
    // The known account's number with its digits reversed and its last one changed: not the account itself.
    const account = this.vars.cop_account!;
    const number = account.slice(6).split('').reverse().join('');
    const other = `${number.slice(0, 7)}${(Number(number[7]) + 5) % 10}`;
    await verify(this, `${account.slice(0, 6)}${other}`, this.vars.cop_name!);
  },
);

/**
 * Staging's known account exists already. A simulator's is a seed account, which a simulator
 * started with --no-seed (or in process) lacks: it is registered there, once.
 */
Given('the known CoP account is registered', async function (this: SimWorld) {
  if (this.target.name === 'staging') return;
  const account = this.vars.cop_account!;
  const [bank_id, account_number] = [account.slice(0, 6), account.slice(6)];
  const found = await this.send(
    'GET',
    `/v1/organisation/accounts?filter[bank_id]=${bank_id}&filter[account_number]=${account_number}`,
  );
  if (((found.json as { data?: unknown[] }).data ?? []).length > 0) return;
  const res = await this.send('POST', '/v1/organisation/accounts', {
    body: JSON.stringify({
      data: {
        id: randomUUID(),
        organisation_id: this.vars.organisation_id,
        type: 'accounts',
        attributes: {
          country: 'GB',
          bank_id,
          bank_id_code: 'GBDSC',
          bic: this.vars.bic,
          account_number,
          name: [this.vars.cop_name],
          account_classification: this.vars.cop_type,
        },
      },
    }),
  });
  if (res.status !== 201) throw new Error(`registering the known CoP account: ${res.status} ${res.text}`);
});
