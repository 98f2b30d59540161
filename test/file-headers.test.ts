// Keeps every source file opening with a comment that says why it exists (CONTRIBUTING.md), and
// shows on made-up files that the checker refuses one that opens with code.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headedFiles, headerlessFiles, opensWithComment } from './support/file-headers.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('file headers', () => {
  it('open every source file of the repository, tests aside', () => {
    expect(headedFiles(ROOT).length).toBeGreaterThan(300);
    expect(
      headerlessFiles(ROOT),
      'these files open with code: start each with a // comment saying why it exists',
    ).toEqual([]);
  });
});

describe('the header checker (a test of the test)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function tree(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'file-headers-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('takes a // or /* comment first, after a shebang and blank lines', () => {
    expect(opensWithComment("// Why this exists.\nimport { a } from './a.ts';\n")).toBe(true);
    expect(opensWithComment('/** Why this exists. */\nexport const a = 1;\n')).toBe(true);
    expect(opensWithComment('#!/usr/bin/env node\n// Why this runs.\nimport x from "y";\n')).toBe(true);
    expect(opensWithComment('\n\n// Why this exists.\n')).toBe(true);
  });

  it('refuses code first, an empty //, and a comment meant for a tool', () => {
    expect(opensWithComment("import { a } from './a.ts';\n// Why this exists, too late.\n")).toBe(false);
    expect(opensWithComment('#!/usr/bin/env node\nimport x from "y";\n')).toBe(false);
    expect(opensWithComment('//\nexport const a = 1;\n')).toBe(false);
    expect(opensWithComment('// biome-ignore lint/style: generated\nexport const a = 1;\n')).toBe(false);
    expect(opensWithComment('')).toBe(false);
  });

  it('names each headerless source file of the covered folders, and only those', () => {
    const root = tree({
      'src/sim/good.ts': '// Why good exists.\nexport const g = 1;\n',
      'src/sim/bad.ts': 'export const b = 1;\n',
      'src/sim/bad.test.ts': "import { b } from './bad.ts';\n",
      'bin/tool.mjs': '#!/usr/bin/env node\nconsole.log(1);\n',
      'features/steps/x.steps.ts': "import { Given } from '@cucumber/cucumber';\n",
      'test/support/helper.ts': 'export const h = 1;\n',
      'vitest.config.ts': "import { defineConfig } from 'vitest/config';\n",
      'docs/example.ts': 'export const d = 1;\n',
      'src/node_modules/dep/index.ts': 'export const n = 1;\n',
      'src/sim/notes.json': '{}\n',
    });
    expect(headerlessFiles(root)).toEqual([
      'bin/tool.mjs',
      'features/steps/x.steps.ts',
      'src/sim/bad.ts',
      'test/support/helper.ts',
      'vitest.config.ts',
    ]);
  });
});
