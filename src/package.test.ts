// The package as a consumer gets it: a project with scheme-sim and msw in node_modules, run by plain
// Node (no tsx, no loader), which refuses .ts files. It resolves the package through package.json
// `exports`, so it fails if they point at sources, if dist/ is not built, or if the built modules
// cannot find the schemas and fixtures they read relative to themselves.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distIsCurrent } from '../bin/dist-current.mjs';
import { NORTHWIND } from './harness/test-runtime.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

// Uses the package for real: a token from the app, then an account created and listed through msw
// over a plain fetch. Creating validates against the JSON Schemas, the runtime reads fixtures/.
const CONSUMER_JS = `
import { setupServer } from 'msw/node';
import { createRuntime, verifyCopResponse } from 'scheme-sim';
import { handlersFor } from 'scheme-sim/msw';

const BASE = 'http://scheme-sim.test';
const runtime = await createRuntime({ memory: true });
const server = setupServer(...handlersFor(runtime, BASE));
server.listen({ onUnhandledRequest: 'error' });
try {
  const token = await runtime.app.request('/v1/oauth2/token', {
    method: 'POST',
    headers: { authorization: 'Basic ' + btoa('${NORTHWIND.client_id}:${NORTHWIND.client_secret}'), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const auth = { authorization: 'Bearer ' + (await token.json()).access_token };
  const id = crypto.randomUUID();
  const created = await fetch(BASE + '/v1/organisation/accounts', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { id, organisation_id: '${NORTHWIND.organisation_id}', type: 'accounts', attributes: { country: 'GB', bank_id: '400301', bic: 'NWBKGB22', name: ['Samantha Holder'] } } }),
  });
  const invalid = await fetch(BASE + '/v1/organisation/accounts', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { id: crypto.randomUUID(), organisation_id: '${NORTHWIND.organisation_id}', type: 'accounts', attributes: { country: 'GB' } } }),
  });
  const list = await fetch(BASE + '/v1/organisation/accounts', { headers: auth });
  // A signed Confirmation of Payee answer, verified with the package's own tool against the JWKS.
  const nw = '0015800001041REAAY';
  const jwks = await (await fetch(BASE + '/v1/participants/' + nw + '/jwks.json')).json();
  const cop = await fetch(BASE + '/v1/participants/' + nw + '/open-banking/v3.1/accounts/name-verification', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ Data: { SchemeName: 'SortCodeAccountNumber', AccountType: 'Personal', Identification: '40030012345678', Name: 'Samantha Holder' } }),
  });
  const copHeader = await verifyCopResponse(cop.headers, new Uint8Array(await cop.arrayBuffer()), jwks, { iss: nw });
  console.log(JSON.stringify({
    cop: { status: cop.status, iss: copHeader['http://openbanking.org.uk/iss'] },
    resolved: [import.meta.resolve('scheme-sim'), import.meta.resolve('scheme-sim/msw')],
    token: token.status,
    created: created.status,
    invalid: invalid.status,
    list: { status: list.status, type: list.headers.get('content-type'), ids: (await list.json()).data.map((a) => a.id) },
    id,
  }));
} finally {
  server.close();
  await runtime.close();
}
`;

// Types as a consumer's tsc sees them. @ts-expect-error fails the check if the types resolved to any.
const CONSUMER_TS = `
import { setupServer } from 'msw/node';
import { createRuntime, type Runtime } from 'scheme-sim';
import { handlersFor } from 'scheme-sim/msw';

const runtime: Runtime = await createRuntime({ memory: true });
setupServer(...handlersFor(runtime, 'http://scheme-sim.test'));
// @ts-expect-error createRuntime takes an options object
await createRuntime(42);
`;

let consumer: string;

beforeAll(async () => {
  // The same build npm runs on install (prepare), so this checks the build and not a stale dist/.
  // A current dist/ is kept: rebuilding replaces it under the CLI commands other tests run.
  if (!distIsCurrent(ROOT))
    await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, timeout: 120_000 });
  consumer = mkdtempSync(join(tmpdir(), 'scheme-sim-consumer-'));
  mkdirSync(join(consumer, 'node_modules'));
  // A git or registry install puts the package root in node_modules; a symlink to the repo is that root.
  symlinkSync(ROOT, join(consumer, 'node_modules', 'scheme-sim'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'msw'), join(consumer, 'node_modules', 'msw'), 'dir');
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(consumer, 'consumer.mjs'), CONSUMER_JS);
  writeFileSync(join(consumer, 'consumer.ts'), CONSUMER_TS);
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['consumer.ts'],
    }),
  );
}, 150_000);

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

// No NODE_OPTIONS: a loader such as tsx inherited from the test runner would hide a .ts export.
const plainEnv = () => ({ PATH: process.env.PATH ?? '' });

describe('the package, from a consumer project without tsx', () => {
  it('imports scheme-sim and scheme-sim/msw from dist/ and serves requests through msw', async () => {
    const { stdout } = await run(process.execPath, ['consumer.mjs'], {
      cwd: consumer,
      env: plainEnv(),
      timeout: 30_000,
    });
    const out = JSON.parse(stdout) as {
      resolved: string[];
      token: number;
      created: number;
      invalid: number;
      list: { status: number; type: string; ids: string[] };
      id: string;
      cop: { status: number; iss: string };
    };
    // Node resolves through the symlink to its real path: the repo's dist/.
    expect(out.resolved.map((url) => fileURLToPath(url))).toEqual([
      join(ROOT, 'dist', 'index.js'),
      join(ROOT, 'dist', 'msw.js'),
    ]);
    expect(out.token).toBe(200);
    expect(out.created).toBe(201);
    expect(out.invalid).toBe(400);
    expect(out.list.status).toBe(200);
    expect(out.list.type).toMatch(/json/);
    expect(out.list.ids).toContain(out.id);
    expect(out.cop).toEqual({ status: 200, iss: '0015800001041REAAY' });
  }, 40_000);

  it('gives a consumer TypeScript project the declarations', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '-p', consumer], {
      cwd: consumer,
      env: plainEnv(),
      timeout: 60_000,
    }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(checked).toBe('');
  }, 70_000);
});

describe('the packed package', () => {
  it('holds the conformance harness and its step library, and no test', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      timeout: 60_000,
    });
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('src/runtime.ts');
    expect(files.filter((f) => /\.test\.(ts|js|d\.ts)$/.test(f))).toEqual([]);
    // Another project runs the harness (npx scheme-sim conformance): the features, their steps and
    // support, the cucumber config, and the shared helpers the steps import, listed in package.json.
    expect(files).toContain('cucumber.mjs');
    expect(files).toContain('features/claims.feature');
    expect(files).toContain('features/steps/claims.steps.ts');
    expect(files).toContain('features/support/world.ts');
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    const shipped = files.filter((f) => f.startsWith('test/')).sort();
    expect(shipped).toEqual(manifest.files.filter((f) => f.startsWith('test/')).sort());
    expect(shipped).toEqual(harnessImportsUnderTest());
  }, 70_000);
});

/** Every file under test/ that the features' steps and support import, directly or not. */
function harnessImportsUnderTest(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? walk(join(dir, e.name))
        : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
          ? [join(dir, e.name)]
          : [],
    );
  const queue = walk(join(ROOT, 'features'));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!);
      if (existsSync(target)) queue.push(target);
    }
  }
  return [...seen]
    .map((f) => relative(ROOT, f))
    .filter((f) => f.startsWith('test/'))
    .sort();
}
