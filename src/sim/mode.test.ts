import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveMode } from './mode.ts';

const SRC = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('resolveMode', () => {
  it("is Form3's by default: credentials, Form3's account rules, nothing strict", () => {
    expect(resolveMode()).toEqual({
      auth: 'on',
      credentials: true,
      accounts: 'form3',
      wire: 'form3',
      copStrict: false,
      strictBodies: false,
      seedAccounts: true,
      seedPayments: true,
    });
  });

  it("with auth off is the fake account API's: no credentials, its account rules", () => {
    expect(resolveMode({ auth: 'off', copStrict: true, strict: true })).toEqual({
      auth: 'off',
      credentials: false,
      accounts: 'fake-account-api',
      wire: 'fake-account-api',
      copStrict: true,
      strictBodies: true,
      seedAccounts: false,
      seedPayments: true,
    });
  });

  it('opens the seed accounts unless the fake account API (it starts empty), as the options ask either way', () => {
    expect(resolveMode({ auth: 'off', seedAccounts: true }).seedAccounts).toBe(true);
    expect(resolveMode({ seedAccounts: false }).seedAccounts).toBe(false);
  });

  it('admits the seed payments with auth off too (the fake API has none), none when the options refuse seeds', () => {
    expect(resolveMode({ auth: 'off' }).seedPayments).toBe(true);
    expect(resolveMode({ auth: 'off', seedAccounts: false }).seedPayments).toBe(false);
    expect(resolveMode({ seedAccounts: false }).seedPayments).toBe(false);
  });

  it('refuses an auth that is neither on nor off, and cannot be changed once resolved', () => {
    expect(() => resolveMode({ auth: 'maybe' as 'on' })).toThrow('auth must be on or off, got maybe');
    const mode = resolveMode();
    expect(Object.isFrozen(mode)).toBe(true);
  });
});

/** A condition on what the mode says of auth: `if (!x.mode.credentials)`, `mode.accounts === …`, `mode.auth ? …`. */
const CHOICE_BY_AUTH_MODE =
  /(\bif\s*\(|[?!]|&&|\|\|)\s*[\w.]*\bmode\.(auth|credentials|accounts|wire)\b|\bmode\.(auth|credentials|accounts|wire)\s*(===|!==|\?|&&|\|\|)/;

describe('the mode decides in one place', () => {
  it('knows a choice by the auth mode from a report of it', () => {
    for (const choice of [
      'if (!deps.mode.credentials) return;',
      "const fakeApi = deps.mode.accounts === 'fake-account-api';",
      'const scope = deps.mode.credentials ? org : undefined;',
      'return mode.auth && other;',
    ])
      expect(CHOICE_BY_AUTH_MODE.test(choice), choice).toBe(true);
    expect(CHOICE_BY_AUTH_MODE.test('c.json({ auth: deps.mode.auth })')).toBe(false);
    expect(CHOICE_BY_AUTH_MODE.test('const strict = deps.mode.strictBodies;')).toBe(false);
  });

  it('no source but mode.ts tests the auth word (auth === off), and no route reads what the mode says of auth', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const name = relative(SRC, file);
      const text = readFileSync(file, 'utf8');
      // The CLI checks its --auth argument, and the dashboard's browser script reads /health's
      // `auth`; neither is a rule of the server, and neither spells it this way.
      if (name !== join('sim', 'mode.ts') && /auth\s*===\s*'(on|off)'|mode\.auth\s*[!=]==/.test(text))
        offenders.push(`${name}: tests the auth word`);
      // Reporting the mode (/health says `auth`) is no choice; a condition on it is.
      if (name.startsWith(join('api', 'routes')) && CHOICE_BY_AUTH_MODE.test(text))
        offenders.push(`${name}: a route chooses by the auth mode`);
    }
    expect(offenders).toEqual([]);
  });
});
