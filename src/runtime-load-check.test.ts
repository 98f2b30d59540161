import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populatedDataFile } from '../test/support/populated-data-file.ts';
import { createRuntime } from './runtime.ts';
import type { StoreDocument } from './store/store-data.ts';

type Data = StoreDocument & { collections: Record<string, Record<string, Record<string, unknown>>> };

let dir: string;
let sound: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'load-check-'));
  sound = readFileSync(await populatedDataFile(dir), 'utf8');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first record of a collection, and its id. */
function first(data: Data, collection: string): [string, Record<string, unknown>] {
  const entry = Object.entries(data.collections[collection] ?? {})[0];
  if (!entry) throw new Error(`the populated data file has no ${collection}`);
  return entry;
}

/** Replaces the first record of a collection by what `change` makes of a copy of it. */
function record(collection: string, change: (r: Record<string, unknown>) => unknown) {
  return (data: Data): [string, string] => {
    const [id, r] = first(data, collection);
    (data.collections[collection] as Record<string, unknown>)[id] = change(structuredClone(r));
    return [collection, id];
  };
}
const attributes = (change: (a: Record<string, unknown>) => void) => (r: Record<string, unknown>) => {
  change(r.attributes as Record<string, unknown>);
  return r;
};
function meta(key: string, value: unknown) {
  return (data: Data): [string, string] => {
    data.meta[key] = value;
    return ['meta', key];
  };
}

// Each corruption keeps the file sound JSON of the store's outer shape: the damage is inside.
const CORRUPTIONS: Array<[string, (data: Data) => [string, string]]> = [
  ['an account replaced by 5', record('accounts', () => 5)],
  ['an account replaced by null', record('accounts', () => null)],
  ['an account replaced by an array', record('accounts', () => [1, 2])],
  ['an account without attributes', record('accounts', ({ attributes: _, ...r }) => r)],
  [
    'a numeric bank_id',
    record(
      'accounts',
      attributes((a) => (a.bank_id = 400300)),
    ),
  ],
  [
    'a name that is a string',
    record(
      'accounts',
      attributes((a) => (a.name = 'Samantha Holder')),
    ),
  ],
  [
    'an attribute no account has',
    record(
      'accounts',
      attributes((a) => (a.colour = 'red')),
    ),
  ],
  ['a negative version', record('accounts', (r) => ({ ...r, version: -1 }))],
  ['an organisation_id that is no UUID', record('accounts', (r) => ({ ...r, organisation_id: 'northwind' }))],
  ['a created_on that is no timestamp', record('accounts', (r) => ({ ...r, created_on: 'yesterday' }))],
  [
    'an id that differs from its key',
    record('accounts', (r) => ({ ...r, id: '00000000-0000-4000-8000-000000000000' })),
  ],
  ['an account typed as a claim', record('accounts', (r) => ({ ...r, type: 'claims' }))],
  ['a scheduler job without due', record('scheduler_jobs', ({ due: _, ...j }) => j)],
  ['a scheduler job due "soon"', record('scheduler_jobs', (j) => ({ ...j, due: 'soon' }))],
  ['a scheduler job with a string seq', record('scheduler_jobs', (j) => ({ ...j, seq: '3' }))],
  ['a scheduler job without kind', record('scheduler_jobs', ({ kind: _, ...j }) => j)],
  ['a scheduler job replaced by a string', record('scheduler_jobs', () => 'job')],
  ['meta.auth_key = 42', meta('auth_key', 42)],
  ['meta.auth_key too short to sign with', meta('auth_key', 'abc')],
  ['meta.clock without mode', meta('clock', { virtual_ms: 0, wall_ms: 0, speed: 1 })],
  ['meta.clock.virtual_ms a string', meta('clock', { mode: 'frozen', virtual_ms: 'x', wall_ms: 0, speed: 1 })],
  ['meta.clock.speed 0', meta('clock', { mode: 'running', virtual_ms: 0, wall_ms: 0, speed: 0 })],
  ['meta.clock a string', meta('clock', 'frozen')],
  ['meta claims.sequence_number negative', meta('claims.sequence_number', -1)],
  ['meta cop_signing_keys with a numeric key', meta('cop_signing_keys', { x: { private_key: 5 } })],
  [
    'a subscription over carrier pigeon',
    record(
      'subscriptions',
      attributes((a) => (a.callback_transport = 'pigeon')),
    ),
  ],
  ['an empty subscription secret', record('subscription_secrets', (r) => ({ ...r, secret: '' }))],
  ['an outbox entry whose status is lost', record('notification_outbox', (r) => ({ ...r, status: 'lost' }))],
  ['an outbox entry queued "soon"', record('notification_outbox', (r) => ({ ...r, queued_at_ms: 'soon' }))],
  ['a delivery attempt numbered 0', record('notification_delivery_attempts', (r) => ({ ...r, attempt: 0 }))],
  ['a claim at version "1"', record('claims', (r) => ({ ...r, version: '1' }))],
  ['a submission whose relationships are 5', record('claim_submissions', (r) => ({ ...r, relationships: 5 }))],
  ['a payment with null attributes', record('payments', (r) => ({ ...r, attributes: null }))],
  ['a payment admission without id', record('payment_admissions', ({ id: _, ...r }) => r)],
  [
    'a report whose report_type is 7',
    record(
      'reports',
      attributes((a) => (a.report_type = 7)),
    ),
  ],
  ['a report admission created "yesterday"', record('report_admissions', (r) => ({ ...r, created_on: 'yesterday' }))],
  ['report rows that are not a list', record('report_rows', (r) => ({ ...r, rows: 'A1,A2' }))],
  ['a reversal without organisation_id', record('claim_reversals', ({ organisation_id: _, ...r }) => r)],
  ['a reversal submission at version 1.5', record('claim_reversal_submissions', (r) => ({ ...r, version: 1.5 }))],
  [
    'a collection scheme-sim does not keep',
    (data) => {
      data.collections.widgets = { w1: { id: 'w1' } };
      return ['widgets', 'w1'];
    },
  ],
];

describe('a data file that is sound JSON but wrong inside', () => {
  it('has at least 30 corruptions in the table', () => {
    expect(CORRUPTIONS.length).toBeGreaterThanOrEqual(30);
  });

  it('opens when nothing is wrong', async () => {
    const file = join(dir, 'sound.json');
    writeFileSync(file, sound);
    const rt = await createRuntime({ data: file, seedAccounts: false, scheduledReports: false });
    expect(rt.sim.accounts.repo.rows.size).toBe(2);
    await rt.close();
  });

  it.each(CORRUPTIONS)(
    'refuses %s naming the file and the record, in one line, the file untouched',
    async (name, corrupt) => {
      const data = JSON.parse(sound) as Data;
      const [collection, id] = corrupt(data);
      const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
      const bytes = JSON.stringify(data, null, 2);
      writeFileSync(file, bytes);
      const opened = createRuntime({ data: file, seedAccounts: false });
      await expect(opened).rejects.toThrow();
      const message = ((await opened.catch((e: Error) => e)) as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toContain(file);
      expect(message).toContain(`${collection} ${id}:`);
      expect(message).toContain('nothing was written');
      expect(readFileSync(file, 'utf8')).toBe(bytes);
      // The lock was released: a second try gets the same answer, not "in use".
      await expect(createRuntime({ data: file, seedAccounts: false })).rejects.toThrow(`${collection} ${id}:`);
    },
  );

  it('lists the first ten problems and counts the rest', async () => {
    const data = JSON.parse(sound) as Data;
    for (const r of Object.values(data.collections.reports!)) (r as Record<string, unknown>).version = -1;
    const file = join(dir, 'many.json');
    writeFileSync(file, JSON.stringify(data));
    const message = ((await createRuntime({ data: file }).catch((e: Error) => e)) as Error).message;
    const lines = message.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.slice(0, 10).every((l) => l.startsWith(`${file}: reports `))).toBe(true);
    expect(lines[10]).toMatch(/and \d+ more \(nothing was written/);
  });
});
