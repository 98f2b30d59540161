// Account steps: a valid account built for you, with the parts a scenario wants changed.
// JSON in step text is merged into the valid body; a value of "$omit" removes that key.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Given, Then, When } from '@cucumber/cucumber';
import { bodyOf, type MalformedRequest, OMIT, validAttributes } from '../../src/harness/malformed-account-requests.ts';
import { gbIban, hasValidCheckDigits } from '../../src/index.ts';
import { pick, type SimWorld } from '../support/world.ts';

const ACCOUNTS = '/v1/organisation/accounts';

function parseObject(world: SimWorld, text: string): Record<string, unknown> {
  const value = JSON.parse(world.interpolate(text)) as unknown;
  assert.ok(value && typeof value === 'object' && !Array.isArray(value), `expected a JSON object, got ${text}`);
  return value as Record<string, unknown>;
}

function build(world: SimWorld, row: Partial<MalformedRequest> & Pick<MalformedRequest, 'method'>): string {
  // A create is valid but for what the row changes, at the target's own sort code and BIC.
  const attributes =
    row.method === 'POST' ? { bank_id: world.vars.sort_code, bic: world.vars.bic, ...row.attributes } : row.attributes;
  const body = bodyOf(
    { label: '', path: '', status: 0, message: '', ...row, ...(attributes ? { attributes } : {}) },
    { id: randomUUID(), organisation_id: world.vars.organisation_id! },
  );
  assert.ok(body !== undefined);
  return body;
}

/** A random GB account number, so sort code + account number stay unique on a target shared by many runs. */
function freshAccountNumber(): string {
  return String(Math.floor(10_000_000 + Math.random() * 89_999_999));
}

async function createAccount(world: SimWorld, name: string, extra: Record<string, unknown>): Promise<void> {
  const id = randomUUID();
  const attributes = {
    ...validAttributes(),
    bank_id: world.vars.sort_code,
    bic: world.vars.bic,
    account_number: freshAccountNumber(),
    ...extra,
  };
  // "$omit" removes a key of the valid account (a French account has no sort code or GB BIC).
  for (const [k, v] of Object.entries(attributes)) if (v === OMIT) delete (attributes as Record<string, unknown>)[k];
  const res = await world.send('POST', ACCOUNTS, {
    body: JSON.stringify({ data: { id, organisation_id: world.vars.organisation_id, type: 'accounts', attributes } }),
  });
  assert.equal(res.status, 201, `creating the account failed: ${res.status} ${res.text}`);
  world.vars[name] = id;
  world.vars[`${name}_account_number`] = String(attributes.account_number);
}

/** Remembers the id as <name> and the account number as <name>_account_number. */
Given('an account exists remembered as {string}', async function (this: SimWorld, name: string) {
  await createAccount(this, name, {});
});

/** The same, with attributes merged into a valid GB account (a fresh account number unless given). */
Given(
  /^an account exists with attributes (\{.*\}) remembered as "([^"]*)"$/,
  async function (this: SimWorld, json: string, name: string) {
    await createAccount(this, name, parseObject(this, json));
  },
);

/** Also remembers <name>_iban: a GB IBAN of the target's BIC bank code and sort code, check digits right. */
Given('a new account number remembered as {string}', function (this: SimWorld, name: string) {
  const number = freshAccountNumber();
  this.vars[name] = number;
  this.vars[`${name}_iban`] = gbIban(this.vars.bic!.slice(0, 4), this.vars.sort_code!, number);
});

When(/^I create an account with attributes (\{.*\})$/, async function (this: SimWorld, json: string) {
  await this.send('POST', ACCOUNTS, { body: build(this, { method: 'POST', attributes: parseObject(this, json) }) });
});

When(/^I create an account with data (\{.*\})$/, async function (this: SimWorld, json: string) {
  await this.send('POST', ACCOUNTS, { body: build(this, { method: 'POST', data: parseObject(this, json) }) });
});

When(/^I patch the account "([^"]*)" with data (\{.*\})$/, async function (this: SimWorld, id: string, json: string) {
  await this.send('PATCH', `${ACCOUNTS}/${this.interpolate(id)}`, {
    body: build(this, { method: 'PATCH', data: parseObject(this, json) }),
  });
});

When(
  'I send a {word} request to {string} with content type {string} and body:',
  async function (this: SimWorld, method: string, path: string, type: string, body: string) {
    // "none" sends the body with no Content-Type header at all.
    const text = this.interpolate(body);
    await this.send(method, path, {
      contentType: type === 'none' ? null : type,
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: text }),
    });
  },
);

When(
  'I send a POST request to {string} with a JSON body of {int} bytes',
  async function (this: SimWorld, path: string, size: number) {
    const skeleton = '{"pad":""}';
    const body = `{"pad":"${'a'.repeat(Math.max(0, size - skeleton.length))}"}`;
    await this.send('POST', path, { body });
  },
);

/** An account number Form3 generated: 8 digits (GB). */
Then('the response field {string} is a GB account number', function (this: SimWorld, path: string) {
  const v = pick(this.response.json, path);
  assert.ok(
    typeof v === 'string' && /^[0-9]{8}$/.test(v),
    `${path} should be 8 digits, got ${JSON.stringify(v)}${this.exchange}`,
  );
});

/** A GB IBAN of the target's BIC bank code, sort code and the account's number, with valid check digits. */
Then(
  'the response field {string} is the GB IBAN of account number {string}',
  function (this: SimWorld, path: string, numberPath: string) {
    const iban = pick(this.response.json, path);
    const number = String(pick(this.response.json, numberPath));
    assert.equal(iban, gbIban(this.vars.bic!.slice(0, 4), this.vars.sort_code!, number), `${path}${this.exchange}`);
    assert.ok(hasValidCheckDigits(String(iban)));
  },
);
