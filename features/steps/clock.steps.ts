import assert from 'node:assert/strict';
import { When } from '@cucumber/cucumber';
import type { SimWorld } from '../support/world.ts';

// Moving the scheme clock (scenarios using these are @simulator: staging has no clock to move).

async function advance(world: SimWorld, body: Record<string, unknown>): Promise<void> {
  const res = await world.send('POST', '/v1/simulator/clock/advance', { body: JSON.stringify(body) });
  assert.equal(res.status, 200, `advance failed: ${res.status} ${res.text}`);
}

When('the scheme clock advances {int} working day(s)', async function (this: SimWorld, n: number) {
  await advance(this, { working_days: n });
});

When('the scheme clock advances {int} hour(s)', async function (this: SimWorld, n: number) {
  await advance(this, { hours: n });
});

When('the scheme clock moves to {string}', async function (this: SimWorld, to: string) {
  await advance(this, { to: this.interpolate(to) });
});
