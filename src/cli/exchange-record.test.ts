import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authOf, fingerprintOf, maskHeaders, maskToken, readRecording, recordBody } from './exchange-record.ts';

describe('what a recording keeps of a request and an answer', () => {
  it('masks credentials and signatures in headers, keeping the scheme and who', () => {
    const basic = `Basic ${Buffer.from('northwind-dev:northwind-dev-secret').toString('base64')}`;
    expect(
      maskHeaders({
        Authorization: 'Bearer abc.def',
        Signature: 'keyId="k",signature="xyz"',
        'X-JWS-Signature': 'eyJ..sig',
        Cookie: 'a=b',
        'Content-Type': 'application/json',
        Connection: 'keep-alive',
      }),
    ).toEqual({
      authorization: `Bearer ${maskToken('abc.def')}`,
      signature: '<masked>',
      'x-jws-signature': '<masked>',
      cookie: '<masked>',
      'content-type': 'application/json',
    });
    expect(maskHeaders({ authorization: basic })).toEqual({ authorization: 'Basic <masked>' });
    expect(authOf(basic)).toEqual({ scheme: 'basic', client_id: 'northwind-dev' });
    expect(authOf('Bearer abc.def')).toEqual({ scheme: 'bearer', token: maskToken('abc.def') });
    expect(fingerprintOf(maskToken('abc.def'))).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprintOf('<masked>')).toBeUndefined();
  });

  it('masks secrets in JSON and form bodies at any depth, tokens with their fingerprint', () => {
    const json = recordBody(
      Buffer.from(JSON.stringify({ access_token: 'tok', data: [{ attributes: { secret: 'whsec_x', name: 'kept' } }] })),
      'application/json; charset=utf-8',
    );
    expect(JSON.parse(json.body!)).toEqual({
      access_token: maskToken('tok'),
      data: [{ attributes: { secret: '<masked>', name: 'kept' } }],
    });
    const form = recordBody(
      Buffer.from('grant_type=client_credentials&client_id=northwind-dev&client_secret=s3cret'),
      'application/x-www-form-urlencoded',
    );
    expect(form.body).toBe('grant_type=client_credentials&client_id=northwind-dev&client_secret=%3Cmasked%3E');
  });

  it('keeps other text as it is, anything else as base64, and an empty body as none', () => {
    expect(recordBody(Buffer.from('<xml/>'), 'application/xml')).toEqual({ body: '<xml/>' });
    expect(recordBody(Buffer.from('%PDF-1.4'), 'application/pdf')).toEqual({
      body: Buffer.from('%PDF-1.4').toString('base64'),
      encoding: 'base64',
    });
    expect(recordBody(Buffer.alloc(0), 'application/json')).toEqual({});
  });

  it('reads a recording, naming the line that is not an exchange', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recording-'));
    try {
      const file = join(dir, 'r.jsonl');
      writeFileSync(
        file,
        `${JSON.stringify({ seq: 1, request: { method: 'GET', path: '/health', headers: {} } })}\n\n{"seq":2}\n`,
      );
      expect(() => readRecording(file)).toThrow(/r\.jsonl:3: not an exchange/);
      writeFileSync(file, '{oops\n');
      expect(() => readRecording(file)).toThrow(/r\.jsonl:1: not JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
