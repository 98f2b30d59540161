import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime, FIXTURES_DIR } from '../src/runtime.ts';
import { hasValidCheckDigits } from '../src/sim/iban.ts';
import { generateSeedAccounts } from './seed-accounts.ts';

const read = (f: string) => JSON.parse(readFileSync(join(FIXTURES_DIR, f), 'utf8'));

describe('seed accounts', () => {
  it('fixtures/accounts.json is what the generator makes (deterministic, fixed seed)', () => {
    expect(read('accounts.json')).toEqual(generateSeedAccounts(read('participants.json'), read('organisations.json')));
  });

  it('uses only sort codes the owning participant serves, and organisations that exist', () => {
    const participants = read('participants.json') as Array<{ organisation_id: string; sort_codes: string[] }>;
    const organisations = new Set((read('organisations.json') as Array<{ id: string }>).map((o) => o.id));
    for (const p of participants) expect(organisations.has(p.organisation_id)).toBe(true);
    for (const a of read('accounts.json') as Array<{ organisation_id: string; attributes: { bank_id: string } }>) {
      const owner = participants.find((p) => p.organisation_id === a.organisation_id);
      expect(owner?.sort_codes).toContain(a.attributes.bank_id);
    }
  });

  it('hold the BIC registered to their organisation and IBANs with valid check digits', () => {
    const organisations = read('organisations.json') as Array<{ id: string; bics: string[]; bank_ids: string[] }>;
    const accounts = read('accounts.json') as Array<{
      organisation_id: string;
      attributes: { bic: string; bank_id: string; iban: string };
    }>;
    for (const a of accounts) {
      const org = organisations.find((o) => o.id === a.organisation_id)!;
      expect(org.bics).toContain(a.attributes.bic);
      expect(org.bank_ids).toContain(a.attributes.bank_id);
      expect(hasValidCheckDigits(a.attributes.iban), a.attributes.iban).toBe(true);
    }
  });

  it('are loaded by createRuntime into an empty store so CoP answers out of the box', async () => {
    const rt = await createRuntime({ memory: true });
    const seeded = read('accounts.json').length;
    expect(rt.sim.accounts.repo.rows.size).toBe(seeded);
    const report = rt.sim.nameVerification.matchName('0015800001041REAAY', {
      accountType: 'Personal',
      identification: '40030012345678',
      name: 'Sam Holder',
    });
    expect(report).toEqual({ Matched: false, ReasonCode: 'MBAM', Name: 'Samantha Holder' });
    await rt.close();
    const off = await createRuntime({ memory: true, seedAccounts: false });
    expect(off.sim.accounts.repo.rows.size).toBe(0);
    await off.close();
  });

  it('are not loaded when the store already holds accounts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cop-seed-'));
    const data = join(dir, 'sim.json');
    const first = await createRuntime({ data, seedAccounts: false });
    first.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
      attributes: { name: ['Only One'], bank_id: '400300', account_number: '11111111' },
    });
    await first.close();
    const second = await createRuntime({ data });
    expect(second.sim.accounts.repo.rows.size).toBe(1);
    await second.close();
  });
});

describe('the worked examples of docs/cop.md', () => {
  const doc = readFileSync(join(FIXTURES_DIR, '..', 'docs', 'cop.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### A worked example per code'));
  const rows = section
    .slice(0, section.indexOf('\n\n', section.indexOf('| code |')))
    .split('\n')
    .filter((l) => /^\| (\(full\)|[A-Z0-9]{4}) \|/.test(l))
    .map(
      (l) =>
        l
          .split('|')
          .map((c) => c.trim())
          .slice(1, 5) as [string, string, string, string],
    );

  it('has one example per reason code and a full match', () => {
    expect(rows.map((r) => r[0]).sort()).toEqual(
      ['(full)', 'AC01', 'ACNS', 'ANNM', 'BAMM', 'BANM', 'CASS', 'IVCR', 'MBAM', 'OPTO', 'PAMM', 'PANM', 'SCNS'].sort(),
    );
  });

  it.each(rows)('%s: %s %s "%s" on the seed accounts', async (code, identification, type, name) => {
    const rt = await createRuntime({ memory: true });
    const report = rt.sim.nameVerification.matchName('0015800001041REAAY', {
      accountType: type as 'Personal' | 'Business',
      identification,
      name: name.replace(/\s*\(.*\)$/, ''),
    });
    expect(report.ReasonCode ?? '(full)').toBe(code);
    await rt.close();
  });
});
