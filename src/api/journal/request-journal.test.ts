import { describe, expect, it } from 'vitest';
import { headerPairs } from './journal-codec.ts';
import {
  clip,
  JOURNAL_BODY_LIMIT,
  maskBody,
  maskHeaders,
  type NotedRequest,
  RequestJournal,
} from './request-journal.ts';

const entry = (over: Partial<Parameters<RequestJournal['record']>[0]> = {}) => ({
  time: '2026-11-25T00:00:00.000Z',
  scheme_time: '2026-12-21T09:00:00.000Z',
  method: 'GET',
  path: '/v1/organisation/accounts',
  query: '',
  headers: {},
  status: 200,
  duration_ms: 1,
  organisation_id: 'a',
  ...over,
});

const noted = (over: Partial<NotedRequest> = {}): NotedRequest => ({
  at: Date.parse('2026-11-25T00:00:00.000Z'),
  schemeAt: Date.parse('2026-12-21T09:00:00.000Z'),
  durationUs: 1500,
  method: 'POST',
  target: '/v1/organisation/accounts',
  headers: [],
  status: 201,
  clientId: undefined,
  organisationId: 'a',
  body: undefined,
  answer: undefined,
  errorKey: 'error_code',
  ...over,
});

describe('RequestJournal', () => {
  it('keeps the newest entries first and drops the oldest beyond its size', () => {
    const j = new RequestJournal(3);
    for (let i = 0; i < 5; i++) j.record(entry({ path: `/v1/${i}` }));
    expect(j.list(undefined).map((e) => e.path)).toEqual(['/v1/4', '/v1/3', '/v1/2']);
  });

  it('filters by status or status class, method, path prefix and error_code, within an organisation', () => {
    const j = new RequestJournal();
    j.record(entry({ status: 404, error_code: 'e1' }));
    j.record(entry({ status: 400, method: 'POST', path: '/v1/transaction/claims' }));
    j.record(entry({ status: 201, method: 'POST', organisation_id: 'b' }));
    expect(j.list('a', { status: '4xx' })).toHaveLength(2);
    expect(j.list('a', { status: '404' }).map((e) => e.error_code)).toEqual(['e1']);
    expect(j.list('a', { method: 'post' }).map((e) => e.status)).toEqual([400]);
    expect(j.list('a', { path: '/v1/transaction' })).toHaveLength(1);
    expect(j.list('a', { error_code: 'e1' })).toHaveLength(1);
    expect(j.list('b')).toHaveLength(1);
  });

  it("clears one organisation's entries and keeps the others in order", () => {
    const j = new RequestJournal(4);
    for (const org of ['a', 'b', 'a', 'b', 'b']) j.record(entry({ organisation_id: org, path: `/${org}` }));
    expect(j.clear('a')).toBe(1);
    expect(j.list(undefined).map((e) => e.organisation_id)).toEqual(['b', 'b', 'b']);
    j.record(entry({ organisation_id: 'c' }));
    expect(j.list(undefined).map((e) => e.organisation_id)).toEqual(['c', 'b', 'b', 'b']);
  });

  it('keeps a noted request as bytes, and makes its entry when read with the same id each time', () => {
    const j = new RequestJournal();
    const body = Buffer.from('{"Data":{"Name":"Zoë"}}');
    j.recordNoted(
      noted({ body, headers: ['authorization', 'Bearer abc.def', 'accept', 'a', 'accept', 'b'], target: '/v1/x?y=1' }),
    );
    body.fill(0); // nothing of what was given is kept by reference
    const [first] = j.list(undefined);
    expect(first).toMatchObject({
      method: 'POST',
      path: '/v1/x',
      query: 'y=1',
      headers: { authorization: 'Bearer ***', accept: 'a, b' },
      body: '{"Data":{"Name":"Zoë"}}',
      status: 201,
      duration_ms: 1.5,
      time: '2026-11-25T00:00:00.000Z',
      scheme_time: '2026-12-21T09:00:00.000Z',
      organisation_id: 'a',
    });
    expect(first!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(j.list(undefined)[0]!.id).toBe(first!.id);
  });

  it('names an error answer’s code in Form3’s words or Open Banking’s, and makes a list page again when read', () => {
    const j = new RequestJournal();
    j.recordNoted(noted({ status: 400, answer: '{"error_code":"e-1","error_message":"no"}' }));
    j.recordNoted(noted({ status: 403, answer: '{"Id":"ob-1","Code":"UK.OBIE.Unauthorised"}', errorKey: 'Id' }));
    let made = 0;
    j.recordNoted(noted({ answer: () => `page ${++made}` }));
    const [page, ob, form3] = j.list(undefined);
    expect([form3!.error_code, ob!.error_code, page!.response_body]).toEqual(['e-1', 'ob-1', 'page 1']);
    expect(j.list(undefined)[0]!.response_body).toBe('page 2');
  });

  it('shows a header named like an Object member as it came, and an empty body as none', () => {
    const j = new RequestJournal();
    j.recordNoted(noted({ headers: ['constructor', 'x', 'toString', 'y'], body: '' }));
    const [e] = j.list(undefined);
    expect(e!.headers).toEqual({ constructor: 'x', toString: 'y' });
    expect('body' in e!).toBe(false);
  });

  it('makes no entry of another organisation’s request for a client', () => {
    const j = new RequestJournal();
    let made = 0;
    j.recordNoted(noted({ organisationId: 'b', answer: () => `page ${++made}` }));
    j.recordNoted(noted({ organisationId: 'a' }));
    expect(j.list('a').map((e) => e.organisation_id)).toEqual(['a']);
    expect(made).toBe(0);
  });

  it('tells a listener at once, with the id the journal then shows', () => {
    const j = new RequestJournal();
    const seen: string[] = [];
    j.onRecord((e) => seen.push(e.id));
    j.recordNoted(noted());
    expect(seen).toEqual([j.list(undefined)[0]!.id]);
  });

  it('clips a long body, given as text or as bytes, and says it was cut', () => {
    const j = new RequestJournal();
    j.recordNoted(
      noted({ body: 'é'.repeat(JOURNAL_BODY_LIMIT + 5), answer: Buffer.from('x'.repeat(5 * JOURNAL_BODY_LIMIT)) }),
    );
    const [e] = j.list(undefined);
    expect(e!.body).toBe('é'.repeat(JOURNAL_BODY_LIMIT));
    expect(e!.response_body).toBe('x'.repeat(JOURNAL_BODY_LIMIT));
    expect([e!.body_truncated, e!.response_truncated]).toEqual([true, true]);
  });

  it('tells its listeners of each entry, even when it keeps none', () => {
    const j = new RequestJournal(0);
    const seen: string[] = [];
    j.onRecord((e) => seen.push(e.path));
    j.record(entry());
    expect(seen).toEqual(['/v1/organisation/accounts']);
    expect(j.list(undefined)).toEqual([]);
    expect(() => new RequestJournal(-1)).toThrow(RangeError);
  });
});

describe('what the journal keeps of a request', () => {
  it('masks credentials in headers and token bodies', () => {
    const headers = new Headers({
      authorization: 'Bearer abc.def',
      signature: 'keyId="k"',
      accept: 'application/json',
    });
    expect(maskHeaders(headerPairs(headers))).toEqual({
      authorization: 'Bearer ***',
      signature: '***',
      accept: 'application/json',
    });
    expect(maskBody('grant_type=client_credentials&client_secret=s3cret&client_id=x')).toBe(
      'grant_type=client_credentials&client_secret=***&client_id=x',
    );
    expect(maskBody('{"client_secret": "s3cret"}')).toBe('{"client_secret": "***"}');
  });

  it('clips bodies at 64 KB', () => {
    expect(clip('x'.repeat(JOURNAL_BODY_LIMIT + 1))).toEqual({ text: 'x'.repeat(JOURNAL_BODY_LIMIT), truncated: true });
    expect(clip('{}')).toEqual({ text: '{}', truncated: false });
  });
});
