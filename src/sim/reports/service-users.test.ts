import { describe, expect, it } from 'vitest';
import { readFixtures } from '../../fixtures.ts';
import { bacsText, serviceUserOf, validateServiceUsers } from './service-users.ts';

const fixtures = readFixtures();

describe('service users', () => {
  it('has an entry for every organisation of the fixtures', () => {
    for (const o of fixtures.organisations) {
      expect(
        fixtures.reportServiceUsers.some((s) => s.organisation_id === o.id),
        o.name,
      ).toBe(true);
    }
  });

  it('names the entry and the field of a broken fixture', () => {
    const good = fixtures.reportServiceUsers[1]!;
    const broken = (change: object) => [{ ...good, ...change }];
    expect(() => validateServiceUsers(broken({ service_user_number: '12345' }))).toThrow(
      /entry 0 \(5b5a6b4d.*\): service_user_number must be 6 digits/,
    );
    expect(() => validateServiceUsers(broken({ service_user_name: 'Harbour Building Society' }))).toThrow(
      /service_user_name must be 1-18 characters/,
    );
    expect(() => validateServiceUsers(broken({ originating_accounts: [] }))).toThrow(/at least one account/);
    expect(() =>
      validateServiceUsers(
        broken({ originating_accounts: [{ ...good.originating_accounts[0], sort_code: '30-96-34' }] }),
      ),
    ).toThrow(/originating_accounts\[0\].sort_code must be 6 digits/);
    expect(() => validateServiceUsers({})).toThrow(/must be an array/);
  });

  it('derives a complete, stable service user for an organisation the fixture does not list', () => {
    const organisation = {
      id: 'f00dfeed-0000-4000-8000-000000000001',
      name: "O'Hara & Daughters (Leeds) Ltd",
      sponsor: false,
    };
    const a = serviceUserOf(organisation, []);
    expect(a).toEqual(serviceUserOf(organisation, []));
    expect(a.service_user_number).toMatch(/^\d{6}$/);
    expect(a.service_user_name).toBe('OHARA & DAUGHTERS');
    expect(() => validateServiceUsers([a])).not.toThrow();
  });

  it('keeps names to the Bacs character set', () => {
    expect(bacsText("  o'brien-smith  &  co. ltd/uk ")).toBe('OBRIEN-SMITH & CO.');
    expect(bacsText('Zoë 😀')).toBe('ZO');
  });
});
