import { describe, expect, it } from 'vitest';
import {
  digestOf,
  formatSignature,
  isAlgorithmAccepted,
  MissingSignedHeader,
  parseSignature,
  requestTarget,
  signingString,
} from './cavage.ts';

describe('parseSignature', () => {
  it('reads the header as Form3’s SDK writes it (Authorization, a space before signature)', () => {
    expect(
      parseSignature(
        'Signature keyId="k-1",algorithm="rsa-sha256",headers="(request-target) host date", signature="c2ln"',
      ),
    ).toEqual({
      keyId: 'k-1',
      algorithm: 'rsa-sha256',
      headers: ['(request-target)', 'host', 'date'],
      signature: 'c2ln',
    });
  });

  it('reads a notification’s Signature header, names in any case and split on any whitespace', () => {
    expect(parseSignature('keyId="k-2",headers="(Request-Target)  Host\tDATE digest",signature="eA=="')).toEqual({
      keyId: 'k-2',
      algorithm: undefined,
      headers: ['(request-target)', 'host', 'date', 'digest'],
      signature: 'eA==',
    });
  });

  it('leaves out what the header lacks, an empty header list included', () => {
    expect(parseSignature('Signature nonsense')).toEqual({
      keyId: undefined,
      algorithm: undefined,
      headers: undefined,
      signature: undefined,
    });
    expect(parseSignature('keyId="k",headers="",signature="s"').headers).toBeUndefined();
  });

  it('reads what formatSignature writes, in both spacings', () => {
    const p = { keyId: 'k-3', headers: ['date', 'digest'], signature: 'c2ln' };
    expect(formatSignature(p)).toBe('keyId="k-3",algorithm="rsa-sha256",headers="date digest",signature="c2ln"');
    expect(formatSignature(p, { sdkSpacing: true })).toBe(
      'keyId="k-3",algorithm="rsa-sha256",headers="date digest", signature="c2ln"',
    );
    for (const text of [formatSignature(p), formatSignature(p, { sdkSpacing: true })])
      expect(parseSignature(text)).toEqual({ ...p, algorithm: 'rsa-sha256' });
  });
});

describe('signingString', () => {
  it('joins name: value lines in the order given, (request-target) included', () => {
    const values: Record<string, string> = {
      '(request-target)': requestTarget('POST', '/v1/x?a=1'),
      host: 'h.test',
      date: 'D',
    };
    expect(signingString(['(request-target)', 'host', 'date'], (h) => values[h])).toBe(
      '(request-target): post /v1/x?a=1\nhost: h.test\ndate: D',
    );
  });

  it('names a signed header that is missing', () => {
    expect(() => signingString(['date', 'digest'], (h) => (h === 'date' ? 'D' : undefined))).toThrow(
      new MissingSignedHeader('digest'),
    );
  });
});

describe('digestOf and the algorithm', () => {
  it('digests a string as UTF-8, as its bytes would be', () => {
    expect(digestOf('£')).toBe(digestOf(new Uint8Array([0xc2, 0xa3])));
    expect(digestOf('{}')).toBe('SHA-256=RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=');
  });

  it('accepts rsa-sha256 in any case, or no algorithm, and nothing else', () => {
    expect([undefined, '', 'rsa-sha256', 'RSA-SHA256'].map(isAlgorithmAccepted)).toEqual([true, true, true, true]);
    expect(['hmac-sha256', 'hs2019'].map(isAlgorithmAccepted)).toEqual([false, false]);
  });
});
