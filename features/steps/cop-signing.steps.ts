// Steps of message signing in features/name_verification.feature: signed answers, the JWKS, signed
// requests and the start-up options that change how they are checked.
import assert from 'node:assert/strict';
import { type DataTable, Given, Then } from '@cucumber/cucumber';
import { copStrictTarget } from '../support/cop-preflight.ts';
import { fetchJwks, type SigningIntent } from '../support/cop-signing.ts';
import type { SimWorld } from '../support/world.ts';

// At least one answer of the scenario went through the signature check every answer of a
// participant gets (features/support/cop-signing.ts).
Then('the answer was signed and verified against the JWKS', function (this: SimWorld) {
  assert.ok(Number(this.state.signed_answers ?? 0) > 0, 'no answer of the participant was checked');
});

function requesterOf(name: string): SigningIntent['requester'] {
  if (name !== 'northwind' && name !== 'harbour')
    throw new Error(`requests can be signed as "northwind" or "harbour" (test keys), not "${name}"`);
  return name;
}

// From here on, requests sent with "I send the name verification request" carry an
// x-jws-signature made with the test key registered for "northwind" or "harbour" (in process).
Given('name verification requests are signed as {string}', function (this: SimWorld, requester: string) {
  this.state.cop_signing = { requester: requesterOf(requester), changes: {} } satisfies SigningIntent;
});

// The same with changes, one per row: kid, iss, profile (3.1.3), iat (+N: seconds ahead),
// body (sign this text instead), crit (one more entry).
Given(
  'name verification requests are signed as {string} with:',
  function (this: SimWorld, requester: string, table: DataTable) {
    const changes = Object.fromEntries(table.raw().map(([k, v]) => [k!, this.interpolate(v ?? '')]));
    this.state.cop_signing = { requester: requesterOf(requester), changes } satisfies SigningIntent;
  },
);

// From here on, name-verification requests go without x-jws-signature and x-fapi-financial-id
// (by default every one carries both, made by the target's requester).
Given('name verification requests are sent unsigned', function (this: SimWorld) {
  this.state.cop_unsigned = true;
});

// A target that refuses unsigned name verification requests: in process, the simulator restarted
// with --cop-strict; elsewhere the target must be one, as the preflight found, or the scenario is
// skipped, saying why.
Given('the target demands signed name verification requests', async function (this: SimWorld) {
  if (this.target.name === 'inprocess') {
    await this.open(this.receiver, { ...this.openedWith, copStrict: true });
    return undefined;
  }
  if (copStrictTarget() === true) return undefined;
  this.log(`skipped: ${this.target.baseUrl} answers unsigned name verification requests (the preflight asked it)`);
  return 'skipped';
});

// A target that answers unsigned (or wrongly signed) name verification requests, reporting what it
// made of the signature: in process, the simulator as started by default; elsewhere, a target the
// preflight did not find strict, or the scenario is skipped, saying why.
Given('the target answers unsigned name verification requests', function (this: SimWorld) {
  const strict = this.target.name === 'inprocess' ? this.openedWith.copStrict === true : copStrictTarget() === true;
  if (!strict) return undefined;
  this.log(`skipped: ${this.target.baseUrl} demands signed name verification requests (--cop-strict)`);
  return 'skipped';
});

// In process: restarts the simulator with "--cop-strict" and/or "--jws-profile 3.1.3|3.1.4".
Given('the simulator runs with CoP options {string}', async function (this: SimWorld, flags: string) {
  if (this.target.name !== 'inprocess')
    throw new Error('start-up options can only be set in process; tag the scenario @inprocess');
  const words = flags.split(/\s+/).filter(Boolean);
  const profile = words.includes('--jws-profile') ? words[words.indexOf('--jws-profile') + 1] : undefined;
  if (profile !== undefined && profile !== '3.1.4' && profile !== '3.1.3')
    throw new Error(`--jws-profile ${profile}: use 3.1.4 or 3.1.3`);
  await this.open(this.receiver, {
    copStrict: words.includes('--cop-strict'),
    ...(profile ? { jwsProfile: profile } : {}),
  });
  if (profile) this.vars.jws_profile = profile;
});

// In process: restarts the simulator with --strict, which refuses body keys a model does not declare.
Given('the simulator runs with --strict', async function (this: SimWorld) {
  if (this.target.name !== 'inprocess')
    throw new Error('start-up options can only be set in process; tag the scenario @inprocess');
  await this.open(this.receiver, { strict: true });
});

// GET /v1/participants/{id}/jwks.json holds one RSA key for PS256 signatures.
Then(
  'the JWKS of participant {string} holds one PS256 signing key',
  async function (this: SimWorld, openBankingId: string) {
    const jwks = await fetchJwks(this, openBankingId);
    assert.equal(jwks.keys.length, 1);
    assert.deepEqual(
      { ...jwks.keys[0], n: undefined, kid: undefined },
      { kty: 'RSA', e: 'AQAB', alg: 'PS256', use: 'sig', n: undefined, kid: undefined },
    );
  },
);

// The last answer's signature is in the 3.1.3 form (b64 false).
Then('the answer is signed with b64 false', function (this: SimWorld) {
  const signature = this.response.headers.get('x-jws-signature') ?? '';
  const header = JSON.parse(Buffer.from(signature.split('.')[0] ?? '', 'base64url').toString()) as { b64?: boolean };
  assert.equal(header.b64, false, `protected header: ${JSON.stringify(header)}`);
});
