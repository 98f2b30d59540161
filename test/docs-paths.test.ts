// Docs point at real code: every repository path README.md, CONTRIBUTING.md and docs/ name exists,
// and docs/design.md lists every decision of docs/decisions/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decisionsNotListed, missingPaths, pathsNamedIn } from './support/doc-paths.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('the documentation', () => {
  it('names only repository paths that exist', () => {
    expect(missingPaths(ROOT).map((p) => `${p.page}:${p.line} ${p.path}`)).toEqual([]);
  });

  it('lists every decision in docs/design.md', () => {
    expect(decisionsNotListed(ROOT)).toEqual([]);
  });
});

describe('the docs-paths check (a test of the test)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  function tree(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'docs-paths-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('fails on a deliberately wrong path, in a link or in the text, and passes the right ones', () => {
    const root = tree({
      'src/sim/claims/claims.ts': '',
      'src/api/routes/claims.ts': '',
      'docs/design.md': 'Nothing decided.\n',
      'docs/decisions/.keep': '',
      'docs/claims.md': [
        'The rules live in `src/sim/claims/claims.ts` and src/sim/claims/ (see [the design](design.md#layers)).',
        'Signing lives in src/sim/notifications/signing.ts, per [the page](notifications.md).',
        'Each report at `src/sim/reports/{kind}.ts`; the old `src/old.ts` (removed by decision 9).',
        'Routes in `src/api/routes/{claims,payments}.ts`; tests in src/sim/claims/*.test.ts and src/sim/claims/*.ts.',
      ].join('\n'),
    });
    expect(pathsNamedIn(root, 'docs/claims.md').map((p) => p.resolved)).toEqual([
      'docs/design.md',
      'src/sim/claims/claims.ts',
      'src/sim/claims/',
      'docs/notifications.md',
      'src/sim/notifications/signing.ts',
      'src/sim/reports/{kind}.ts',
      'src/api/routes/{claims,payments}.ts',
      'src/sim/claims/*.test.ts',
      'src/sim/claims/*.ts',
    ]);
    expect(missingPaths(root, ['docs/claims.md']).map((p) => `${p.line} ${p.path}`)).toEqual([
      '2 notifications.md',
      '2 src/sim/notifications/signing.ts',
      '3 src/sim/reports/{kind}.ts',
      '4 src/api/routes/{claims,payments}.ts',
      '4 src/sim/claims/*.test.ts',
    ]);
  });

  it('fails when a decision is not listed in docs/design.md', () => {
    const root = tree({
      'docs/design.md': '- [001 One](decisions/001-one.md)\n',
      'docs/decisions/001-one.md': '# 001 One\n',
      'docs/decisions/002-two.md': '# 002 Two\n',
    });
    expect(decisionsNotListed(root)).toEqual(['002-two.md']);
  });
});
