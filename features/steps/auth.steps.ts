// Token endpoint and bearer steps. Steps marked "in process" need the @inprocess tag: they reach
// into the simulator (wall clock, start-up options), which a running one or staging cannot offer.
import assert from 'node:assert/strict';
import { Given, When } from '@cucumber/cucumber';
import { basicHeader, type SimWorld } from '../support/world.ts';

const FORM = 'application/x-www-form-urlencoded';

When('I request a token as {string}', async function (this: SimWorld, client: string) {
  await this.record(await this.requestToken({ authorization: this.basicAuth(client), contentType: FORM }));
});

When(
  'I request a token as {string} with the body {string}',
  async function (this: SimWorld, client: string, body: string) {
    await this.record(await this.requestToken({ authorization: this.basicAuth(client), contentType: FORM, body }));
  },
);

When(
  'I request a token as {string} with content type {string}',
  async function (this: SimWorld, client: string, type: string) {
    await this.record(await this.requestToken({ authorization: this.basicAuth(client), contentType: type }));
  },
);

When(
  'I request a token with client id {string} and secret {string}',
  async function (this: SimWorld, id: string, secret: string) {
    const creds = this.target.clients.default!;
    // "<default>" stands for the target's own value, so scenarios run on staging too.
    const realId = id === '<default>' ? creds.client_id : id;
    const realSecret = secret === '<default>' ? creds.client_secret : secret;
    await this.record(await this.requestToken({ authorization: basicHeader(realId, realSecret), contentType: FORM }));
  },
);

When(
  'I request a token with the Authorization header {string}',
  async function (this: SimWorld, authorization: string) {
    await this.record(await this.requestToken({ ...(authorization ? { authorization } : {}), contentType: FORM }));
  },
);

When('I request a token without credentials', async function (this: SimWorld) {
  await this.record(await this.requestToken({ contentType: FORM }));
});

Given('I remember a token of {string} as {string}', async function (this: SimWorld, client: string, name: string) {
  this.vars[name] = await this.token(client);
});

Given('I remember a tampered copy of {string} as {string}', function (this: SimWorld, source: string, name: string) {
  const token = this.interpolate(`{{${source}}}`);
  // Change one character in the middle of the token: the signature no longer matches.
  const i = Math.floor(token.length / 2);
  const swapped = token[i] === 'A' ? 'B' : 'A';
  this.vars[name] = `${token.slice(0, i)}${swapped}${token.slice(i + 1)}`;
  assert.notEqual(this.vars[name], token);
});

When(
  'I send a {word} request to {string} with the Authorization header {string}',
  async function (this: SimWorld, method: string, path: string, value: string) {
    await this.send(method, path, { headers: { authorization: this.interpolate(value) } });
  },
);

When(
  'I send a {word} request to {string} without an Authorization header',
  async function (this: SimWorld, method: string, path: string) {
    const client = this.client;
    this.client = null;
    try {
      await this.send(method, path);
    } finally {
      this.client = client;
    }
  },
);

When('the wall clock moves on {int} second(s)', function (this: SimWorld, seconds: number) {
  this.runtime.wall.advanceMs(seconds * 1000);
});

Given('the simulator runs with authentication off', async function (this: SimWorld) {
  if (this.target.name !== 'inprocess')
    throw new Error('authentication can only be switched off in process; tag the scenario @inprocess');
  await this.open(this.receiver, { auth: 'off' });
});
