// A child process for the crash tests (src/store/journal-crash.test.ts): opens a journal store and
// writes from several concurrent writers until it is killed, printing `ack <id>` for each row only
// after its commit resolved. The parent kills it with SIGKILL at a random moment.
import { openStore } from '../../src/store/store.ts';

const [file, writersArg, startArg] = process.argv.slice(2);
if (!file) throw new Error('usage: crash-writer FILE WRITERS START');
const writers = Number(writersArg ?? 4);
let next = Number(startArg ?? 0);

// Compaction is made frequent, so kills land inside it too.
const store = await openStore({ file, compaction: { bytes: 16 * 1024, minBytes: 0 }, warn: () => undefined });
process.stdout.write('ready\n');

async function writer(w: number): Promise<never> {
  for (;;) {
    const id = `row-${next++}`;
    store.atomically(() => {
      store.collection('rows').put({ id, writer: w, payload: 'x'.repeat(200 + (next % 300)) } as { id: string });
      store.setMeta(`last-${w}`, id);
    });
    await store.commit();
    process.stdout.write(`ack ${id}\n`);
  }
}

await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
