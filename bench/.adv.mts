import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthDuringAdvance } from './store-advance.ts';

const r = await healthDuringAdvance(mkdtempSync(join(tmpdir(), 'adv-')));
console.log(JSON.stringify(r, null, 1));
const sl = (globalThis as any).__slices as number[][];
const by = (i: number) =>
  sl
    .map((x) => x[i]!)
    .sort((a, b) => b - a)
    .slice(0, 8)
    .map((x) => x.toFixed(1))
    .join(' ');
console.log('slices', sl.length, 'work max', by(0), '| commit sync max', by(1), '| jobs max', by(2));
