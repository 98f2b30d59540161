// DDIC claims: shortcuts for the steps a claim scenario repeats. Each remembers what it created
// under the claim's name: {{<name>}} (claim id), {{<name>_submission}},
// {{<name>_reversal}}, {{<name>_reversal_submission}}, {{<name>_contra}}, {{<name>_contra_admission}}.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Given, Then, When } from '@cucumber/cucumber';
import { claimAttributes } from '../../src/harness/claim-attributes.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { pick, type SimWorld } from '../support/world.ts';

function claimBody(world: SimWorld, id: string, amounts: string[], reference: string): string {
  return JSON.stringify({
    data: {
      id,
      organisation_id: world.vars.organisation_id,
      type: 'claims',
      version: 0,
      // The beneficiary is the harness's own organisation, on any target (its CONFORMANCE_SORT_CODE).
      attributes: claimAttributes(
        amounts,
        {
          reference,
          reason_code: '2',
          beneficiary_party: { account_number: '41426819', bank_id: world.vars.sort_code! },
        },
        '2026-10-01',
      ),
    },
  });
}

async function expectStatus(
  world: SimWorld,
  method: string,
  path: string,
  status: number,
  body?: string,
): Promise<unknown> {
  const res = await world.send(method, path, body === undefined ? {} : { body });
  assert.equal(
    res.status,
    status,
    `${method} ${path}: expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`,
  );
  return res.json;
}

/** The claim's submission as read now (200 expected). */
function readSubmission(world: SimWorld, name: string): Promise<unknown> {
  return expectStatus(world, 'GET', `/v1/transaction/claims/{{${name}}}/submissions/{{${name}_submission}}`, 200);
}

async function submitClaim(world: SimWorld, name: string): Promise<void> {
  const id = randomUUID();
  const body = JSON.stringify({
    data: { id, organisation_id: world.vars.organisation_id, type: 'claim_submissions', version: 0 },
  });
  await world.send('POST', `/v1/transaction/claims/{{${name}}}/submissions`, { body });
  if (world.response.status === 201) world.vars[`${name}_submission`] = id;
}

/** Creates a valid reason-2 claim disputing comma-separated amounts; remembers {{<name>}} and {{<name>_reference}}. */
async function createClaim(world: SimWorld, name: string, amounts: string): Promise<void> {
  const id = randomUUID();
  const reference = `DDIC${id.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
  await expectStatus(
    world,
    'POST',
    '/v1/transaction/claims',
    201,
    claimBody(world, id, amounts.split(/\s*,\s*/), reference),
  );
  world.vars[name] = id;
  world.vars[`${name}_reference`] = reference;
}

/** Creates a claim with the valid attributes but those of the JSON object given (`{{var}}` allowed). */
async function createClaimWith(world: SimWorld, name: string, overrides: string): Promise<void> {
  const id = randomUUID();
  const attributes = {
    ...claimAttributes(
      ['10.00'],
      { reason_code: '2', beneficiary_party: { account_number: '41426819', bank_id: world.vars.sort_code! } },
      '2026-10-01',
    ),
    ...(JSON.parse(world.interpolate(overrides)) as Record<string, unknown>),
  };
  const body = JSON.stringify({
    data: { id, organisation_id: world.vars.organisation_id, type: 'claims', attributes },
  });
  await expectStatus(world, 'POST', '/v1/transaction/claims', 201, body);
  world.vars[name] = id;
}

Given(
  /^a submitted claim "([^"]*)" with attributes (\{.*\})$/,
  async function (this: SimWorld, name: string, overrides: string) {
    await createClaimWith(this, name, overrides);
    await submitClaim(this, name);
    assert.equal(this.response.status, 201, `submission failed: ${this.response.text}`);
  },
);

Then(
  'the submission of claim {string} failed with {string} naming {string}',
  async function (this: SimWorld, name: string, status: string, reason: string) {
    const json = await readSubmission(this, name);
    assertMatchesSchema('claim-submission-single', json);
    assert.equal(pick(json, 'data.attributes.status'), status);
    const why = String(pick(json, 'data.attributes.status_reason'));
    assert.ok(why.includes(reason), `status_reason ${JSON.stringify(why)} should name ${JSON.stringify(reason)}`);
  },
);

Then('claim {string} has no contra', async function (this: SimWorld, name: string) {
  const claim = await expectStatus(this, 'GET', `/v1/transaction/claims/{{${name}}}`, 200);
  assert.equal(pick(claim, 'data.relationships.payment'), undefined, `claim ${name} was settled${this.exchange}`);
});

Given('a claim {string} disputing {string}', async function (this: SimWorld, name: string, amounts: string) {
  await createClaim(this, name, amounts);
});

Given('a submitted claim {string} disputing {string}', async function (this: SimWorld, name: string, amounts: string) {
  await createClaim(this, name, amounts);
  await submitClaim(this, name);
  assert.equal(this.response.status, 201, `submission failed: ${this.response.text}`);
});

When('I submit the claim {string}', async function (this: SimWorld, name: string) {
  await submitClaim(this, name);
});

Then(
  'the submission of claim {string} has status {string}',
  async function (this: SimWorld, name: string, status: string) {
    const json = await readSubmission(this, name);
    assertMatchesSchema('claim-submission-single', json);
    assert.equal(pick(json, 'data.attributes.status'), status);
  },
);

Then(
  'I remember the sequence number of claim {string} as {string}',
  async function (this: SimWorld, name: string, as: string) {
    const json = await readSubmission(this, name);
    const sequence = pick(json, 'data.attributes.sequence_number');
    assert.equal(
      typeof sequence,
      'string',
      `the submission of claim ${name} has no sequence number yet${this.exchange}`,
    );
    this.vars[as] = sequence as string;
  },
);

When(
  'I reverse the claim {string} quoting {string}',
  async function (this: SimWorld, name: string, originalInstructionId: string) {
    const id = randomUUID();
    const body = JSON.stringify({
      data: {
        id,
        organisation_id: this.vars.organisation_id,
        type: 'claim_reversals',
        attributes: { original_instruction_id: this.interpolate(originalInstructionId) },
      },
    });
    await this.send('POST', `/v1/transaction/claims/{{${name}}}/reversals`, { body });
    if (this.response.status !== 201) return;
    this.vars[`${name}_reversal`] = id;
    const sid = randomUUID();
    const subBody = JSON.stringify({
      data: { id: sid, organisation_id: this.vars.organisation_id, type: 'claim_reversal_submissions' },
    });
    await this.send('POST', `/v1/transaction/claims/{{${name}}}/reversals/${id}/submissions`, { body: subBody });
    if (this.response.status === 201) this.vars[`${name}_reversal_submission`] = sid;
  },
);

Then(
  'the reversal submission of claim {string} has status {string}',
  async function (this: SimWorld, name: string, status: string) {
    const path = `/v1/transaction/claims/{{${name}}}/reversals/{{${name}_reversal}}/submissions/{{${name}_reversal_submission}}`;
    const json = await expectStatus(this, 'GET', path, 200);
    assertMatchesSchema('claim-reversal-submission-single', json);
    assert.equal(pick(json, 'data.attributes.status'), status);
  },
);

Then(
  'claim {string} was settled by a contra of {string}',
  async function (this: SimWorld, name: string, amount: string) {
    const sub = await readSubmission(this, name);
    // Form3's enum has no settled status: the submission stays delivered, the claim names its contra.
    assert.equal(pick(sub, 'data.attributes.status'), 'delivery_confirmed');
    const claim = await expectStatus(this, 'GET', `/v1/transaction/claims/{{${name}}}`, 200);
    assertMatchesSchema('claim-single', claim);
    const paymentId = pick(claim, 'data.relationships.payment.data.0.id');
    assert.equal(typeof paymentId, 'string', `the settled claim names its contra payment${this.exchange}`);
    const payment = await expectStatus(this, 'GET', `/v1/transaction/payments/${paymentId}`, 200);
    assertMatchesSchema('payment-single', payment);
    assert.equal(pick(payment, 'data.attributes.amount'), amount);
    assert.equal(pick(payment, 'data.attributes.scheme_payment_sub_type'), 'DDICSettlement');
    const claims = pick(payment, 'data.relationships.claims.data') as Array<{ id: string }>;
    assert.ok(
      claims.some((c) => c.id === this.vars[name]),
      `the contra lists claim ${this.vars[name]}`,
    );
    this.vars[`${name}_contra`] = paymentId as string;
    this.vars[`${name}_contra_admission`] = pick(payment, 'data.relationships.payment_admission.data.0.id') as string;
  },
);

Then('there is no contra payment', async function (this: SimWorld) {
  const list = await expectStatus(
    this,
    'GET',
    '/v1/transaction/payments?filter[scheme_payment_sub_type]=DDICSettlement',
    200,
  );
  assertMatchesSchema('payment-list', list);
  assert.deepEqual(pick(list, 'data'), []);
});
