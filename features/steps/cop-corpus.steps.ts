// The corpus cases of fixtures/cop/cases.json on any target: the case's account registered by the
// harness under the target's sort code and BIC, asked of the target's participant, removed after
// the scenario (world.afterwards, run by hooks.ts whatever the outcome).
import { randomInt, randomUUID } from 'node:crypto';
import { Given, Then, When } from '@cucumber/cucumber';
import { type CopCase, loadCorpus, materialise } from '../../src/harness/cop-corpus.ts';
import { expectSame } from '../support/divergence.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { readSettings } from '../support/settings.ts';
import type { SimWorld } from '../support/world.ts';

const corpus = loadCorpus();
const byId = new Map(corpus.cases.map((c) => [c.id, c]));

function copCase(id: string): CopCase {
  const c = byId.get(id);
  if (!c) throw new Error(`no case "${id}" in fixtures/cop/cases.json`);
  return c;
}

/** How long a registered account may take to be answered for (CONFORMANCE_COP_WAIT_SECONDS, default 30). */
function answerableWithinMs(): number {
  const seconds = Number(readSettings().CONFORMANCE_COP_WAIT_SECONDS ?? 30);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error('CONFORMANCE_COP_WAIT_SECONDS must be a number of seconds');
  return seconds * 1000;
}

/** An account number nobody holds at the target's sort code (a long-lived target keeps other accounts). */
async function freshAccountNumber(world: SimWorld): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const number = String(randomInt(10_000_000, 100_000_000));
    const found = await world.send(
      'GET',
      `/v1/organisation/accounts?filter[bank_id]=${world.vars.sort_code}&filter[account_number]=${number}`,
    );
    if (found.status !== 200)
      throw new Error(`listing accounts at ${world.vars.sort_code}: ${found.status} ${found.text.slice(0, 300)}`);
    if (((found.json as { data?: unknown[] }).data ?? []).length === 0) return number;
  }
  throw new Error(`five account numbers drawn at ${world.vars.sort_code} were all held already`);
}

/** The case's request, addressed to the account the scenario registered (or, SCNS, to the case's own). */
function requestOf(world: SimWorld, c: CopCase): string {
  const bank = { sort_code: world.vars.sort_code!, bic: world.vars.bic! };
  const { body } = materialise(corpus, c, world.vars.cop_case_number!, bank);
  // An AC01 case names a number at the corpus's sort code; here, the fresh one at the target's.
  if (c.account === null && c.expected.ReasonCode === 'AC01')
    body.Data.Identification = `${bank.sort_code}${world.vars.cop_case_number}`;
  return JSON.stringify(body);
}

Given('the account of CoP case {string} is registered on the target', async function (this: SimWorld, id: string) {
  const c = copCase(id);
  this.vars.cop_case_number = await freshAccountNumber(this);
  const bank = { sort_code: this.vars.sort_code!, bic: this.vars.bic! };
  const { attributes } = materialise(corpus, c, this.vars.cop_case_number, bank);
  if (!attributes) return;
  const res = await this.send('POST', '/v1/organisation/accounts', {
    body: JSON.stringify({
      data: { id: randomUUID(), type: 'accounts', organisation_id: this.vars.organisation_id, attributes },
    }),
  });
  if (res.status !== 201)
    throw new Error(`registering the account of ${id}: ${res.status} ${res.text.slice(0, 300)}${this.exchange}`);
});

When('the target is asked to verify the name of CoP case {string}', async function (this: SimWorld, id: string) {
  const c = copCase(id);
  const ask = () =>
    this.send('POST', `/v1/participants/${this.vars.cop_participant}/open-banking/v3.1/accounts/name-verification`, {
      headers: { 'x-fapi-financial-id': this.vars.cop_participant!, 'x-fapi-interaction-id': randomUUID() },
      body: requestOf(this, c),
    });
  let res = await ask();
  // A target may take a while to answer for an account just registered: until then it says AC01.
  const deadline = Date.now() + answerableWithinMs();
  for (let pause = 100; c.account !== null && unknownAccount(res.json) && Date.now() < deadline; pause *= 2) {
    await new Promise((r) => setTimeout(r, Math.min(pause, 2000, Math.max(0, deadline - Date.now()))));
    res = await ask();
  }
});

function unknownAccount(json: unknown): boolean {
  return (
    (json as { Data?: { VerificationReport?: { ReasonCode?: string } } })?.Data?.VerificationReport?.ReasonCode ===
    'AC01'
  );
}

Then('the target answers as CoP case {string} expects', async function (this: SimWorld, id: string) {
  const c = copCase(id);
  if (this.response.status !== 200)
    throw new Error(`${id}: expected status 200, got ${this.response.status}${this.exchange}`);
  assertMatchesSchema('name-verification-response', this.response.json);
  const report = (this.response.json as { Data: { VerificationReport: Record<string, unknown> } }).Data
    .VerificationReport;
  // Matched, ReasonCode and Name, exactly; a field the target adds beyond them is not the corpus's business.
  const answered = Object.fromEntries(
    (['Matched', 'ReasonCode', 'Name'] as const).filter((k) => k in report).map((k) => [k, report[k]]),
  );
  await expectSame(this, id, c.expected, answered, c.reason);
});
