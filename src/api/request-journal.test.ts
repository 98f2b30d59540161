import { describe, expect, it } from 'vitest';
import { clip, JOURNAL_BODY_LIMIT, maskBody, maskHeaders, RequestJournal } from './request-journal.ts';

const entry = (over: Partial<Parameters<RequestJournal['record']>[0]> = {}) => ({
  time: '2026-11-25T00:00:00.000Z',
  method: 'GET',
  path: '/v1/organisation/accounts',
  query: '',
  headers: {},
  status: 200,
  duration_ms: 1,
  organisation_id: 'a',
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

  it('makes an entry given as a function only when it is read, once', () => {
    const j = new RequestJournal();
    let made = 0;
    j.record(() => {
      made++;
      return entry({ path: '/v1/lazy' });
    });
    expect(made).toBe(0);
    expect(j.list(undefined).map((e) => e.path)).toEqual(['/v1/lazy']);
    expect(j.list(undefined)[0]!.id).toBe(j.list(undefined)[0]!.id);
    expect(made).toBe(1);
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
    expect(maskHeaders(headers)).toEqual({ authorization: 'Bearer ***', signature: '***', accept: 'application/json' });
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
