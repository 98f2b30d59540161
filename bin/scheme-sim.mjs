#!/usr/bin/env node
// Runs the built CLI (dist/, made by `npm run build` and on install) when it is current, so
// `scheme-sim --help` answers at once; otherwise the TypeScript sources through tsx, so a clone
// with edited sources (or without a build) works too.
import { fileURLToPath } from 'node:url';
import { distIsCurrent } from './dist-current.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

async function fromSource() {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}

if (distIsCurrent(root) && process.env.SCHEME_SIM_FROM_SOURCE !== '1') {
  try {
    await import(new URL('../dist/cli/main.js', import.meta.url).href);
  } catch (err) {
    // dist/ replaced while loading (a rebuild): the sources are the same program.
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' && !(err instanceof SyntaxError)) throw err;
    await fromSource();
  }
} else await fromSource();
