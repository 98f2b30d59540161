import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copRequest, NORTHWIND_COP_PATH } from '../../../test/support/testing.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { ApiError } from '../wire/errors.ts';
import {
  type BodySink,
  type ParticipantRequest,
  runParticipantRequest,
  serialiseAnswer,
} from './name-verification-exchange.ts';
import type { ObAnswer } from './ob-answer.ts';

let rt: TestRuntime;
let token: string;
beforeAll(async () => {
  rt = await testRuntime();
  token = await rt.token();
  rt.sim.accounts.create({
    id: crypto.randomUUID(),
    organisation_id: NORTHWIND.organisation_id,
    attributes: { bank_id: '400300', account_number: '12345678', name: ['Samantha Holder'] },
  });
});
afterAll(() => rt.close());

/** An adapter with no I/O: the body it is given (or a failure to read it), the answers it gets. */
class FakeAdapter implements ParticipantRequest {
  readonly replies: Array<{ answer: ObAnswer; clientId: string }> = [];
  bodyAsked = 0;
  constructor(
    readonly method: string,
    readonly path: string,
    readonly headers: Record<string, string>,
    readonly body: Uint8Array | Error,
  ) {}
  header(name: string): string | undefined {
    return this.headers[name];
  }
  readBody(sink: BodySink): void {
    this.bodyAsked++;
    if (this.body instanceof Error) sink.bodyFailed(this.body);
    else sink.bodyRead(this.body);
  }
  reply(answer: ObAnswer, clientId: string): void {
    this.replies.push({ answer, clientId });
  }
  /** Runs the request; resolves once its one answer came. */
  async run(): Promise<{ answer: ObAnswer; clientId: string; body: any }> {
    runParticipantRequest(rt.deps, this);
    await expect.poll(() => this.replies.length).toBe(1);
    const [reply] = this.replies;
    return { ...reply!, body: JSON.parse(reply!.answer.body) };
  }
}

const json = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  'x-fapi-interaction-id': 'interaction-1',
});
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('runParticipantRequest, the one entry of both adapters', () => {
  it('reads the body, verifies, signs and replies once with the caller', async () => {
    const adapter = new FakeAdapter('POST', NORTHWIND_COP_PATH, json(token), bytes(copRequest()));
    const { answer, clientId, body } = await adapter.run();
    expect(answer.status).toBe(200);
    expect(body.Data.VerificationReport.Matched).toBe(true);
    expect(answer.headers['x-fapi-interaction-id']).toBe('interaction-1');
    expect(answer.headers['x-jws-signature']).toBeTruthy();
    expect(clientId).toBe(NORTHWIND.uuid);
    expect(adapter.bodyAsked).toBe(1);
  });

  it('answers a failed check before the body without reading it, signed and in Open Banking terms', async () => {
    const adapter = new FakeAdapter(
      'POST',
      NORTHWIND_COP_PATH,
      { 'content-type': 'application/json' },
      new Uint8Array(),
    );
    const { answer, clientId, body } = await adapter.run();
    expect(answer.status).toBe(401);
    expect(body.Code).toBe('401 Unauthorized');
    expect(answer.headers['x-jws-signature']).toBeTruthy();
    expect(clientId).toBe('');
    expect(adapter.bodyAsked).toBe(0);
  });

  it("turns the adapter's failure to read the body into the signed Open Banking answer", async () => {
    const tooLarge = new ApiError(413, 'request body is larger than 1048576 bytes');
    const { answer, body } = await new FakeAdapter('POST', NORTHWIND_COP_PATH, json(token), tooLarge).run();
    expect(answer.status).toBe(413);
    expect(body.Message).toBe('request body is larger than 1048576 bytes');
    expect(answer.headers['x-fapi-interaction-id']).toBe('interaction-1');
    expect(answer.headers['x-jws-signature']).toBeTruthy();
  });

  it("answers a participant's JWKS without a token or a body, and anything else under the prefix with a 404", async () => {
    const jwks = await new FakeAdapter(
      'GET',
      '/v1/participants/0015800001041REAAY/jwks.json',
      {},
      new Uint8Array(),
    ).run();
    expect(jwks.answer.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    const other = await new FakeAdapter('GET', '/v1/participants/nowhere', json(token), new Uint8Array()).run();
    expect(other.answer.status).toBe(404);
    expect(other.body.Errors[0].ErrorCode).toBe('UK.OBIE.Resource.NotFound');
  });
});

describe('serialiseAnswer', () => {
  it('is JSON.stringify of the whole answer, byte for byte', () => {
    const reports = [
      { Matched: true },
      { Matched: false, ReasonCode: 'ANNM' as const },
      { Matched: false, ReasonCode: 'MBAM' as const, Name: 'Zoë "Jo" O\'Brien \\ née Smith\u2028\u0007' },
    ];
    for (const report of reports)
      for (const path of [NORTHWIND_COP_PATH, '/v1/participants/a"b\\c/x']) {
        const whole = JSON.stringify({ Data: { VerificationReport: report }, Links: { Self: path }, Meta: {} });
        expect(serialiseAnswer(report, path)).toBe(whole);
      }
  });
});
