import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NAME_VERIFICATIONS,
  nameVerificationBody,
  registerPayee,
} from '../../../test/support/name-verification-requests.ts';
import { FIXTURES_DIR } from '../../fixtures.ts';
import { FENWICK, HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

// The requester's side goes through the responder's own exchange: strict mode and the signature
// rules apply to it as to any requester, and the answer's signature is checked before it is believed.
let rt: TestRuntime | undefined;
let dir: string | undefined;
afterEach(async () => {
  await rt?.close();
  rt = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The shipped fixtures without Fenwick as a participant (its organisation and client stay). */
function fixturesWithoutFenwickParticipant(): string {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-nv-'));
  cpSync(FIXTURES_DIR, dir, { recursive: true });
  const file = join(dir, 'participants.json');
  const participants = JSON.parse(readFileSync(file, 'utf8')) as Array<{ organisation_id: string }>;
  writeFileSync(file, JSON.stringify(participants.filter((p) => p.organisation_id !== FENWICK.organisation_id)));
  return dir;
}

async function submissionOf(runtime: TestRuntime, client: typeof NORTHWIND): Promise<Record<string, unknown>> {
  const res = await runtime.call('POST', NAME_VERIFICATIONS, nameVerificationBody(client.organisation_id), { client });
  expect(res.status).toBe(201);
  const { data } = (await res.json()) as { data: { id: string } };
  const got = (await (
    await runtime.call('GET', `${NAME_VERIFICATIONS}/${data.id}`, undefined, { client })
  ).json()) as any;
  return got.data.relationships.name_verification_submission.data[0].attributes;
}

describe('name verification requests against a strict responder', () => {
  it("a participant's request is signed with its key and sent with x-fapi-financial-id: answered", async () => {
    rt = await testRuntime({ copStrict: true });
    await registerPayee(rt, HARBOUR, { account_number: '12345678', name: ['Samantha Holder'] });
    expect(await submissionOf(rt, NORTHWIND)).toEqual({ status: 'delivery_confirmed', answer: 'confirmed' });
  });

  it('an organisation that is no participant signs nothing: refused when strict, answered when not', async () => {
    rt = await testRuntime({ copStrict: true, fixturesDir: fixturesWithoutFenwickParticipant() });
    await registerPayee(rt, HARBOUR, { account_number: '12345678', name: ['Samantha Holder'] });
    const refused = await submissionOf(rt, FENWICK);
    expect(refused.status).toBe('delivery_failed');
    expect(refused.status_reason).toMatch(/refused the request: 400; UK\.OBIE\.Signature\.Missing at x-jws-signature/);
    await rt.close();

    rt = await testRuntime({ fixturesDir: dir! });
    await registerPayee(rt, HARBOUR, { account_number: '12345678', name: ['Samantha Holder'] });
    expect(await submissionOf(rt, FENWICK)).toEqual({ status: 'delivery_confirmed', answer: 'confirmed' });
  });

  it('an answer whose x-jws-signature does not verify is not believed', async () => {
    rt = await testRuntime();
    vi.spyOn(rt.deps.signer, 'sign').mockImplementation((answer) => {
      answer.headers['x-jws-signature'] = 'eyJhbGciOiJQUzI1NiJ9..bm90LWEtc2lnbmF0dXJl';
      return answer;
    });
    const failed = await submissionOf(rt, NORTHWIND);
    expect(failed.status).toBe('delivery_failed');
    expect(failed.status_reason).toMatch(
      /^the answer of Harbour Building Society \(0015800000jf9GgAAI\) was not believed: UK\.OBIE\.Signature\./,
    );
  });
});
