import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version of the installed scheme-sim package (package.json beside src/ and dist/). */
export function packageVersion(): string {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}
