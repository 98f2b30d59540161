import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime.ts';
import { CliError } from './cli-errors.ts';
import { keysCommand } from './keys.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keys-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scheme-sim keys create', () => {
  it('writes a private key and prints the public_keys entry that verifies its signatures', () => {
    const out: string[] = [];
    const file = join(dir, 'signing.pem');
    expect(keysCommand(['create', '--out', file], (l) => out.push(l))).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const entry = JSON.parse(out[1]!) as { key_id: string; public_key: string };
    expect(entry.key_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const message = Buffer.from('(request-target): get /v1/organisation/accounts');
    const signature = sign('sha256', message, createPrivateKey(readFileSync(file)));
    expect(verify('sha256', message, createPublicKey(entry.public_key), signature)).toBe(true);
  });

  it('refuses to overwrite a file, a missing --out and an unknown subcommand', () => {
    const file = join(dir, 'signing.pem');
    keysCommand(['create', '--out', file], () => {});
    expect(() => keysCommand(['create', '--out', file], () => {})).toThrow(/exists; choose another/);
    expect(() => keysCommand(['create'], () => {})).toThrow(CliError);
    expect(() => keysCommand(['turn'], () => {})).toThrow("unknown keys command 'turn'");
  });
});

describe('scheme-sim keys rotate', () => {
  it('gives the data file a new notification key and keeps the earlier one fetchable', async () => {
    const data = join(dir, 'sim.json');
    const first = await createRuntime({ data, seedAccounts: false, scheduledReports: false });
    const old = first.sim.notificationKeys.current().id;
    await first.sim.store.commit();
    await first.close();
    const out: string[] = [];
    await expect(keysCommand(['rotate', '--data', data], (l) => out.push(l))).resolves.toBe(0);
    const again = await createRuntime({ data, seedAccounts: false, scheduledReports: false });
    try {
      const keys = again.sim.notificationKeys.all();
      expect(keys.map((k) => k.id)[0]).toBe(old);
      expect(keys[0]!.retired_on).toBeDefined();
      expect(again.sim.notificationKeys.current().id).toBe(keys[1]!.id);
      expect(out[0]).toContain(`signed with key ${keys[1]!.id}; 1 earlier key(s) stay fetchable`);
    } finally {
      await again.close();
    }
    await expect(keysCommand(['rotate', '--data', join(dir, 'none.json')], () => {})).rejects.toThrow('no data file');
  });
});
