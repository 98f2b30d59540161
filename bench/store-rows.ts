// Accounts for bench/store.ts, made fast: one account created through the API of an in-memory
// runtime is the template; N clones of it (new ids, distinct account numbers) seed a store
// without N HTTP creates, shaped exactly as stored accounts are, so the load check passes.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { ISSUED_SECRETS_META } from '../src/store/issued-secrets.ts';
import { journalPaths } from '../src/store/journal-paths.ts';
import { encodeRecord } from '../src/store/journal-record.ts';
import { rewriteStore } from '../src/store/journal-rewrite.ts';
import type { StoreData } from '../src/store/store.ts';

export type StoredAccount = { id: string; attributes: Record<string, unknown> } & Record<string, unknown>;

export const BANK_ID = '400300';
/** Account numbers of seeded rows start here; those of the loaded creates at CREATED_FROM. */
export const SEEDED_FROM = 10_000_000;
export const CREATED_FROM = 50_000_000;

/** The create body of account `n` (fake account API: `--auth off`). */
export function createBody(organisationId: string, n: number, id: string = randomUUID()): string {
  return JSON.stringify({
    data: {
      id,
      organisation_id: organisationId,
      type: 'accounts',
      attributes: {
        country: 'GB',
        bank_id: BANK_ID,
        bank_id_code: 'GBDSC',
        account_number: String(n),
        name: ['Samantha Holder'],
      },
    },
  });
}

/** One account created through the API, as the store holds it, and the organisation it is in. */
export async function templateAccount(): Promise<{ row: StoredAccount; organisationId: string }> {
  const rt = await createRuntime({ memory: true, auth: 'off', seedAccounts: false, scheduledReports: false });
  try {
    const organisationId = rt.sim.organisations.defaultOrganisation.id;
    const res = await rt.app.request('/v1/organisation/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: createBody(organisationId, SEEDED_FROM - 1),
    });
    if (res.status !== 201) throw new Error(`template account: ${res.status} ${await res.text()}`);
    const row = rt.sim.store.collection<StoredAccount>('accounts').values()[0];
    if (!row) throw new Error('template account: not stored');
    return { row, organisationId };
  } finally {
    await rt.close();
  }
}

/** Clone `i` of the template: a new id and its own account number (the index is on sort code + number). */
export function cloneAccount(template: StoredAccount, i: number): StoredAccount {
  return {
    ...template,
    id: randomUUID(),
    attributes: { ...template.attributes, account_number: String(SEEDED_FROM + i) },
  };
}

/**
 * Writes a journal-engine store holding `n` clones of the template (and nothing else): a snapshot,
 * and a journal that is empty, or holds the last clones in records up to `journalBytes` long in all
 * (the accounts created since the last compaction, as a store in use has them).
 */
export async function writeAccountsSnapshot(
  file: string,
  template: StoredAccount,
  n: number,
  journalBytes = 0,
): Promise<{ journaled: number }> {
  const rows = Array.from({ length: n }, (_, i) => cloneAccount(template, i));
  const lines: string[] = [];
  let bytes = 0;
  let journaled = 0;
  // 1,000 accounts a record, from the end, while the journal stays within journalBytes.
  while (journalBytes > 0 && journaled < n) {
    const unit = rows.slice(Math.max(0, n - journaled - 1000), n - journaled);
    const changed = new Map<string, StoredAccount>(unit.map((row) => [row.id, row]));
    const line = encodeRecord(1, {
      rows: new Map([['accounts', changed]]),
      placed: new Map([['accounts', new Set(changed.keys())]]),
      meta: new Map(),
    });
    if (bytes + Buffer.byteLength(line) > journalBytes) break;
    lines.unshift(line);
    bytes += Buffer.byteLength(line);
    journaled += unit.length;
  }
  const accounts = new Map<string, StoredAccount>(rows.slice(0, n - journaled).map((row) => [row.id, row]));
  // An empty ledger of issued secrets: the store has handed out none, so start-up makes the token key.
  const data: StoreData = { format: 1, meta: { [ISSUED_SECRETS_META]: [] }, collections: { accounts } };
  await rewriteStore(file, 0, data);
  // Sequence numbers after the snapshot's (0), in order.
  if (lines.length > 0)
    writeFileSync(journalPaths(file).journal, lines.map((line, k) => renumbered(line, k + 1)).join(''));
  return { journaled };
}

/** A journal line of `encodeRecord(1, …)` given sequence number `seq` (its checksum made anew). */
function renumbered(line: string, seq: number): string {
  const record = JSON.parse(line.slice(9)) as { seq: number };
  record.seq = seq;
  return `${crc32(JSON.stringify(record)).toString(16).padStart(8, '0')} ${JSON.stringify(record)}\n`;
}

/**
 * Puts `n` clones straight into a runtime's store in one unit and commits once. Each row is its
 * own parsed object (as rows made from request bodies or read from a file are), not one sharing
 * the template's strings and arrays, so heap figures compare like with like.
 */
export async function seedAccounts(rt: Runtime, template: StoredAccount, n: number): Promise<void> {
  const accounts = rt.sim.store.collection<StoredAccount>('accounts');
  rt.sim.store.atomically(() => {
    for (let i = 0; i < n; i++) accounts.put(JSON.parse(JSON.stringify(cloneAccount(template, i))) as StoredAccount);
  });
  await rt.sim.store.commit();
}
