import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { templateAccount, writeAccountsSnapshot } from './store-rows.ts';

const file = '/tmp/start1m/sim.json';
if (!existsSync(file)) {
  const { row } = await templateAccount();
  const t = performance.now();
  await writeAccountsSnapshot(file, row, 1_000_000);
  console.log('written', Math.round(performance.now() - t), 'ms');
}
