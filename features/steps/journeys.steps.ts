// Journeys (scenarios tagged @journey) run one stage a day across harness runs: see
// features/support/journeys.ts and docs/conformance.md. Each stage step names its day; a stage not
// yet due saves the journey and skips the rest of the scenario until a later run.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Given, Then, When } from '@cucumber/cucumber';
import { expectSame } from '../support/divergence.ts';
import { dueDate, type JourneyInstance, JourneyLedger, ledgerPath, schemeToday } from '../support/journeys.ts';
import { sandboxInUse } from '../support/sandbox.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { readSettings } from '../support/settings.ts';
import { pick, type SimWorld } from '../support/world.ts';

interface JourneyState {
  ledger: JourneyLedger;
  instance: JourneyInstance;
  today: string;
}

function journeyOf(world: SimWorld): JourneyState {
  const j = world.state.journey as JourneyState | undefined;
  if (!j) throw new Error('a journey stage needs "Given the journey <name>" first');
  return j;
}

Given('the journey {string}', async function (this: SimWorld, name: string) {
  if (sandboxInUse()?.created) {
    this.log(
      `skipped: a journey spans runs, and the sandbox made for this run (CONFORMANCE_SANDBOX=new) is deleted at its end; run journeys in a sandbox kept between runs (CONFORMANCE_SANDBOX=<id>)`,
    );
    return 'skipped';
  }
  const settings = readSettings();
  const ledger = new JourneyLedger(ledgerPath(settings));
  const today = schemeToday(settings);
  // A journey in a sandbox (CONFORMANCE_SANDBOX=<id>) is that sandbox's: keyed by its address.
  const where = {
    base_url: sandboxInUse()?.address ?? this.target.baseUrl,
    organisation_id: this.vars.organisation_id!,
  };
  const choice = ledger.choose(name, where, today, randomUUID);
  if ('wait' in choice) {
    const w = choice.wait.waiting;
    await this.attach(
      `journey "${name}" ${choice.wait.id} waits${w ? ` for day ${w.day}, due ${w.due}` : ''}; today is ${today}`,
      'text/plain',
    );
    return 'skipped';
  }
  const instance = 'resume' in choice ? choice.resume : choice.start;
  Object.assign(this.vars, instance.vars);
  this.state.journey = { ledger, instance, today } satisfies JourneyState;
  ledger.save();
  await this.attach(
    `journey "${name}" ${instance.id}: ${'resume' in choice ? 'resumed' : 'started'} on ${today} (day 0 was ${instance.started_on}); ledger ${ledger.file}`,
    'text/plain',
  );
  return undefined;
});

/** Runs the stage of `day` once it is due, once; saves the journey after it, or when it must wait. */
async function stage(world: SimWorld, day: number, run: () => Promise<void>): Promise<'skipped' | undefined> {
  const { ledger, instance, today } = journeyOf(world);
  if (instance.done[String(day)]) return undefined; // done in an earlier run
  const due = dueDate(instance, day);
  if (due > today) {
    instance.waiting = { day, due };
    instance.vars = { ...world.vars };
    ledger.save();
    await world.attach(
      `day ${day} is due on ${due}; today is ${today}: the journey waits for a later run`,
      'text/plain',
    );
    return 'skipped';
  }
  try {
    await run();
  } catch (err) {
    instance.status = 'failed';
    instance.failure = `day ${day}: ${(err as Error).message.split('\n')[0]}`;
    ledger.save();
    throw err;
  }
  instance.done[String(day)] = today;
  instance.waiting = undefined;
  instance.vars = { ...world.vars };
  ledger.save();
  return undefined;
}

async function get(world: SimWorld, path: string): Promise<unknown> {
  const res = await world.send('GET', path);
  assert.equal(res.status, 200, `GET ${world.interpolate(path)}: expected 200, got ${res.status}${world.exchange}`);
  return res.json;
}

/** Creates and submits a claim (201 each), the attributes overridden by `overrides`; remembers its ids. */
async function createAndSubmit(world: SimWorld, name: string, overrides: Record<string, unknown> = {}): Promise<void> {
  const id = randomUUID();
  const reference = `DDIC${id.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
  const created = await world.send('POST', '/v1/transaction/claims', {
    body: JSON.stringify({
      data: {
        id,
        organisation_id: world.vars.organisation_id,
        type: 'claims',
        attributes: {
          payment_scheme: 'BACS',
          clearing_id: '123456',
          reference,
          reason_code: '2',
          number_of_claims: 1,
          beneficiary_party: { account_number: '41426819', bank_id: world.vars.sort_code },
          debtor_party: { account_name: 'Acme Utilities', account_number: '87654321', bank_id: '203040' },
          original_instruction: { clearing_id: '654321', reference: 'ACME-000123' },
          disputed_transactions: [{ amount: '25.00', date: '2026-10-01' }],
          ...overrides,
        },
      },
    }),
  });
  assert.equal(created.status, 201, `creating the claim: expected 201, got ${created.status}${world.exchange}`);
  world.vars[name] = id;
  world.vars[`${name}_reference`] = reference;
  const sid = randomUUID();
  const submitted = await world.send('POST', `/v1/transaction/claims/${id}/submissions`, {
    body: JSON.stringify({ data: { id: sid, organisation_id: world.vars.organisation_id, type: 'claim_submissions' } }),
  });
  assert.equal(submitted.status, 201, `submitting the claim: expected 201, got ${submitted.status}${world.exchange}`);
  world.vars[`${name}_submission`] = sid;
}

When(
  'on journey day {int} a claim {string} is created and submitted',
  async function (this: SimWorld, day: number, name: string) {
    return stage(this, day, () => createAndSubmit(this, name));
  },
);

// A claim Form3 accepts at the API but the scheme's rules refuse: the refusal comes when the
// submission is validated, asynchronously, so the journey looks on the next run.
When(
  /^on journey day (\d+) a claim "([^"]*)" with attributes (\{.*\}) is created and submitted$/,
  async function (this: SimWorld, day: string, name: string, overrides: string) {
    return stage(this, Number(day), () =>
      createAndSubmit(this, name, JSON.parse(overrides) as Record<string, unknown>),
    );
  },
);

Then(
  'on journey day {int} the submission of claim {string} has failed validation naming {string}',
  async function (this: SimWorld, day: number, name: string, rule: string) {
    return stage(this, day, async () => {
      const json = await get(this, submissionPath(name));
      assertMatchesSchema('claim-submission-single', json);
      const kase = `claim ${this.vars[name]} (${rule}): submission status a day after`;
      await expectSame(this, kase, 'validation_failed', pick(json, 'data.attributes.status'));
      const why = pick(json, 'data.attributes.status_reason');
      assert.equal(typeof why, 'string', `a failed validation gives its status_reason${this.exchange}`);
      // The rule's wording is the simulator's own: on staging only that a reason is given.
      if (this.target.name !== 'staging')
        assert.ok(
          (why as string).includes(rule),
          `status_reason ${JSON.stringify(why)} should name ${JSON.stringify(rule)}`,
        );
    });
  },
);

const submissionPath = (name: string) => `/v1/transaction/claims/{{${name}}}/submissions/{{${name}_submission}}`;

Then(
  'on journey day {int} the submission of claim {string} has its sequence number',
  async function (this: SimWorld, day: number, name: string) {
    return stage(this, day, async () => {
      const sub = await get(this, submissionPath(name));
      assertMatchesSchema('claim-submission-single', sub);
      const sequence = pick(sub, 'data.attributes.sequence_number');
      assert.match(String(sequence), /^\d+$/, `the submission has a sequence number${this.exchange}`);
      this.vars[`${name}_sequence_number`] = String(sequence);
    });
  },
);

Then(
  'on journey day {int} the submission of claim {string} has been delivered',
  async function (this: SimWorld, day: number, name: string) {
    return stage(this, day, async () => {
      const sub = await get(this, submissionPath(name));
      const status = pick(sub, 'data.attributes.status');
      // Delivered to the originator; settlement changes the claim, not this status.
      assert.equal(status, 'delivery_confirmed', `the submission is delivery_confirmed${this.exchange}`);
    });
  },
);

Then(
  'on journey day {int} claim {string} is settled by a contra payment with its admission',
  async function (this: SimWorld, day: number, name: string) {
    return stage(this, day, async () => {
      const claim = await get(this, `/v1/transaction/claims/${this.vars[name]}`);
      const paymentId = pick(claim, 'data.relationships.payment.data.0.id');
      assert.equal(typeof paymentId, 'string', `the claim names its contra payment${this.exchange}`);
      const payment = await get(this, `/v1/transaction/payments/${paymentId}`);
      assertMatchesSchema('payment-single', payment);
      assert.equal(pick(payment, 'data.attributes.scheme_payment_sub_type'), 'DDICSettlement');
      const claims = (pick(payment, 'data.relationships.claims.data') ?? []) as Array<{ id: string }>;
      assert.ok(
        claims.some((c) => c.id === this.vars[name]),
        `the contra lists claim ${this.vars[name]}`,
      );
      const admissionId = pick(payment, 'data.relationships.payment_admission.data.0.id');
      const admission = await get(this, `/v1/transaction/payments/${paymentId}/admissions/${admissionId}`);
      assertMatchesSchema('payment-admission-single', admission);
      this.vars[`${name}_contra`] = String(paymentId);
    });
  },
);

Then('the journey is complete', async function (this: SimWorld) {
  const { ledger, instance } = journeyOf(this);
  instance.status = 'complete';
  ledger.save();
});
