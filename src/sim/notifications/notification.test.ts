import { describe, expect, it } from 'vitest';
import type { RecordEvent } from '../events.ts';
import { buildNotification, dataRecordTypeOf, matchesFilter, subscriptionMatches } from './notification.ts';
import type { Subscription } from './subscriptions.ts';
import '../accounts.ts'; // registers the accounts path

const ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
const account = {
  id: 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc',
  type: 'accounts',
  version: 2,
  organisation_id: ORG,
  created_on: '2026-12-21T09:00:00.000Z',
  modified_on: '2026-12-21T09:00:00.000Z',
  attributes: { country: 'GB', bank_id: '400300', joint_account: false, name: ['Sam Holder'] },
};
const event: RecordEvent = { event_type: 'created', record_type: 'accounts', record: account };
const sub = (attributes: Partial<Subscription['attributes']> = {}, organisation_id = ORG): Subscription => ({
  id: '6f0d7d4e-2c1b-4d5a-9b8e-1a2b3c4d5e6f',
  type: 'subscriptions',
  version: 0,
  organisation_id,
  created_on: account.created_on,
  modified_on: account.created_on,
  attributes: {
    event_type: 'created',
    record_type: 'accounts',
    callback_transport: 'http',
    callback_uri: 'http://x/',
    deactivated: false,
    user_id: '5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b',
    has_secret: false,
    ...attributes,
  },
});

describe('matching', () => {
  it('needs the same organisation, event type and record type, and an active subscription', () => {
    expect(subscriptionMatches(sub(), event)).toBe(true);
    expect(subscriptionMatches(sub({ event_type: 'updated' }), event)).toBe(false);
    expect(subscriptionMatches(sub({ record_type: 'subscriptions' }), event)).toBe(false);
    expect(subscriptionMatches(sub({ deactivated: true }), event)).toBe(false);
    expect(subscriptionMatches(sub({}, '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11'), event)).toBe(false);
  });

  it('applies a filter of dotted paths compared as strings', () => {
    expect(matchesFilter('attributes.country=GB and version=2', account)).toBe(true);
    expect(matchesFilter('attributes.joint_account=false and attributes.name.0="Sam Holder"', account)).toBe(true);
    expect(matchesFilter('attributes.country=FR', account)).toBe(false);
    expect(matchesFilter('attributes.missing=x', account)).toBe(false);
    expect(matchesFilter('attributes=[object Object]', account)).toBe(false);
    expect(subscriptionMatches(sub({ filter: 'attributes.bank_id=999999' }), event)).toBe(false);
  });
});

describe('envelope', () => {
  it('carries the record GET body, the scheme time and the actor, and snapshots the record', () => {
    const record = structuredClone(account);
    const n = buildNotification(
      { ...event, record },
      { data: record, links: { self: `/v1/organisation/accounts/${record.id}` } },
      sub({ user_defined_data: [{ key: 'team', value: 'ops' }] }),
      new Date('2026-12-21T09:30:00Z'),
      'northwind-dev',
      'b5f7a8c2-0000-4000-8000-000000000001',
    );
    expect(n).toEqual({
      id: 'b5f7a8c2-0000-4000-8000-000000000001',
      organisation_id: ORG,
      version: 0,
      event_type: 'created',
      record_type: 'accounts',
      data_record_type: 'Account',
      action_time: '2026-12-21T09:30:00.000Z',
      actioned_by: 'northwind-dev',
      data: { data: account, links: { self: `/v1/organisation/accounts/${account.id}` } },
      user_defined_data: [{ key: 'team', value: 'ops' }],
    });
    record.attributes.country = 'FR';
    expect((n.data.data as typeof account).attributes.country).toBe('GB');
  });
});

describe('data_record_type', () => {
  it("is Form3's singular PascalCase name of the resource type", () => {
    expect(
      [
        'accounts',
        'report_admissions',
        'payment_admissions',
        'claim_submissions',
        'claim_reversal_submissions',
        'subscriptions',
      ].map(dataRecordTypeOf),
    ).toEqual([
      'Account',
      'ReportAdmission',
      'PaymentAdmission',
      'ClaimSubmission',
      'ClaimReversalSubmission',
      'Subscription',
    ]);
  });
});
