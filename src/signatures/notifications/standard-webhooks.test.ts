import { describe, expect, it } from 'vitest';
import { secretProblem, sign, signatureHeaders, verify } from './standard-webhooks.ts';

// The example of the Standard Webhooks specification (and the svix libraries' tests).
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('Standard Webhooks signing', () => {
  it('reproduces the specification example', () => {
    expect(sign(SPEC.secret, SPEC.id, SPEC.timestamp, SPEC.body)).toBe(SPEC.signature);
  });

  it('builds the three headers with the timestamp in seconds', () => {
    const h = signatureHeaders(SPEC.secret, SPEC.id, new Date(SPEC.timestamp * 1000 + 999), SPEC.body);
    expect(h).toEqual({
      'webhook-id': SPEC.id,
      'webhook-timestamp': String(SPEC.timestamp),
      'webhook-signature': SPEC.signature,
    });
  });

  it('verifies, among several signatures, and refuses a changed body, another secret or a stale timestamp', () => {
    const at = new Date(SPEC.timestamp * 1000);
    const headers = { id: SPEC.id, timestamp: String(SPEC.timestamp), signature: `v1,AAAA ${SPEC.signature}` };
    expect(verify(SPEC.secret, headers, SPEC.body, at)).toBe(true);
    expect(verify(SPEC.secret, headers, SPEC.body.replace('2', '3'), at)).toBe(false);
    expect(verify(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, headers, SPEC.body, at)).toBe(false);
    expect(verify(SPEC.secret, headers, SPEC.body, new Date(at.getTime() + 301_000))).toBe(false);
    expect(verify(SPEC.secret, { ...headers, signature: SPEC.signature.replace('v1,', 'v2,') }, SPEC.body, at)).toBe(
      false,
    );
  });

  it('accepts only whsec_ secrets of 24–64 bytes', () => {
    expect(secretProblem(SPEC.secret)).toBeUndefined();
    expect(secretProblem('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toMatch(/whsec_/);
    expect(secretProblem(`whsec_${Buffer.alloc(16).toString('base64')}`)).toMatch(/24 to 64 bytes, got 16/);
    expect(secretProblem(`whsec_${Buffer.alloc(65).toString('base64')}`)).toMatch(/got 65/);
  });
});
