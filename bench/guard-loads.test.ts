import { describe, expect, it } from 'vitest';
import { NAME_VERIFICATION_BODIES, newNameBody } from './guard-loads.ts';
// @ts-expect-error: a plain .mjs load hook, without types
import { load } from './sign-afresh-hooks.mjs';

const nameOf = (body: string) => (JSON.parse(body) as { Data: { Name: string } }).Data.Name;

describe('the ratio guard loads (bench/guard-loads.ts)', () => {
  it('asks a name new to the matcher every time, even once spacing and case are ignored', () => {
    const names = Array.from({ length: 20_000 }, (_, n) => nameOf(newNameBody(n)).toLowerCase().replace(/\s+/g, ''));
    expect(new Set(names).size).toBe(names.length);
  });

  it('asks each account in turn, every one with a well-formed request', () => {
    const accounts = new Set(
      Array.from({ length: 24 }, (_, n) => (JSON.parse(newNameBody(n)) as { Data: { Identification: string } }).Data),
    );
    const ids = new Set([...accounts].map((d) => d.Identification));
    expect(ids.size).toBe(12);
    for (const d of accounts)
      expect(d).toMatchObject({ SchemeName: 'SortCodeAccountNumber', AccountType: expect.any(String) });
  });

  it('keeps three fixed bodies for the repeated load', () => {
    expect(new Set(NAME_VERIFICATION_BODIES).size).toBe(3);
  });
});

describe('the sign-afresh load hook (bench/sign-afresh-hooks.mjs)', () => {
  const SIGNER = 'file:///x/dist/api/open-banking/responder-signer.js';
  const loaded = (source: string) => async () => ({ format: 'module', source });

  it("sets the responder signer's cache size default to 0", async () => {
    const out = await load(SIGNER, {}, loaded('constructor(k, w, p, cacheEntries = DEFAULT_SIGNATURE_CACHE) {}'));
    expect(out.source).toBe('constructor(k, w, p, cacheEntries = 0) {}');
  });

  it('throws when the signer no longer reads that default, rather than measuring cached signatures', async () => {
    await expect(load(SIGNER, {}, loaded('constructor(k, w, p, size = 4096) {}'))).rejects.toThrow(/update the hook/);
  });

  it('leaves every other module as it was', async () => {
    const source = 'cacheEntries = DEFAULT_SIGNATURE_CACHE';
    const out = await load('file:///x/dist/api/other.js', {}, loaded(source));
    expect(out.source).toBe(source);
  });
});
