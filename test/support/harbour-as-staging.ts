// A simulator stands in for staging in the staging-profile tests: the settings that make the
// harness treat it as staging, acting as Harbour rather than the default organisation.
import { HARBOUR } from '../../src/harness/test-runtime.ts';

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
