import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { damageCases, type Store } from '../../test/support/damage-cases.ts';
import { changeStore, compactedStore, journalOnlyStore } from '../../test/support/damaged-store.ts';
import { STORED_SECRETS, storedRecordProblem } from '../api/stored-records.ts';
import { folderState } from '../harness/store-files.ts';
import { testRuntime } from '../harness/test-runtime.ts';
import { openStore } from '../store/store.ts';
import { DAMAGE_KINDS } from '../store/store-damage.ts';
import { doctorCommand } from './doctor.ts';

// Every row of docs/store.md's table "Damaged stores", as a case: the damage, what start-up and
// doctor both say of it, and what the store holds after `doctor --fix` (or after start-up, for the
// cases start-up repairs itself). Refusals change no byte of any file: the folder is compared whole.

let root: string;
/** A store whose whole history is its journal, and one with 3 accounts in its snapshot and 3 in its journal. */
const bases = { journalOnly: '', compacted: '' };
const ids = { journalOnly: [] as string[], early: [] as string[], late: [] as string[] };
/** The token key of each base store. */
const authKeys = { journalOnly: undefined as unknown, compacted: undefined as unknown };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'doctor-damage-'));
  bases.journalOnly = join(root, 'journal-only');
  bases.compacted = join(root, 'compacted');
  mkdirSync(bases.journalOnly);
  mkdirSync(bases.compacted);
  ids.journalOnly = (await journalOnlyStore(join(bases.journalOnly, 'sim.json'))).accounts;
  const c = await compactedStore(join(bases.compacted, 'sim.json'));
  ids.early = c.early;
  ids.late = c.late;
  authKeys.journalOnly = (await startUp(join(bases.journalOnly, 'sim.json'))).authKey;
  authKeys.compacted = (await startUp(join(bases.compacted, 'sim.json'))).authKey;
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let copies = 0;
function copyOf(base: string): Store {
  const dir = join(root, `case-${copies++}`);
  cpSync(base, dir, { recursive: true });
  const file = join(dir, 'sim.json');
  return { dir, file, journal: `${file}.journal` };
}

/** Start-up's reading of the store (what createRuntime opens it with): the accounts and token key, or the refusal. */
async function startUp(file: string) {
  const warnings: string[] = [];
  try {
    const store = await openStore({
      file,
      check: storedRecordProblem,
      secrets: STORED_SECRETS,
      warn: (m) => warnings.push(m),
    });
    const accounts = store
      .collection('accounts')
      .values()
      .map((r) => r.id);
    const key = store.getMeta('auth_key');
    await store.close();
    return { accounts, authKey: key, warnings, error: undefined };
  } catch (err) {
    return { accounts: undefined, authKey: undefined, warnings, error: (err as Error).message };
  }
}

async function doctor(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await doctorCommand(args, (l) => lines.push(l));
  return { code, lines };
}

const CASES = damageCases(ids);

describe('damaged stores: start-up and doctor agree, refusals change nothing, --fix does what doctor said', () => {
  it.each(CASES.map((c) => [`${c.kind}: ${c.label}`, c] as const))('%s', async (_name, c) => {
    const s = copyOf(bases[c.base]);
    await c.damage(s);
    const says = c.says(s);
    const before = folderState(s.dir);

    const report = await doctor('--data', s.file);
    expect(report.lines.filter((l) => l.startsWith(says))).toHaveLength(1);
    expect(report.code).toBe(c.startUp === 'refuses' ? 1 : 0);
    expect(folderState(s.dir)).toEqual(before);

    const started = await startUp(s.file);
    if (c.startUp === 'refuses') {
      expect(started.error).toBeDefined();
      expect(started.error!.startsWith(says), `start-up said: ${started.error}`).toBe(true);
      expect(folderState(s.dir)).toEqual(before);
    } else {
      expect(started.error).toBeUndefined();
      expect(started.accounts).toEqual(c.after!());
      expect(started.authKey).toBe(authKeys[c.base]);
      expect((await doctor('--data', s.file)).code).toBe(0);
      return;
    }

    const fix = await doctor('--data', s.file, '--fix');
    if (!c.after) {
      expect(fix.code).toBe(1);
      expect(fix.lines[0]!.startsWith(says), `--fix said: ${fix.lines[0]}`).toBe(true);
      expect(folderState(s.dir)).toEqual(before);
      return;
    }
    expect(fix.code).toBe(0);
    const repaired = await startUp(s.file);
    expect(repaired.error).toBeUndefined();
    expect(repaired.accounts).toEqual(c.after());
    // The token key survives every repair but those that lost it, and those say so.
    const keyLost = fix.lines.some((l) => l === 'forgot meta auth_key: start-up makes a new one');
    expect(repaired.authKey === undefined).toBe(keyLost);
    if (!keyLost) expect(repaired.authKey).toBe(authKeys[c.base]);
    expect((await doctor('--data', s.file)).code).toBe(0);
  });

  it('covers every kind of damage the store knows', () => {
    expect(new Set(CASES.map((c) => c.kind))).toEqual(new Set([...DAMAGE_KINDS, 'lost-secret', 'bad-record']));
  });

  it('has a row in docs/store.md for every case, and a case for every row', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/store.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Damaged stores'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| case')));
    const rows = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(new Set(rows)).toEqual(new Set(CASES.map((c) => c.kind)));
  });

  it('a store that lost its token key starts again after --fix, with a new key that issues tokens', async () => {
    const s = copyOf(bases.compacted);
    await changeStore(s.file, (data) => {
      delete data.meta.auth_key;
    });
    expect((await doctor('--data', s.file, '--fix')).code).toBe(0);
    const rt = await testRuntime({ memory: false, data: s.file });
    try {
      expect(rt.sim.store.getMeta('auth_key')).not.toBe(authKeys.compacted);
      expect((await rt.call('GET', `/v1/organisation/accounts/${ids.late[0]}`)).status).toBe(200);
    } finally {
      await rt.close();
    }
    expect((await startUp(s.file)).error).toBeUndefined();
  });

  it('`scheme-sim start` refuses a journal without its snapshot, naming the file and changing nothing', async () => {
    const s = copyOf(bases.compacted);
    rmSync(s.file);
    const before = folderState(s.dir);
    const bin = join(import.meta.dirname, '../../bin/scheme-sim.mjs');
    const outcome = await promisify(execFile)(process.execPath, [bin, 'start', '--port', '0', '--data', s.file]).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain(`scheme-sim: ${s.file}: is missing, but ${s.journal} is there`);
    expect(folderState(s.dir)).toEqual(before);
  }, 60_000);
});
