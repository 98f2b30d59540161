import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthDuringAdvance } from './store-advance.ts';

const r = await healthDuringAdvance(mkdtempSync(join(tmpdir(), 'adv-')));
console.log(JSON.stringify(r, null, 1));
