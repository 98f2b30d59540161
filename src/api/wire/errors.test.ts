// What a thrown error becomes on the wire: here, a node's write refused because its lease went.
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { LeaseLostError, StoreError } from '../../store/store-error.ts';
import { failureOf, toErrorResponse } from './errors.ts';

describe('failureOf', () => {
  it('answers a write refused for a lost lease 503 with Retry-After, naming the refusal', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const f = failureOf(
      new LeaseLostError('the lease of node n1 at epoch 3 is no longer in force; the write was refused'),
      {
        method: 'POST',
        path: '/v1/organisation/accounts',
      },
    );
    expect(f).toMatchObject({ kind: 'refused', status: 503, headers: { 'Retry-After': '1' } });
    expect(f.message).toMatch(/the write was refused/);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^scheme-sim: 503 POST \/v1\/organisation\/accounts: /));
    warn.mockRestore();
  });

  it('keeps any other store failure a 500 that says nothing of internals', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const f = failureOf(new StoreError('cannot write data file /x'), {
      method: 'POST',
      path: '/v1/organisation/accounts',
    });
    expect(f).toMatchObject({ kind: 'internal', status: 500, message: 'internal error' });
    error.mockRestore();
  });

  it("answers in Form3's error shape through a route", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = new Hono();
    app.onError(toErrorResponse);
    app.post('/v1/organisation/accounts', () => {
      throw new LeaseLostError('the store at postgres://db/x is closed: the write was refused');
    });
    const res = await app.request('/v1/organisation/accounts', { method: 'POST' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as { error_message: string; error_code: string };
    expect(body.error_message).toMatch(/the write was refused/);
    expect(body.error_code).toMatch(/^[0-9a-f-]{36}$/);
    warn.mockRestore();
  });
});
