import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populatedDataFile } from '../../test/support/populated-data-file.ts';
import { storedData } from '../../test/support/stored-data.ts';
import { HARBOUR, NORTHWIND } from '../harness/test-runtime.ts';
import { createRuntime, type Runtime } from '../runtime.ts';
import { DEPENDENT_COLLECTIONS, ORGANISATION_COLLECTIONS } from './organisation-reset.ts';

let dir: string;
let file: string;
let rt: Runtime;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'org-reset-'));
  file = await populatedDataFile(dir);
  rt = await createRuntime({ data: file, seedAccounts: false, scheduledReports: false });
}, 60_000);
afterAll(async () => {
  await rt.close();
  rmSync(dir, { recursive: true, force: true });
});

type Row = { id: string; organisation_id?: string; owner?: string };
const rowsOf = (name: string) => rt.sim.store.collection<Row>(name).values();

describe('Simulator.resetOrganisation', () => {
  it('knows every collection a populated store holds', async () => {
    const names = Object.keys((await storedData(file)).collections);
    const known = new Set<string>([
      ...rt.sim.paths.types(),
      ...ORGANISATION_COLLECTIONS,
      ...DEPENDENT_COLLECTIONS,
      'scheduler_jobs',
    ]);
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });

  it("drops every row and job of the organisation, its dependents too, and nothing of another's", async () => {
    const org = NORTHWIND.organisation_id;
    const names = [...rt.sim.paths.types(), ...ORGANISATION_COLLECTIONS];
    const owned = new Set(
      names.flatMap((n) =>
        rowsOf(n)
          .filter((r) => r.organisation_id === org)
          .map((r) => r.id),
      ),
    );
    const others = names.flatMap((n) => rowsOf(n).filter((r) => r.organisation_id !== org));
    expect(owned.size).toBeGreaterThan(500); // the populated file holds a bit of everything
    expect(others.length).toBeGreaterThan(0);
    const dependents = DEPENDENT_COLLECTIONS.flatMap((n) => rowsOf(n).filter((r) => owned.has(r.id)));
    expect(dependents.length).toBeGreaterThan(0);

    const counts = await rt.sim.resetOrganisation(org);

    for (const n of names) expect(rowsOf(n).filter((r) => r.organisation_id === org)).toEqual([]);
    for (const n of DEPENDENT_COLLECTIONS) expect(rowsOf(n).filter((r) => owned.has(r.id))).toEqual([]);
    expect(rowsOf('scheduler_jobs').filter((j) => j.owner === org)).toEqual([]);
    expect(names.flatMap((n) => rowsOf(n).filter((r) => r.organisation_id !== org))).toEqual(others);
    expect(Object.values(counts.records).reduce((a, b) => a + b, 0)).toBe(owned.size + dependents.length);
    expect(rt.sim.accounts.repo.listFor(HARBOUR.organisation_id)).toHaveLength(1);
  });
});
