#!/usr/bin/env node
// Runs the built CLI (dist/, made by `npm run build` and on install) when it is current, so
// `scheme-sim --help` answers at once; otherwise the TypeScript sources through tsx, so a clone
// with edited sources (or without a build) works too.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'cli', 'main.js');

/** The newest modification time of the sources (ms), or Infinity when they cannot be read. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

let current = false;
try {
  current = statSync(built).mtimeMs >= newestSource(join(root, 'src'));
} catch {
  current = false;
}

if (current && process.env.SCHEME_SIM_FROM_SOURCE !== '1') {
  await import(built);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
