import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARBOUR, type TestRuntime, testRuntime } from '../../src/harness/test-runtime.ts';
import { harbourAsStaging } from '../../test/support/harbour-as-staging.ts';
import type { Settings } from './settings.ts';
import { type Send, settingsAgainstTarget } from './target-settings.ts';

// The staging settings checked against a simulator used as staging, as Harbour (a seed account of
// fixtures/accounts.json is its known CoP account).

let rt: TestRuntime;
beforeAll(async () => {
  rt = await testRuntime({ seedAccounts: true });
});
afterAll(() => rt.close());

// Harbour as the staging tests configure it, but the URL (the test sends in process).
const HARBOUR_SETTINGS: Settings = harbourAsStaging('http://unused.invalid');

const send: Send = async (method, path, body, headers) => {
  const res = await rt.call(method, path, body, { client: HARBOUR, ...(headers ? { headers } : {}) });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
};

const accounts = async () =>
  (
    (await (
      await rt.call('GET', '/v1/organisation/accounts?page[size]=1000', undefined, { client: HARBOUR })
    ).json()) as {
      data: unknown[];
    }
  ).data.length;

const check = (over: Settings) => settingsAgainstTarget({ ...HARBOUR_SETTINGS, ...over }, send);

describe('the staging settings checked against the target', () => {
  it('holds for settings the target bears out, and leaves no account behind', async () => {
    const before = await accounts();
    expect(await check({})).toEqual([]);
    expect(await accounts()).toBe(before);
  });

  it('names a sort code or BIC not registered to the organisation, one line each', async () => {
    const before = await accounts();
    const [sortCode, ...rest] = await check({ CONFORMANCE_SORT_CODE: '400300' });
    expect(rest).toEqual([]);
    expect(sortCode).toMatch(
      new RegExp(
        `^CONFORMANCE_SORT_CODE 400300 is refused for organisation ${HARBOUR.organisation_id}: .*bank_id in body 400300 is not registered`,
      ),
    );
    const both = await check({ CONFORMANCE_SORT_CODE: '400300', CONFORMANCE_BIC: 'NWBKGB22' });
    expect(both.map((l) => l.split(' ')[0])).toEqual(['CONFORMANCE_SORT_CODE', 'CONFORMANCE_BIC']);
    expect(await accounts()).toBe(before);
  });

  it('names an organisation that is not the client’s', async () => {
    const [line] = await check({ CONFORMANCE_ORGANISATION_ID: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb' });
    expect(line).toMatch(
      /^CONFORMANCE_ORGANISATION_ID 743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb is not the organisation of CONFORMANCE_CLIENT_ID: 403 /,
    );
  });

  it('names a CoP participant, account or name the target does not bear out', async () => {
    expect(await check({ CONFORMANCE_COP_PARTICIPANT_ID: '0015800000nosuchAA' })).toEqual([
      expect.stringMatching(
        /^CONFORMANCE_COP_PARTICIPANT_ID 0015800000nosuchAA: the target has no such participant \(404/,
      ),
    ]);
    expect(await check({ CONFORMANCE_COP_ACCOUNT: '30963499999999' })).toEqual([
      'CONFORMANCE_COP_ACCOUNT 30963499999999: participant 0015800000jf9GgAAI holds no such account (AC01)',
    ]);
    expect(await check({ CONFORMANCE_COP_ACCOUNT_NAME: 'Quentin Zebedee' })).toEqual([
      'CONFORMANCE_COP_ACCOUNT_NAME "Quentin Zebedee" is not the name held on 30963470025870 (ANNM)',
    ]);
    expect(await check({ CONFORMANCE_COP_ACCOUNT_NAME: 'Maureen Beir' })).toEqual([
      'CONFORMANCE_COP_ACCOUNT_NAME "Maureen Beir" is close to but not the name held on 30963470025870, "Maureen Beier" (MBAM)',
    ]);
  });

  it('names settings of the wrong form without asking the target about them', async () => {
    expect(await check({ CONFORMANCE_SORT_CODE: '30-96-34', CONFORMANCE_COP_ACCOUNT: '3096347002587' })).toEqual([
      "CONFORMANCE_SORT_CODE must be a sort code of 6 digits, got '30-96-34'",
      "CONFORMANCE_COP_ACCOUNT must be a sort code and account number, 14 digits, got '3096347002587'",
    ]);
  });
});
