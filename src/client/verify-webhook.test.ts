import { describe, expect, it } from 'vitest';
import { signatureHeaders } from '../signatures/notifications/standard-webhooks.ts';
import { verifyWebhook } from './verify-webhook.ts';

describe('verifyWebhook (the receiver’s check on the request as it arrived)', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const at = new Date('2026-12-21T09:00:00.000Z');
  const body = '{"event_type":"created"}';
  const sent = signatureHeaders(secret, 'msg_1', at, body);

  it('accepts Node request headers and fetch Headers alike', () => {
    expect(verifyWebhook(secret, { ...sent, 'content-type': 'application/json' }, body, at)).toBe(true);
    expect(verifyWebhook(secret, new Headers({ ...sent }), body, at)).toBe(true);
  });

  it('refuses a changed body, a missing header, another secret or a stale timestamp', () => {
    expect(verifyWebhook(secret, sent, `${body} `, at)).toBe(false);
    expect(
      verifyWebhook(secret, { 'webhook-id': 'msg_1', 'webhook-timestamp': sent['webhook-timestamp'] }, body, at),
    ).toBe(false);
    expect(
      verifyWebhook('whsec_' + Buffer.from('another secret of enough bytes!!').toString('base64'), sent, body, at),
    ).toBe(false);
    expect(verifyWebhook(secret, sent, body, new Date(at.getTime() + 10 * 60_000))).toBe(false);
  });
});
