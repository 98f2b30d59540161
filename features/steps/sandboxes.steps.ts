// Sandboxes (docs/sandboxes.md): a world of its own on the target. A scenario makes sandboxes as its
// current client, acts in one with its admin's token, and leaves; every sandbox it made is deleted
// after it, so none is left behind on a shared double.
import assert from 'node:assert/strict';
import { After, Given, When } from '@cucumber/cucumber';
import type { SimWorld } from '../support/world.ts';

interface MadeSandbox {
  id: string;
  client_id: string;
  client_secret: string;
}

const made = new WeakMap<SimWorld, Map<string, MadeSandbox>>();
const sandboxesOf = (world: SimWorld) => {
  let m = made.get(world);
  if (!m) made.set(world, (m = new Map()));
  return m;
};

Given('a sandbox {string} made with body:', async function (this: SimWorld, name: string, body: string) {
  const res = await this.send('POST', '/v1/simulator/sandboxes', { body: this.interpolate(body) });
  assert.equal(res.status, 201, `making sandbox ${name}: ${res.status} ${res.text}`);
  const data = (res.json as { data: { id: string; attributes: { clients: MadeSandbox[] } } }).data;
  const admin = data.attributes.clients[0]!;
  sandboxesOf(this).set(name, { id: data.id, client_id: admin.client_id, client_secret: admin.client_secret });
  this.vars[`${name}_id`] = data.id;
  this.vars[`${name}_client_id`] = admin.client_id;
  this.vars[`${name}_client_secret`] = admin.client_secret;
});

/** Takes a token for the sandbox's admin client and sends every later request with it. */
Given('I act in sandbox {string}', async function (this: SimWorld, name: string) {
  const sandbox = sandboxesOf(this).get(name);
  assert.ok(sandbox, `no sandbox made as "${name}" in this scenario`);
  const res = await this.requestToken({
    authorization: `Basic ${Buffer.from(`${sandbox.client_id}:${sandbox.client_secret}`).toString('base64')}`,
    contentType: 'application/x-www-form-urlencoded',
  });
  if (res.status !== 200) assert.fail(`token of sandbox ${name}: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  this.vars[`${name}_token`] = token;
  this.headers.authorization = `Bearer ${token}`;
});

When('I leave the sandbox', function (this: SimWorld) {
  delete this.headers.authorization;
});

After(async function (this: SimWorld) {
  const sandboxes = made.get(this);
  if (!sandboxes) return;
  delete this.headers.authorization;
  for (const s of sandboxes.values()) {
    const res = await this.send('DELETE', `/v1/simulator/sandboxes/${s.id}`);
    // Already deleted by the scenario, or the whole target went away with auth off: both are fine.
    assert.ok([204, 404].includes(res.status), `deleting sandbox ${s.id}: ${res.status} ${res.text}`);
  }
});
