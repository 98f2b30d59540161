// package.json's `engines` against the tree package-lock.json installs: every Node version the
// package promises is one each installed package accepts, so `npm ci` on any of them prints no
// EBADENGINE (docs/dependencies.md, "Node versions").
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const read = (name: string) => JSON.parse(readFileSync(join(ROOT, name), 'utf8'));

/** The packages of the lock whose `engines.node` does not accept every version `promised` names. */
function narrowerEngines(
  promised: string,
  lock: { packages: Record<string, { version?: string; engines?: unknown }> },
): string[] {
  const found: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const node = (entry.engines as { node?: unknown } | undefined)?.node;
    if (path === '' || typeof node !== 'string') continue;
    if (!semver.subset(promised, node)) found.push(`${path}@${entry.version}: node ${node}`);
  }
  return found;
}

describe('engines', () => {
  const promised = read('package.json').engines.node as string;

  it('promises only Node versions every installed package accepts', () => {
    expect(narrowerEngines(promised, read('package-lock.json'))).toEqual([]);
  });

  it('includes the Node this check runs on, and finds a package that needs a newer one', () => {
    expect(semver.satisfies(process.version, promised)).toBe(true);
    // cookie@2, as light-my-request@6.8 pulled it in before the override.
    const cookie2 = { packages: { 'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } } } };
    expect(narrowerEngines(promised, cookie2)).toEqual(['node_modules/cookie@2.0.2: node >=22']);
  });
});
