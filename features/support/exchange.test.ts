import { describe, expect, it } from 'vitest';
import { describeBody, formatExchange, maskSecret } from './exchange.ts';

describe('maskSecret', () => {
  it('keeps the scheme and the ends of a token, never the token', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.payload.signature-part';
    const masked = maskSecret(`Bearer ${token}`);
    expect(masked).toBe(`Bearer eyJh…part (${token.length} chars)`);
    expect(masked).not.toContain('payload');
  });

  it('hides a short secret whole', () => {
    expect(maskSecret('Basic abc')).toBe('Basic ***');
    expect(maskSecret('short')).toBe('***');
  });
});

describe('formatExchange', () => {
  it('shows the request and the response as an HTTP trace, secrets masked', () => {
    const text = formatExchange(
      {
        method: 'POST',
        url: 'http://scheme-sim.test/v1/organisation/accounts',
        headers: new Headers({ authorization: 'Bearer 0123456789abcdef', 'content-type': 'application/json' }),
        body: '{"data":{}}',
      },
      { status: 400, headers: new Headers({ 'content-type': 'application/json' }), text: '{"error_message":"x"}' },
    );
    expect(text).toBe(
      [
        'POST http://scheme-sim.test/v1/organisation/accounts',
        'authorization: Bearer 0123…cdef (16 chars)',
        'content-type: application/json',
        '',
        '{"data":{}}',
        '',
        'HTTP 400',
        'content-type: application/json',
        '',
        '{"error_message":"x"}',
      ].join('\n'),
    );
  });

  it('cuts a long body and says how long it was', () => {
    const text = formatExchange(
      { method: 'GET', url: 'http://x/y', headers: new Headers() },
      { status: 200, headers: new Headers(), text: 'a'.repeat(5000) },
    );
    expect(text).toContain('… (5000 chars)');
    expect(text.length).toBeLessThan(4_200);
  });

  it('says when there was no response, and gives bytes by their size', () => {
    expect(formatExchange({ method: 'GET', url: 'http://x/', headers: new Headers() }, undefined)).toBe(
      'GET http://x/\n\n(no response)',
    );
    expect(describeBody(new Uint8Array(12))).toBe('(12 bytes)');
    expect(describeBody(undefined)).toBeUndefined();
  });
});
