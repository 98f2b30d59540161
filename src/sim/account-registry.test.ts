import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

let rt: TestRuntime | undefined;
afterEach(() => rt?.close());

const ORG = NORTHWIND.organisation_id;
const gb = (extra: Record<string, unknown> = {}) => ({
  country: 'GB',
  bank_id: NORTHWIND.bank.bank_id,
  bic: NORTHWIND.bank.bic,
  name: ['Ada Lovelace'],
  ...extra,
});
const texts = (failures: Array<{ text: string }>) => failures.map((f) => f.text);

describe("the account registry under Form3's rules (auth on)", () => {
  it("applies Form3's creation rules to the caller's organisation and completes what Form3 generates", async () => {
    rt = await testRuntime();
    const registry = rt.sim.accountRegistry;
    expect(registry.anyOrganisation).toBe(false);
    expect(
      texts(registry.createFailures(ORG, { organisation_id: ORG, attributes: gb({ bank_id: '999999' }) })),
    ).toEqual([expect.stringContaining('bank_id in body 999999 is not registered to organisation')]);
    // Another organisation's create is refused by tenancy (403), not by these rules.
    expect(registry.createFailures(ORG, { organisation_id: HARBOUR.organisation_id, attributes: {} })).toEqual([]);
    const account = registry.create({ id: randomUUID(), organisation_id: ORG, attributes: gb() });
    expect(account.attributes.account_number).toMatch(/^[0-9]{8}$/);
    expect(registry.scopeOf(HARBOUR.organisation_id, account.id)).toBe(HARBOUR.organisation_id);
    expect(registry.list(HARBOUR.organisation_id, {})).toEqual([]);
    expect(texts(registry.changeFailures(ORG, account.attributes, { bic: 'HRBRGB2L' }))).toEqual([
      expect.stringContaining('bic in body HRBRGB2L is not registered'),
    ]);
  });
});

describe("the account registry under the fake account API's rules (auth off)", () => {
  it('asks a name only, takes any organisation, and finds a record in whichever organisation holds it', async () => {
    rt = await testRuntime({ auth: 'off' });
    const registry = rt.sim.accountRegistry;
    expect(registry.anyOrganisation).toBe(true);
    expect(texts(registry.createFailures(ORG, { attributes: { country: 'GB' } }))).toEqual([
      expect.stringContaining('name'),
    ]);
    const other = randomUUID();
    expect(registry.createFailures(ORG, { organisation_id: other, attributes: gb({ bank_id: '999999' }) })).toEqual([]);
    const account = registry.create({
      id: randomUUID(),
      organisation_id: other,
      attributes: gb({ bank_id: '999999' }),
    });
    expect(account.attributes.account_number).toBeUndefined();
    expect(registry.scopeOf(ORG, account.id)).toBe(other);
    expect(registry.scopeOf(ORG, randomUUID())).toBe(ORG);
    expect(registry.list(ORG, {}).map((a) => a.id)).toContain(account.id);
    expect(registry.changeFailures(other, account.attributes, { bic: 'HRBRGB2L' })).toEqual([]);
  });
});
