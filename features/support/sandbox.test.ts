import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HARBOUR, NORTHWIND } from '../../src/harness/test-runtime.ts';
import { BUNDLED_KEY_FILE } from './cop-requester.ts';
import { preflightProblems } from './preflight.ts';
import { type Sandbox, sandboxAttributes, sandboxSetting, sandboxSettings } from './sandbox.ts';

const SANDBOX: Sandbox = {
  id: '7d0c1f4e-2a3b-4c5d-8e9f-0a1b2c3d4e5f',
  attributes: {
    path_prefix: '/sandboxes/7d0c1f4e-2a3b-4c5d-8e9f-0a1b2c3d4e5f',
    clients: [
      {
        client_id: 'a0000000-0000-4000-8000-000000000001',
        client_secret: 'nw-secret',
        organisation_id: NORTHWIND.organisation_id,
        role: 'admin',
        key_ids: ['b0000000-0000-4000-8000-000000000001'],
      },
      {
        client_id: 'a0000000-0000-4000-8000-000000000002',
        client_secret: 'hb-secret',
        organisation_id: HARBOUR.organisation_id,
        role: 'member',
        key_ids: [],
      },
    ],
  },
};
/** The staging settings but the client's, which a sandbox's client stands in for. */
const STAGING = {
  CONFORMANCE_SORT_CODE: '309634',
  CONFORMANCE_BIC: 'HRBRGB2L',
  CONFORMANCE_COP_PARTICIPANT_ID: '0015800000jf9GgAAI',
  CONFORMANCE_COP_ACCOUNT: '30963470025870',
  CONFORMANCE_COP_ACCOUNT_NAME: 'Maureen Beier',
};
const run = { sandbox: SANDBOX };

describe('CONFORMANCE_SANDBOX', () => {
  it('is new, a sandbox id, or unset; anything else is named', () => {
    expect(sandboxSetting({})).toBeUndefined();
    expect(sandboxSetting({ CONFORMANCE_SANDBOX: 'new' })).toBe('new');
    expect(sandboxSetting({ CONFORMANCE_SANDBOX: SANDBOX.id })).toBe(SANDBOX.id);
    expect(() => sandboxSetting({ CONFORMANCE_SANDBOX: 'yes' })).toThrow(
      "CONFORMANCE_SANDBOX must be new or the id (a UUID) of a sandbox of the target, got 'yes'",
    );
  });

  it('creates the sim target’s sandbox with the clock its scenarios are written for', () => {
    expect(sandboxAttributes('sim', {})).toEqual({
      clock: { mode: 'frozen', start: '2026-12-21T09:00:00.000Z' },
      seed: 'fixtures',
      lifetime_seconds: 14_400,
    });
  });

  it('creates the staging profile’s with the harness’s today, strict when it signs name verification requests', () => {
    const now = new Date('2026-03-02T10:00:00Z');
    expect(sandboxAttributes('staging', {}, now)).toMatchObject({
      clock: { mode: 'running', start: '2026-03-02T10:00:00.000Z', speed: 1 },
    });
    const signing = {
      CONFORMANCE_TODAY: '2026-12-23',
      CONFORMANCE_COP_SIGNING_KEY: new URL('../../fixtures/keys/northwind-dev-signing.pem', import.meta.url).pathname,
      CONFORMANCE_COP_SIGNING_KID: 'kid',
      CONFORMANCE_COP_PARTICIPANT_ID: '0015800001041REAAY',
      CONFORMANCE_COP_JWS_PROFILE: '3.1.3',
      CONFORMANCE_SANDBOX_LIFETIME_SECONDS: '600',
    };
    expect(sandboxAttributes('staging', signing)).toEqual({
      clock: { mode: 'frozen', start: '2026-12-23T09:00:00.000Z' },
      seed: 'fixtures',
      lifetime_seconds: 600,
      settings: { cop_strict: true, jws_profile: '3.1.3' },
    });
    expect(() => sandboxAttributes('sim', { CONFORMANCE_SANDBOX_LIFETIME_SECONDS: '5' })).toThrow(
      /CONFORMANCE_SANDBOX_LIFETIME_SECONDS must be .* from 60 to 2592000, got '5'/,
    );
  });

  it('runs as the sandbox’s client of the configured organisation, the other organisation likewise', () => {
    const settings = {
      CONFORMANCE_CLIENT_ID: HARBOUR.client_id,
      CONFORMANCE_CLIENT_SECRET: HARBOUR.client_secret,
      CONFORMANCE_ORGANISATION_ID: HARBOUR.organisation_id,
      CONFORMANCE_OTHER_CLIENT_ID: NORTHWIND.client_id,
      CONFORMANCE_OTHER_CLIENT_SECRET: NORTHWIND.client_secret,
      CONFORMANCE_OTHER_ORGANISATION_ID: NORTHWIND.organisation_id,
    };
    expect(sandboxSettings('staging', settings, run)).toEqual({
      settings: {
        CONFORMANCE_CLIENT_ID: 'a0000000-0000-4000-8000-000000000002',
        CONFORMANCE_CLIENT_SECRET: 'hb-secret',
        CONFORMANCE_ORGANISATION_ID: HARBOUR.organisation_id,
        CONFORMANCE_OTHER_CLIENT_ID: 'a0000000-0000-4000-8000-000000000001',
        CONFORMANCE_OTHER_CLIENT_SECRET: 'nw-secret',
        CONFORMANCE_OTHER_ORGANISATION_ID: NORTHWIND.organisation_id,
      },
      choose: [],
    });
  });

  it('runs as its first client without an organisation configured, signing with that client’s key id', () => {
    const out = sandboxSettings(
      'staging',
      { CONFORMANCE_SIGNING_KEY_ID: 'default-kid', CONFORMANCE_SIGNING_KEY: '/k.pem' },
      run,
    );
    expect(out).toMatchObject({ choose: [] });
    expect('settings' in out && out.settings).toMatchObject({
      CONFORMANCE_CLIENT_ID: 'a0000000-0000-4000-8000-000000000001',
      CONFORMANCE_ORGANISATION_ID: NORTHWIND.organisation_id,
      CONFORMANCE_SIGNING_KEY_ID: 'b0000000-0000-4000-8000-000000000001',
    });
    const harbour = sandboxSettings(
      'staging',
      {
        CONFORMANCE_ORGANISATION_ID: HARBOUR.organisation_id,
        CONFORMANCE_SIGNING_KEY_ID: 'default-kid',
        CONFORMANCE_SIGNING_KEY: '/k.pem',
      },
      run,
    );
    expect(harbour.problem).toMatch(/^CONFORMANCE_SIGNING_KEY_ID: the sandbox's client .* has no public key/);
  });

  it('keeps a client that is the sandbox’s own (a named sandbox)', () => {
    const own = { CONFORMANCE_CLIENT_ID: 'a0000000-0000-4000-8000-000000000002', CONFORMANCE_CLIENT_SECRET: 'hb' };
    expect(sandboxSettings('staging', own, run)).toEqual({ settings: {}, choose: [] });
  });

  it('gives the sim target the sandbox’s admin, and the bundled requester key under the sandbox’s id', () => {
    expect(sandboxSettings('sim', {}, run)).toEqual({
      settings: {
        SIM_CLIENT_ID: 'a0000000-0000-4000-8000-000000000001',
        SIM_CLIENT_SECRET: 'nw-secret',
        CONFORMANCE_COP_SIGNING_KEY: BUNDLED_KEY_FILE,
        CONFORMANCE_COP_SIGNING_KID: 'b0000000-0000-4000-8000-000000000001',
        CONFORMANCE_COP_SIGNING_ISS: '0015800001041REAAY',
      },
      choose: [],
    });
  });

  it('lists a configured key id for the preflight to try when the sandbox’s client has several keys', () => {
    const two: Sandbox = {
      ...SANDBOX,
      attributes: {
        clients: [{ ...SANDBOX.attributes.clients![0]!, key_ids: ['k1', 'k2'] }],
      },
    };
    const out = sandboxSettings('staging', { CONFORMANCE_COP_SIGNING_KID: 'default-kid' }, { sandbox: two });
    expect(out).toMatchObject({
      settings: { CONFORMANCE_COP_SIGNING_KID: 'k1' },
      choose: [{ setting: 'CONFORMANCE_COP_SIGNING_KID', candidates: ['k1', 'k2'] }],
    });
  });
});

describe('the preflight with CONFORMANCE_SANDBOX', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  /** A target that hands out tokens and answers 404 to everything else: no sandboxes route. */
  async function withoutSandboxes(): Promise<string> {
    server = createServer((req, res) => {
      const token = req.url === '/v1/oauth2/token';
      res.writeHead(token ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(token ? { access_token: 't' } : { error_message: 'Not Found', error_code: 'x' }));
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('names a target without sandboxes in one line, for new and for an id', async () => {
    const url = await withoutSandboxes();
    for (const [target, settings] of [
      ['sim', { SIM_BASE_URL: url, CONFORMANCE_SANDBOX: 'new' }],
      ['staging', { ...STAGING, CONFORMANCE_BASE_URL: url, CONFORMANCE_SANDBOX: SANDBOX.id }],
    ] as const) {
      const problems = await preflightProblems(target, settings);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^the target does not offer sandboxes; unset CONFORMANCE_SANDBOX \((POST|GET) \/v1\/simulator\/sandboxes answered 404\)$/,
      );
    }
  });

  it('names a bad value before asking the target anything', async () => {
    expect(await preflightProblems('sim', { SIM_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_SANDBOX: 'x' })).toEqual([
      "CONFORMANCE_SANDBOX must be new or the id (a UUID) of a sandbox of the target, got 'x'",
    ]);
  });
});
