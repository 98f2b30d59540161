import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers, importCycles, importsOf, layerOf, ruleBroken } from './support/layers.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('the layers of docs/design.md', () => {
  it('hold for every import in the repository', () => {
    expect(checkLayers(ROOT)).toEqual([]);
  });

  it('leave no import circle in src, test, features, bench or scripts, type-only imports included', () => {
    expect(importCycles(ROOT)).toEqual([]);
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

  it('finds a circle closed by a type-only import, and one file importing itself', () => {
    const clean = {
      'src/api/auth/caller.ts': 'export interface Caller { id: string }\n',
      'src/api/auth/middleware.ts':
        "import type { Caller } from './caller.ts';\nimport { check } from './signature.ts';\nexport const who = (c: Caller) => check(c);\n",
      'src/api/auth/signature.ts':
        "import type { Caller } from './caller.ts';\nexport const check = (c: Caller) => c.id;\n",
      'src/api/auth/signature.test.ts': "import { who } from './middleware.ts';\nimport './signature.test.ts';\n",
    };
    expect(importCycles(tree(clean))).toEqual([]);
    rmSync(dir!, { recursive: true, force: true });
    const circle = {
      ...clean,
      'src/api/auth/signature.ts':
        "import type { Caller } from './middleware.ts';\nexport const check = (c: Caller) => c.id;\n",
      'src/api/auth/middleware.ts':
        "import { check } from './signature.ts';\nexport interface Caller { id: string }\nexport const who = (c: Caller) => check(c);\n",
      'src/store/self.ts': "export type { Row } from './self.ts';\nexport interface Row { id: string }\n",
    };
    expect(importCycles(tree(circle))).toEqual([
      ['src/api/auth/middleware.ts', 'src/api/auth/signature.ts', 'src/api/auth/middleware.ts'],
      ['src/store/self.ts', 'src/store/self.ts'],
    ]);
  });

  it('finds circles outside src: features, test support, bench and scripts', () => {
    // The circle features/support had (issue 45): the world imports the helpers its send calls,
    // and they imported the world's types back.
    const clean = {
      'features/support/scenario.ts': 'export interface Scenario { send(): void }\n',
      'features/support/world.ts':
        "import type { Scenario } from './scenario.ts';\nimport { sign } from './cop-signing.ts';\nexport class World implements Scenario { send() { sign(this); } }\n",
      'features/support/cop-signing.ts':
        "import type { Scenario } from './scenario.ts';\nexport const sign = (s: Scenario) => s;\n",
      'features/steps/a.steps.ts': "import { World } from '../support/world.ts';\nexport const w = World;\n",
      'test/support/a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
      'test/support/b.ts': 'export const b = 1;\n',
      'bench/run.ts': "import { r } from './report.ts';\nr();\n",
      'bench/report.ts': 'export const r = () => 1;\n',
      'scripts/x.mjs': "import { y } from './y.mjs';\ny();\n",
      'scripts/y.mjs': 'export const y = () => 1;\n',
    };
    expect(importCycles(tree(clean))).toEqual([]);
    rmSync(dir!, { recursive: true, force: true });
    const planted = {
      ...clean,
      'features/support/cop-signing.ts':
        "import type { World } from './world.ts';\nexport const sign = (s: World) => s;\n",
      'test/support/b.ts': "import type { A } from './a.ts';\nexport const b = 1;\n",
      'bench/report.ts': "import './run.ts';\nexport const r = () => 1;\n",
      'scripts/y.mjs': "export { x } from './x.mjs';\nexport const y = () => 1;\n",
    };
    expect(importCycles(tree(planted))).toEqual([
      ['bench/report.ts', 'bench/run.ts', 'bench/report.ts'],
      ['features/support/cop-signing.ts', 'features/support/world.ts', 'features/support/cop-signing.ts'],
      ['scripts/x.mjs', 'scripts/y.mjs', 'scripts/x.mjs'],
      ['test/support/a.ts', 'test/support/b.ts', 'test/support/a.ts'],
    ]);
  });

  it('goes round a longer circle in import order', () => {
    const three = {
      'src/sim/a.ts': "import { c } from './c.ts';\nexport const a = 1;\n",
      'src/sim/b.ts': "import { a } from './a.ts';\nexport const b = a;\n",
      'src/sim/c.ts': "import type { B } from './b.ts';\nexport const c = 3;\n",
      'src/sim/d.ts': "import { a } from './a.ts';\nexport const d = a;\n",
    };
    expect(importCycles(tree(three))).toEqual([['src/sim/a.ts', 'src/sim/c.ts', 'src/sim/b.ts', 'src/sim/a.ts']]);
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
    ['features/steps/x.ts', 'test/support/testing.ts'],
  ])('refuses %s importing %s', (from, to) => {
    expect(ruleBroken(from, to)).toBeTypeOf('string');
  });

  it.each([
    ['src/sim/a.ts', 'src/clock/b.ts'],
    ['src/sim/a.ts', 'src/store/b.ts'],
    ['src/sim/a.ts', 'src/signatures/notifications/b.ts'],
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
    ['features/support/x.test.ts', 'test/support/testing.ts'],
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
