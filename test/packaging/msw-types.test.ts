import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The msw handlers as a user's project compiles them, against the built package (dist/, made on
// install): a CommonJS project with NodeNext (msw's CommonJS declarations) and an ESM one.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(kind: 'commonjs' | 'module', source: string): string {
  const dir = mkdtempSync(join(tmpdir(), `msw-${kind}-`));
  dirs.push(dir);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'scheme-sim'));
  for (const dep of ['msw', '@mswjs', '@types', 'typescript'])
    symlinkSync(join(ROOT, 'node_modules', dep), join(dir, 'node_modules', dep));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `user-${kind}`, version: '1.0.0', type: kind }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['index.ts'],
    }),
  );
  writeFileSync(join(dir, 'index.ts'), source);
  return dir;
}

async function typecheck(dir: string): Promise<{ code: number; out: string }> {
  try {
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir]);
    return { code: 0, out: '' };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

describe('scheme-sim/msw in a user project', () => {
  it('typechecks in a CommonJS project with NodeNext, handlers made with its own http', async () => {
    const dir = project(
      'commonjs',
      `import { http } from 'msw';
import { setupServer } from 'msw/node';
async function main() {
  const { createRuntime } = await import('scheme-sim');
  const { handlersFor } = await import('scheme-sim/msw');
  setupServer(...handlersFor(await createRuntime({ memory: true }), { http })).listen();
}
void main();
`,
    );
    expect(await typecheck(dir)).toEqual({ code: 0, out: '' });
  }, 60_000);

  it('typechecks in an ESM project, as the README shows it', async () => {
    const dir = project(
      'module',
      `import { setupServer } from 'msw/node';
import { createRuntime } from 'scheme-sim';
import { handlersFor } from 'scheme-sim/msw';
const server = setupServer(...handlersFor(await createRuntime({ memory: true })));
server.listen();
`,
    );
    expect(await typecheck(dir)).toEqual({ code: 0, out: '' });
  }, 60_000);
});
