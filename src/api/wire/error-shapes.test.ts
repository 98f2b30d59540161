import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NORTHWIND_COP_PATH } from '../../../test/support/testing.ts';
import { DateRangeError } from '../../clock/dates.ts';
import { type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { notFound, rateLimited } from '../../sim/errors.ts';
import { obErrorBody, toObError } from '../open-banking/ob-errors.ts';
import { ApiError, toErrorResponse } from './errors.ts';

// One table of what a thrown error answers (failureOf), drawn in two shapes: Form3's error body
// for /v1, Open Banking's on the name-verification path. Each kind answers the same status,
// message and headers in both; only the codes and the wording of a 500 are the shape's own.

const REQUEST = { method: 'POST', path: '/v1/x', header: () => 'Bearer t' };

async function asForm3(err: unknown) {
  const app = new Hono();
  app.post('/v1/x', () => {
    throw err;
  });
  app.onError(toErrorResponse);
  const res = await app.request('/v1/x', { method: 'POST' });
  const body = (await res.json()) as { error_message: string; error_code: string };
  return { status: res.status, message: body.error_message, code: body.error_code, headers: res.headers };
}

function asOpenBanking(err: unknown) {
  const e = toObError(err, REQUEST);
  return { status: e.status, message: e.message, code: e.errors[0]!.ErrorCode, headers: e.headers, e };
}

const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

describe('the error table in both shapes', () => {
  beforeEach(() => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it.each<[string, unknown, number, string, string, Record<string, string>]>([
    [
      'a 400 of the API',
      new ApiError(400, 'x in body is required'),
      400,
      'x in body is required',
      'UK.OBIE.Resource.InvalidFormat',
      {},
    ],
    [
      'a 413, closing',
      new ApiError(413, 'too large'),
      413,
      'too large',
      'UK.OBIE.Field.Invalid',
      { connection: 'close' },
    ],
    ["Hono's exception", new HTTPException(409, { message: 'no' }), 409, 'no', 'UK.OBIE.Field.Invalid', {}],
    [
      'a domain not_found',
      notFound('account a-1 not found'),
      404,
      'account a-1 not found',
      'UK.OBIE.Resource.NotFound',
      {},
    ],
    [
      'a domain rate limit',
      rateLimited('slow down', 3),
      429,
      'slow down',
      'UK.OBIE.Field.Invalid',
      { 'retry-after': '3' },
    ],
    [
      'a date outside the supported range',
      new DateRangeError('2199-12-31 + 1 days is outside'),
      409,
      'the request needs a date the simulator does not support: 2199-12-31 + 1 days is outside',
      'UK.OBIE.Field.Invalid',
      {},
    ],
    [
      'a client that left mid-body',
      aborted,
      400,
      'the request ended before its body was complete',
      'UK.OBIE.Resource.InvalidFormat',
      { connection: 'close' },
    ],
  ])('%s: same status, message and headers', async (_, err, status, message, obCode, headers) => {
    const form3 = await asForm3(err);
    const ob = asOpenBanking(err);
    expect({ status: form3.status, message: form3.message }).toEqual({ status, message });
    expect({ status: ob.status, message: ob.message, code: ob.code }).toEqual({ status, message, code: obCode });
    for (const [name, value] of Object.entries(headers)) {
      expect(form3.headers.get(name)).toBe(value);
      expect(Object.fromEntries(Object.entries(ob.headers).map(([k, v]) => [k.toLowerCase(), v]))[name]).toBe(value);
    }
  });

  it('a 500 says nothing of internals, and its body quotes the id its log line names, in both shapes', async () => {
    const form3 = await asForm3(new Error('secret detail'));
    expect(form3).toMatchObject({ status: 500, message: 'internal error; quote the error_code when reporting it' });
    expect(String(vi.mocked(console.error).mock.calls[0]![0])).toContain(`error_code=${form3.code}`);
    const ob = asOpenBanking(new Error('secret detail'));
    expect(ob).toMatchObject({ status: 500, message: 'internal error; quote the Id when reporting it' });
    const body = obErrorBody(ob.e.status, ob.e.message, ob.e.errors, ob.e.id);
    expect(String(vi.mocked(console.error).mock.calls[1]![0])).toContain(`error_code=${body.Id}`);
    expect(JSON.stringify([form3, body])).not.toContain('secret detail');
  });
});

describe('one JSON body reader for both shapes', () => {
  let rt: TestRuntime;
  beforeEach(async () => {
    rt = await testRuntime();
  });
  afterEach(() => rt.close());

  it.each(['{', '', '   ', 'null x'])('%j: the same 400 message on /v1 and on name verification', async (raw) => {
    const form3 = await rt.call('POST', '/v1/organisation/accounts', raw);
    const ob = await rt.call('POST', NORTHWIND_COP_PATH, raw);
    expect([form3.status, ob.status]).toEqual([400, 400]);
    const message = ((await form3.json()) as { error_message: string }).error_message;
    expect(message).toMatch(/^request body is (empty|not valid JSON)/);
    const obBody = (await ob.json()) as { Message: string; Errors: { ErrorCode: string; Message: string }[] };
    expect(obBody).toMatchObject({
      Message: message,
      Errors: [{ ErrorCode: 'UK.OBIE.Resource.InvalidFormat', Message: message }],
    });
  });
});
