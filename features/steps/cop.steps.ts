// Steps of features/name_verification.feature beyond the corpus (cop-corpus.steps.ts): headers, raw requests.
import assert from 'node:assert/strict';
import { type DataTable, Given, Then, When } from '@cucumber/cucumber';
import { requestSignature } from '../support/cop-signing.ts';
import type { SimWorld } from '../support/world.ts';

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
