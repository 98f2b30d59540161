// Whether dist/ was built after the last change to the sources: the bin runs dist/ only then, and
// the package test rebuilds only when it is not (a rebuild replaces dist/ under running commands).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time of the sources (ms). */
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

/** True when dist/cli/main.js is at least as new as every source of src/. */
export function distIsCurrent(root) {
  try {
    return statSync(join(root, 'dist', 'cli', 'main.js')).mtimeMs >= newestSource(join(root, 'src'));
  } catch {
    return false;
  }
}
