import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { type DataTable, Given, Then, When } from '@cucumber/cucumber';
import { type CopCase, loadCorpus, materialise } from '../../src/harness/cop-corpus.ts';
import { requestSignature } from '../support/cop-signing.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import type { SimWorld } from '../support/world.ts';

// Steps of features/name_verification.feature: the corpus cases of fixtures/cop/cases.json.

const corpus = loadCorpus();
const byId = new Map(corpus.cases.map((c) => [c.id, c]));

function copCase(id: string): CopCase {
  const c = byId.get(id);
  if (!c) throw new Error(`no case "${id}" in fixtures/cop/cases.json`);
  return c;
}

/** A fresh account number per scenario, so a long-running simulator can take the corpus again. */
function accountNumberFor(world: SimWorld): string {
  world.vars.cop_account_number ??= String(randomInt(10_000_000, 90_000_000));
  return world.vars.cop_account_number;
}

Given('the account of CoP case {string} is registered', async function (this: SimWorld, id: string) {
  const { attributes } = materialise(corpus, copCase(id), accountNumberFor(this));
  if (!attributes) return;
  const res = await this.send('POST', '/v1/organisation/accounts', {
    body: JSON.stringify({
      data: { id: crypto.randomUUID(), type: 'accounts', organisation_id: corpus.organisation_id, attributes },
    }),
  });
  assert.equal(res.status, 201, `registering the account of ${id}: ${res.text.slice(0, 300)}`);
});

When('the participant is asked to verify the name of CoP case {string}', async function (this: SimWorld, id: string) {
  const { body } = materialise(corpus, copCase(id), accountNumberFor(this));
  await this.send('POST', `/v1/participants/${corpus.participant}/open-banking/v3.1/accounts/name-verification`, {
    body: JSON.stringify(body),
  });
});

Then('the verification report is what CoP case {string} expects', function (this: SimWorld, id: string) {
  const c = copCase(id);
  assert.equal(this.response.status, 200, this.response.text.slice(0, 300));
  assertMatchesSchema('name-verification-response', this.response.json);
  const report = (this.response.json as { Data: { VerificationReport: unknown } }).Data.VerificationReport;
  assert.deepEqual(report, c.expected, `${id}: ${c.reason}`);
});

Then('the response carries a generated x-fapi-interaction-id', function (this: SimWorld) {
  const id = this.response.headers.get('x-fapi-interaction-id') ?? '';
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `x-fapi-interaction-id: ${id}`);
});

// Gherkin gives a step one argument (a table or a doc string), so headers are set in a step of their own.
Given('the name verification request carries the headers:', function (this: SimWorld, table: DataTable) {
  const headers: Record<string, string> = {};
  for (const [k, v] of table.raw()) headers[k!] = this.interpolate(v ?? '');
  this.vars.cop_headers = JSON.stringify(headers);
});

When(
  'I send the name verification request to {string} with body:',
  async function (this: SimWorld, path: string, body: string) {
    const headers = JSON.parse(this.vars.cop_headers ?? '{}') as Record<string, string>;
    const text = this.interpolate(body);
    const signature = await requestSignature(this, text);
    if (signature !== undefined) headers['x-jws-signature'] = signature;
    await this.send('POST', path, { headers, body: text });
  },
);
