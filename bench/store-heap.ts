// Child process of bench/store.ts: the heap of a runtime holding N accounts, after a forced GC.
//   node --expose-gc --import tsx bench/store-heap.ts journal <snapshot file> <n>
//   node --expose-gc --import tsx bench/store-heap.ts memory - <n>
// Prints one JSON line: {"heapUsed": bytes, "accounts": n}.
import { createRuntime } from '../src/runtime.ts';
import { seedAccounts, templateAccount } from './store-rows.ts';

const [engine, file, size] = process.argv.slice(2);
const n = Number(size);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench/store-heap.ts needs node --expose-gc');
const { row } = await templateAccount();
const common = { auth: 'off', seedAccounts: false, scheduledReports: false } as const;
const rt =
  engine === 'journal' && file
    ? await createRuntime({ ...common, data: file })
    : await createRuntime({ ...common, memory: true });
if (engine !== 'journal') await seedAccounts(rt, row, n);
for (let i = 0; i < 3; i++) gc();
const heapUsed = process.memoryUsage().heapUsed;
const accounts = rt.sim.store.collection('accounts').size;
await rt.close();
console.log(JSON.stringify({ heapUsed, accounts }));
