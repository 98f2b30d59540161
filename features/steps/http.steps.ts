// Generic steps: requests, statuses, fields, headers, schemas. Flow-specific steps live beside them.
import { randomUUID } from 'node:crypto';
import { type DataTable, Given, Then, When } from '@cucumber/cucumber';
import * as assert from '../support/assert.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { pick, type SimWorld } from '../support/world.ts';

Given('I am authenticated as {string}', function (this: SimWorld, client: string) {
  this.client = client;
  this.vars.organisation_id = this.organisationOf(client);
  // Accounts the scenario opens next use a sort code and BIC registered to this organisation.
  const bank = this.target.clients[client]?.bank;
  if (bank) {
    this.vars.sort_code = bank.sort_code;
    this.vars.bic = bank.bic;
  }
});

Given('I am not authenticated', function (this: SimWorld) {
  this.client = null;
});

Given('a new id remembered as {string}', function (this: SimWorld, name: string) {
  this.vars[name] = randomUUID();
});

Given('I remember {string} as {string}', function (this: SimWorld, value: string, name: string) {
  this.vars[name] = this.interpolate(value);
});

When('I send a {word} request to {string}', async function (this: SimWorld, method: string, path: string) {
  await this.send(method, path);
});

When(
  'I send a {word} request to {string} with body:',
  async function (this: SimWorld, method: string, path: string, body: string) {
    await this.send(method, path, { body: this.interpolate(body) });
  },
);

When(
  'I send a {word} request to {string} with headers:',
  async function (this: SimWorld, method: string, path: string, table: DataTable) {
    const headers: Record<string, string> = {};
    for (const [k, v] of table.raw()) headers[k!] = this.interpolate(v ?? '');
    await this.send(method, path, { headers });
  },
);

// Gherkin gives a step either a data table or a doc string, never both, so no scenario can match
// this step; use `requests carry the header {string} with {string}` followed by a step with a body.
When(
  'I send a {word} request to {string} with headers and body:',
  async function (this: SimWorld, method: string, path: string, table: DataTable, body: string) {
    const headers: Record<string, string> = {};
    for (const [k, v] of table.raw()) headers[k!] = this.interpolate(v ?? '');
    await this.send(method, path, { headers, body: this.interpolate(body) });
  },
);

Then('the response status is {int}', function (this: SimWorld, status: number) {
  assert.equal(this.response.status, status, `expected status ${status}, got ${this.response.status}${this.exchange}`);
});

Then('the response matches the {string} schema', function (this: SimWorld, schema: string) {
  try {
    assertMatchesSchema(schema, this.response.json);
  } catch (err) {
    assert.fail(`${(err as Error).message}${this.exchange}`);
  }
});

Then('the response field {string} equals {string}', function (this: SimWorld, path: string, expected: string) {
  const actual = pick(this.response.json, path);
  const want = this.interpolate(expected);
  assert.equal(
    typeof actual === 'string' ? actual : JSON.stringify(actual),
    want,
    `${path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(actual)}${this.exchange}`,
  );
});

Then('the response field {string} is one of {string}', function (this: SimWorld, path: string, list: string) {
  const v = pick(this.response.json, path);
  const allowed = this.interpolate(list).split(/\s*,\s*/);
  assert.ok(
    allowed.includes(typeof v === 'string' ? v : JSON.stringify(v)),
    `${path}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(v)}${this.exchange}`,
  );
});

Then('the response body is empty', function (this: SimWorld) {
  assert.equal(this.response.text, '', `expected no body${this.exchange}`);
});

Then('the response field {string} is absent', function (this: SimWorld, path: string) {
  assert.equal(
    pick(this.response.json, path),
    undefined,
    `${path} should be absent, got ${JSON.stringify(pick(this.response.json, path))}${this.exchange}`,
  );
});

Then('the response field {string} contains {string}', function (this: SimWorld, path: string, expected: string) {
  const actual = pick(this.response.json, path);
  assert.ok(
    String(typeof actual === 'string' ? actual : JSON.stringify(actual)).includes(this.interpolate(expected)),
    `${path}: expected to contain ${JSON.stringify(this.interpolate(expected))}, got ${JSON.stringify(actual)}${this.exchange}`,
  );
});

Then('the response field {string} has {int} item(s)', function (this: SimWorld, path: string, n: number) {
  const actual = pick(this.response.json, path);
  assert.ok(Array.isArray(actual), `${path}: expected an array of ${n}, got ${JSON.stringify(actual)}${this.exchange}`);
  assert.equal(actual.length, n, `${path}: expected ${n} items, got ${actual.length}${this.exchange}`);
});

Then('the response header {string} is {string}', function (this: SimWorld, name: string, value: string) {
  const want = this.interpolate(value);
  assert.equal(
    this.response.headers.get(name),
    want,
    `header ${name}: expected ${JSON.stringify(want)}, got ${JSON.stringify(this.response.headers.get(name))}${this.exchange}`,
  );
});

Then('the response header {string} contains {string}', function (this: SimWorld, name: string, value: string) {
  assert.ok(
    (this.response.headers.get(name) ?? '').includes(this.interpolate(value)),
    `header ${name}: expected to contain ${JSON.stringify(this.interpolate(value))}, got ${JSON.stringify(this.response.headers.get(name))}${this.exchange}`,
  );
});

/**
 * The simulator's wording is its own: against staging this checks what Form3 promises, an error
 * body with a non-empty error_message (error_code is optional in the spec), and not the words.
 * Against the simulator it checks the words and the error_code it gives under Form3's rules (with
 * `--auth off` the fake account API's body is error_message alone, docs/api.md).
 */
Then('the error message contains {string}', function (this: SimWorld, text: string) {
  assertMatchesSchema('error', this.response.json);
  const body = this.response.json as { error_message: string; error_code?: string };
  if (this.target.name === 'staging') return;
  if (this.openedWith.auth === 'off')
    assert.ok(body.error_code === undefined, `error_code: not the fake API's${this.exchange}`);
  else assert.ok(body.error_code, `error_code: expected the simulator to give one${this.exchange}`);
  const want = this.interpolate(text);
  assert.ok(
    body.error_message.includes(want),
    `error_message: expected to contain ${JSON.stringify(want)}, got ${JSON.stringify(body.error_message)}${this.exchange}`,
  );
});

Then('I remember the response field {string} as {string}', function (this: SimWorld, path: string, name: string) {
  const v = pick(this.response.json, path);
  assert.ok(v !== undefined && v !== null, `${path} is absent${this.exchange}`);
  this.vars[name] = typeof v === 'string' ? v : JSON.stringify(v);
});

Then('the response field {string} equals the response field {string}', function (this: SimWorld, a: string, b: string) {
  const json = this.response.json;
  assert.deepEqual(pick(json, a), pick(json, b), `${a} and ${b} differ${this.exchange}`);
});

Given(
  'I remember the upper-case form of {string} as {string}',
  function (this: SimWorld, source: string, name: string) {
    this.vars[name] = this.interpolate(`{{${source}}}`).toUpperCase();
  },
);

Given('requests carry the header {string} with {string}', function (this: SimWorld, name: string, value: string) {
  this.headers[name.toLowerCase()] = this.interpolate(value);
});
