// A simulator stands in for staging in the staging-profile tests: the settings that make the
// harness treat it as staging, acting as Harbour rather than the default organisation.
import { join } from 'node:path';
import { REQUESTER_TEST_KEYS } from '../../src/harness/cop-keys.ts';
import { HARBOUR, NORTHWIND } from '../../src/harness/test-runtime.ts';

/**
 * The settings of the staging profile for a simulator at `baseUrl` used strictly as staging, as
 * Harbour: another organisation than the default, with its own sort code, BIC, CoP participant and
 * a known Personal account (Maureen Beier, a seed account of fixtures/accounts.json).
 */
export function harbourAsStaging(baseUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_OPTIONS: '--import tsx',
    CONFORMANCE_BASE_URL: baseUrl,
    CONFORMANCE_CLIENT_ID: HARBOUR.client_id,
    CONFORMANCE_CLIENT_SECRET: HARBOUR.client_secret,
    CONFORMANCE_ORGANISATION_ID: HARBOUR.organisation_id,
    CONFORMANCE_SORT_CODE: '309634',
    CONFORMANCE_BIC: 'HRBRGB2L',
    CONFORMANCE_COP_PARTICIPANT_ID: '0015800000jf9GgAAI',
    CONFORMANCE_COP_ACCOUNT: '30963470025870',
    CONFORMANCE_COP_ACCOUNT_NAME: 'Maureen Beier',
    CONFORMANCE_COP_ACCOUNT_TYPE: 'Personal',
  };
}

/**
 * The staging profile's settings for runs in a sandbox of a simulator at `baseUrl` (its clock
 * frozen on 2026-12-21): Harbour as above, Northwind as the second organisation, and Harbour's
 * requester key (the PEM file at `copKeyFile`) signing name verifications, so the sandbox the run
 * makes is a strict responder (cop_strict, features/support/sandbox.ts) and every answer needs a
 * valid x-jws-signature. The simulator needs Harbour's requester key registered
 * (clientsFileWithTestKeys).
 */
export function harbourInASandbox(baseUrl: string, copKeyFile: string, tsx: string): Record<string, string> {
  return {
    ...harbourAsStaging(baseUrl),
    NODE_OPTIONS: `--import ${tsx}`,
    CONFORMANCE_OTHER_CLIENT_ID: NORTHWIND.client_id,
    CONFORMANCE_OTHER_CLIENT_SECRET: NORTHWIND.client_secret,
    CONFORMANCE_OTHER_ORGANISATION_ID: NORTHWIND.organisation_id,
    CONFORMANCE_TODAY: '2026-12-21',
    CONFORMANCE_COP_SIGNING_KEY: copKeyFile,
    CONFORMANCE_COP_SIGNING_KID: REQUESTER_TEST_KEYS.harbour.key_id,
  };
}

/** `scheme-sim conformance --target staging --sandbox new` (journeys left out: they span runs), from the checkout at `root`. */
export function stagingInASandboxArgs(root: string): string[] {
  return [
    join(root, 'src', 'cli', 'main.ts'),
    'conformance',
    '--target',
    'staging',
    '--sandbox',
    'new',
    '--tags',
    'not @journey',
  ];
}
