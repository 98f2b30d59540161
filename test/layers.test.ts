import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers, importsOf, layerOf, ruleBroken } from './support/layers.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('the layers of docs/design.md', () => {
  it('hold for every import in the repository', () => {
    expect(checkLayers(ROOT)).toEqual([]);
  });
});

describe('the layers checker (a test of the test)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function tree(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'layers-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('fails on an upward import added to a clean tree', () => {
    const clean = {
      'src/clock/clock.ts': 'export const now = 1;\n',
      'src/sim/claims.ts': "import { now } from '../clock/clock.ts';\nexport const c = now;\n",
      'src/api/app.ts': "import { c } from '../sim/claims.ts';\nexport const a = c;\n",
    };
    expect(checkLayers(tree(clean))).toEqual([]);
    rmSync(dir!, { recursive: true, force: true });
    const upward = { ...clean, 'src/clock/clock.ts': "import { a } from '../api/app.ts';\nexport const now = a;\n" };
    expect(checkLayers(tree(upward))).toEqual([
      { file: 'src/clock/clock.ts', imports: '../api/app.ts', rule: 'src/clock must not import src/api' },
    ]);
  });

  it.each([
    ['src/clock/a.ts', 'src/sim/b.ts'],
    ['src/clock/a.ts', 'src/store/b.ts'],
    ['src/store/a.ts', 'src/sim/b.ts'],
    ['src/store/a.ts', 'src/api/b.ts'],
    ['src/sim/a.ts', 'src/api/b.ts'],
    ['src/sim/a.ts', 'src/delivery/b.ts'],
    ['src/sim/a.ts', 'src/node/b.ts'],
    ['src/sim/a.ts', 'src/cli/b.ts'],
    ['src/sim/a.ts', 'src/runtime.ts'],
    ['src/api/a.ts', 'src/delivery/b.ts'],
    ['src/api/a.ts', 'src/node/b.ts'],
    ['src/delivery/a.ts', 'src/api/b.ts'],
    ['src/signatures/a.ts', 'src/sim/b.ts'],
    ['src/signatures/a.ts', 'src/client/b.ts'],
    ['src/client/a.ts', 'src/api/b.ts'],
    ['src/client/a.ts', 'src/delivery/b.ts'],
    ['src/api/a.ts', 'src/client/b.ts'],
    ['src/delivery/a.ts', 'src/client/b.ts'],
    ['src/api/a.ts', 'test/support/testing.ts'],
    ['src/runtime.ts', 'test/support/testing.ts'],
    ['src/runtime.ts', 'src/node/server.ts'],
    ['src/package-files.ts', 'src/node/b.ts'],
    ['src/sim/a.ts', 'src/sim/a.test.ts'],
    ['features/steps/x.ts', 'src/sim/claims/claims.ts'],
    ['features/support/x.ts', 'src/api/schemas/index.ts'],
    ['src/sim/a.ts', 'src/harness/test-runtime.ts'],
    ['src/cli/a.ts', 'src/harness/test-runtime.ts'],
    ['src/runtime.ts', 'src/harness/test-runtime.ts'],
    ['src/harness/a.ts', 'src/cli/b.ts'],
    ['src/harness/a.ts', 'test/support/testing.ts'],
  ])('refuses %s importing %s', (from, to) => {
    expect(ruleBroken(from, to)).toBeTypeOf('string');
  });

  it.each([
    ['src/sim/a.ts', 'src/clock/b.ts'],
    ['src/sim/a.ts', 'src/store/b.ts'],
    ['src/api/a.ts', 'src/sim/b.ts'],
    ['src/delivery/a.ts', 'src/sim/b.ts'],
    ['src/node/a.ts', 'src/api/b.ts'],
    ['src/client/a.ts', 'src/signatures/b.ts'],
    ['src/api/a.ts', 'src/signatures/b.ts'],
    ['src/delivery/a.ts', 'src/signatures/b.ts'],
    ['src/index.ts', 'src/client/b.ts'],
    ['src/runtime.ts', 'src/delivery/b.ts'],
    ['src/cli/a.ts', 'src/runtime.ts'],
    ['src/index.ts', 'src/runtime.ts'],
    ['src/sim/a.test.ts', 'test/support/testing.ts'],
    ['test/support/testing.ts', 'src/sim/simulator.ts'],
    ['features/steps/x.ts', 'src/index.ts'],
    ['features/steps/x.ts', 'test/support/testing.ts'],
    ['features/steps/x.ts', 'src/harness/test-runtime.ts'],
    ['src/harness/a.ts', 'src/runtime.ts'],
    ['src/harness/a.ts', 'src/api/schemas/index.ts'],
    ['src/sim/a.test.ts', 'src/harness/test-runtime.ts'],
  ])('allows %s importing %s', (from, to) => {
    expect(ruleBroken(from, to)).toBeUndefined();
  });

  it('reads static, re-export, side-effect and dynamic imports, and skips packages', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "import './d.ts';",
      "const e = await import('./e.ts');",
      "import { Hono } from 'hono';",
    ].join('\n');
    expect(importsOf(text)).toEqual(
      ['./a.ts', '../b.ts', './c.ts', './e.ts', './d.ts'].sort((x, y) => text.indexOf(x) - text.indexOf(y)),
    );
  });

  it('places files in their layers', () => {
    expect(layerOf('src/runtime.ts')).toBe('runtime');
    expect(layerOf('src/index.ts')).toBe('entry');
    expect(layerOf('src/package-files.ts')).toBe('runtime');
    expect(layerOf('src/api/routes/claims.ts')).toBe('api');
    expect(layerOf('src/api/routes/claims.test.ts')).toBe('src-test');
    expect(layerOf('src/harness/test-runtime.ts')).toBe('harness');
  });
});
