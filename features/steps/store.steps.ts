// The store's engines in process: a journal file or a real PostgreSQL server (one for the run,
// a database per scenario), a restart that reopens the same store, and long work seen from a client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AfterAll, Given, Then, When } from '@cucumber/cucumber';
import { type PostgresServer, postgresBinDir, startPostgres } from '../../src/harness/postgres-server.ts';
import { doctorFix, doctorReport, folderState } from '../../src/harness/store-files.ts';
import type { SimWorld } from '../support/world.ts';

const folders: string[] = [];
let postgres: Promise<PostgresServer> | undefined;

AfterAll(async () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  if (postgres) await (await postgres).stop();
});

function inProcessOnly(world: SimWorld, what: string): void {
  if (world.target.name !== 'inprocess') throw new Error(`${what} only in process; tag the scenario @inprocess`);
}

Given('the simulator keeps its data in a journal file', async function (this: SimWorld) {
  inProcessOnly(this, 'the store can be chosen');
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-feature-store-'));
  folders.push(dir);
  await this.open(this.receiver, { ...this.openedWith, store: { data: join(dir, 'sim.json') } });
});

Given('the simulator keeps its data in PostgreSQL', async function (this: SimWorld) {
  inProcessOnly(this, 'the store can be chosen');
  if (!postgresBinDir())
    throw new Error(
      'PostgreSQL binaries not found under /usr/lib/postgresql: install the postgresql package (bash .ci/run does)',
    );
  postgres ??= startPostgres();
  const url = await (await postgres).createDatabase();
  await this.open(this.receiver, { ...this.openedWith, store: { postgres: url } });
});

When('the simulator restarts', async function (this: SimWorld) {
  inProcessOnly(this, 'the simulator restarts');
  // Closing flushes and releases the store; the new runtime opens the same file or database.
  await this.open(this.receiver, this.openedWith);
});

/** A store damaged while the simulator was stopped: its file, and its folder as the damage left it. */
interface DamagedStore {
  file: string;
  folder: Record<string, string>;
  refusal?: string;
}
const damaged = new WeakMap<SimWorld, DamagedStore>();

function damagedStore(world: SimWorld): DamagedStore {
  const store = damaged.get(world);
  if (!store) throw new Error('no store was damaged in this scenario');
  return store;
}

// In process, with a journal file: stops the simulator and deletes its snapshot or journal.
When("the simulator stops and the store's {word} goes missing", async function (this: SimWorld, which: string) {
  inProcessOnly(this, 'a store can be damaged');
  const store = this.openedWith.store;
  if (!store || !('data' in store)) throw new Error('the simulator keeps no journal file in this scenario');
  if (which !== 'snapshot' && which !== 'journal') throw new Error(`no store file "${which}": snapshot or journal`);
  await this.target.close();
  rmSync(which === 'snapshot' ? store.data : `${store.data}.journal`);
  damaged.set(this, { file: store.data, folder: folderState(dirname(store.data)) });
});

// Start-up must refuse, naming the data file first, and leave every file of the store as it was.
Then('starting the simulator is refused, saying {string}', async function (this: SimWorld, text: string) {
  const store = damagedStore(this);
  const refusal = await this.open(this.receiver, this.openedWith).then(
    () => undefined,
    (err: Error) => err.message,
  );
  if (refusal === undefined) throw new Error('the simulator started');
  if (!refusal.startsWith(`${store.file}`) || !refusal.includes(text)) throw new Error(`start-up said: ${refusal}`);
  if (JSON.stringify(folderState(dirname(store.file))) !== JSON.stringify(store.folder))
    throw new Error('a file of the store changed');
  store.refusal = refusal;
});

// `scheme-sim doctor` must print the line start-up refused with, and exit 1.
Then('scheme-sim doctor reports the same, and exits 1', async function (this: SimWorld) {
  const store = damagedStore(this);
  const { refuses, lines } = await doctorReport(store.file);
  const said = store.refusal!.slice(0, store.refusal!.indexOf('; nothing was changed'));
  if (!refuses || !lines.some((l) => l.startsWith(said)))
    throw new Error(`doctor ${refuses ? 'refused' : 'passed'} saying:\n${lines.join('\n')}\nnot: ${said}`);
});

// Runs `scheme-sim doctor --fix` (it must exit 0), then starts the simulator on the repaired store.
When('scheme-sim doctor --fix repairs the store and the simulator starts again', async function (this: SimWorld) {
  const store = damagedStore(this);
  if (!(await doctorFix(store.file))) throw new Error('doctor --fix found nothing to repair');
  await this.open(this.receiver, this.openedWith);
});

/** The advance sent in the background, and whether its answer has come. */
interface PendingAdvance {
  answer: Promise<{ status: number; text: string }>;
  answered: boolean;
}
const pending = new WeakMap<SimWorld, PendingAdvance>();

When('an advance of {int} working days starts', async function (this: SimWorld, days: number) {
  const token = this.client === null ? undefined : await this.token(this.client);
  const request = new Request(`${this.target.baseUrl}/v1/simulator/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ working_days: days }),
  });
  const advance: PendingAdvance = { answered: false, answer: Promise.resolve({ status: 0, text: '' }) };
  advance.answer = this.target.fetch(request).then(async (res) => {
    const text = await res.text();
    advance.answered = true;
    return { status: res.status, text };
  });
  pending.set(this, advance);
  // Give the advance the event loop once, so it has started (its first slice) before the next step.
  await new Promise((resolve) => setImmediate(resolve));
});

function advanceOf(world: SimWorld): PendingAdvance {
  const advance = pending.get(world);
  if (!advance) throw new Error('no advance was started in this scenario');
  return advance;
}

Then('the advance is still running', function (this: SimWorld) {
  if (advanceOf(this).answered) throw new Error('the advance had already answered');
});

Then('the advance had answered before that response', function (this: SimWorld) {
  if (!advanceOf(this).answered) throw new Error('the response came while the advance was still running');
});

Then('the advance answers {int}', async function (this: SimWorld, status: number) {
  const answer = await advanceOf(this).answer;
  if (answer.status !== status) throw new Error(`the advance answered ${answer.status}: ${answer.text}`);
});
