import { describe, expect, it } from 'vitest';
import { Faults } from './faults.ts';

const ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
const OTHER = '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11';

describe('fault rules', () => {
  it('match the route pattern (* within a segment, ** across) and the method', () => {
    const faults = new Faults();
    faults.add(ORG, { route: '/v1/organisation/accounts/*', method: 'GET', status: 503 });
    expect(faults.match(ORG, 'GET', '/v1/organisation/accounts/abc')).toBeDefined();
    expect(faults.match(ORG, 'GET', '/v1/organisation/accounts/abc/x')).toBeUndefined();
    expect(faults.match(ORG, 'POST', '/v1/organisation/accounts/abc')).toBeUndefined();
    faults.add(ORG, { route: '/v1/transaction/**', status: 500 });
    expect(faults.match(ORG, 'POST', '/v1/transaction/claims/1/submissions')).toBeDefined();
  });

  it("answer only the organisation's own requests, a count only so many times, a probability at random", () => {
    const faults = new Faults();
    const rule = faults.add(ORG, { route: '/v1/organisation/accounts', count: 2, status: 429 });
    expect(faults.match(OTHER, 'POST', '/v1/organisation/accounts')).toBeUndefined();
    expect(faults.match(ORG, 'POST', '/v1/organisation/accounts')?.id).toBe(rule.id);
    expect(faults.match(ORG, 'POST', '/v1/organisation/accounts')?.id).toBe(rule.id);
    expect(faults.match(ORG, 'POST', '/v1/organisation/accounts')).toBeUndefined();
    expect(rule).toMatchObject({ remaining: 0, injected: 2 });
    const coin = faults.add(ORG, { route: '/v1/notification/subscriptions', probability: 0.5, status: 503 });
    expect(faults.match(ORG, 'GET', '/v1/notification/subscriptions', () => 0.7)).toBeUndefined();
    expect(faults.match(ORG, 'GET', '/v1/notification/subscriptions', () => 0.2)?.id).toBe(coin.id);
  });

  it('are deleted only by their organisation', () => {
    const faults = new Faults();
    const rule = faults.add(ORG, { route: '/v1/**', status: 503 });
    expect(faults.delete(OTHER, rule.id)).toBe(false);
    expect(faults.list(ORG)).toHaveLength(1);
    expect(faults.delete(ORG, rule.id)).toBe(true);
    expect(faults.size).toBe(0);
  });
});
