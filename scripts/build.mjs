// `npm run build` (and `prepare`): dist/ for consumers that run plain Node, vitest or jest without tsx.
// dist/ mirrors src/ at the same depth, so the modules' own relative reads (../fixtures, ../../fixtures,
// the schemas beside src/api/schemas/index.ts) resolve the same from either tree.

import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url)); // not import.meta.dirname: Node 20 before 20.11 lacks it
const dist = join(root, 'dist');

// An install without devDependencies (`npm ci --omit=dev`) runs `prepare` too, but has no compiler:
// the simulator still runs from the sources through tsx, so that is not a failure.
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.warn(
    'scheme-sim: typescript is not installed (an install without devDependencies?); dist/ not built. npm start and the bin run from the sources.',
  );
  process.exit(0);
}

// A clean tree: a source deleted since the last build must not linger as a stale module.
rmSync(dist, { recursive: true, force: true });

const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

// tsc copies no JSON it does not import; the schema loader reads every *.json beside itself.
const schemas = join('api', 'schemas');
for (const name of readdirSync(join(root, 'src', schemas)).filter((f) => f.endsWith('.json'))) {
  copyFileSync(join(root, 'src', schemas, name), join(dist, schemas, name));
}

// Every validator compiled now, not at each start-up (src/api/schemas/precompile.ts): the built
// index.js loads precompiled-<set>.js from beside itself.
const { precompiledSource } = await import(pathToFileURL(join(dist, schemas, 'precompile.js')).href);
for (const set of ['refusing', 'dropping', 'storing']) {
  writeFileSync(join(dist, schemas, `precompiled-${set}.js`), precompiledSource(set, 'esm'));
}
