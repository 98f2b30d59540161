// The scheme clock and the simulator controls. Scenarios using these are @simulator: staging has
// no clock to move. Steps that move the clock leave their answer as the last response; steps that
// only look (Then ...) keep the last response as it was.
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { LastResponse } from '../support/scenario.ts';
import type { SimWorld } from '../support/world.ts';

async function post(world: SimWorld, path: string, body?: Record<string, unknown>): Promise<LastResponse> {
  const res = await world.send('POST', path, body === undefined ? {} : { body: JSON.stringify(body) });
  assert.equal(res.status, 200, `POST ${path} failed: ${res.status} ${res.text}`);
  return res;
}

async function advance(world: SimWorld, body: Record<string, unknown>): Promise<void> {
  await post(world, '/v1/simulator/clock/advance', body);
}

/** Reads without disturbing `world.last`, so a Then after a When still sees the When's response. */
async function peek(world: SimWorld, path: string): Promise<any> {
  const last = world.last;
  try {
    const res = await world.send('GET', path);
    assert.equal(res.status, 200, `GET ${path} failed: ${res.status} ${res.text}`);
    return res.json;
  } finally {
    world.last = last;
  }
}

When('the scheme clock advances {int} working day(s)', async function (this: SimWorld, n: number) {
  await advance(this, { working_days: n });
});

When('the scheme clock advances {int} day(s)', async function (this: SimWorld, n: number) {
  await advance(this, { days: n });
});

When('the scheme clock advances {int} hour(s)', async function (this: SimWorld, n: number) {
  await advance(this, { hours: n });
});

When('the scheme clock moves to {string}', async function (this: SimWorld, to: string) {
  await advance(this, { to: this.interpolate(to) });
});

When('the scheme clock freezes', async function (this: SimWorld) {
  await post(this, '/v1/simulator/clock/freeze');
});

When('the scheme clock resumes at speed {int}', async function (this: SimWorld, speed: number) {
  await post(this, '/v1/simulator/clock/resume', { speed });
});

Given('the simulator is reset', async function (this: SimWorld) {
  await post(this, '/v1/simulator/reset', { scope: 'all' });
});

Given('my organisation is reset', async function (this: SimWorld) {
  await post(this, '/v1/simulator/reset');
});

Then('the scheme clock reads {string}', async function (this: SimWorld, expected: string) {
  const want = this.interpolate(expected);
  const now = (await peek(this, '/v1/simulator/clock')).data.now as string;
  assert.equal(now, new Date(want).toISOString(), `the scheme clock reads ${now}, expected ${want}`);
});

Then('the scheme clock is {word}', async function (this: SimWorld, mode: string) {
  const actual = (await peek(this, '/v1/simulator/clock')).data.mode as string;
  assert.equal(actual, mode, `the scheme clock is ${actual}`);
});

Then('{string} is a Bacs working day', async function (this: SimWorld, date: string) {
  const d = this.interpolate(date);
  const cal = await peek(this, `/v1/simulator/calendar?from=${d}&to=${d}`);
  assert.deepEqual(cal.data.working_days, [d], `${d} is not a Bacs working day (${JSON.stringify(cal.data.holidays)})`);
});

Then('{string} is not a Bacs working day', async function (this: SimWorld, date: string) {
  const d = this.interpolate(date);
  const cal = await peek(this, `/v1/simulator/calendar?from=${d}&to=${d}`);
  assert.deepEqual(cal.data.working_days, [], `${d} is a Bacs working day`);
});
