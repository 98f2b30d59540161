// The package as a user installs it: `npm pack`, then a fresh project outside the checkout that
// installs the tarball and the peers a user adds (from npm's cache when it has them), and from
// there the bin, the server, the conformance harness on both local targets, and the library from
// an ESM and a CommonJS consumer, each typechecked. Nothing here reads the checkout but the tarball.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distIsCurrent } from '../../bin/dist-current.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  files: string[];
  peerDependencies: Record<string, string>;
};

let work: string;
let project: string;
let packed: string[];

// The user's environment, not the test runner's: no loader, no npm script variables of this checkout.
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_package_|npm_lifecycle_|NODE_OPTIONS$|INIT_CWD$|VITEST)/.test(k)) env[k] = v;
  return { ...env, SCHEME_SIM_PROFILE: join(work, 'profile.json'), npm_config_yes: 'false', ...extra };
}

/** The checkout's files as `npm pack` takes them, with a dist/ built from these sources. */
async function stage(): Promise<string> {
  const staging = join(work, 'staging');
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    timeout: 120_000,
  });
  const listed = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
  for (const path of listed.filter((p) => !p.startsWith('dist/'))) {
    mkdirSync(dirname(join(staging, path)), { recursive: true });
    cpSync(join(ROOT, path), join(staging, path));
  }
  if (distIsCurrent(ROOT)) cpSync(join(ROOT, 'dist'), join(staging, 'dist'), { recursive: true });
  else {
    // Built beside the copy (as `prepare` builds on pack), never in the checkout: other tests run its dist/.
    for (const file of ['scripts/build.mjs', 'tsconfig.json', 'tsconfig.build.json'])
      cpSync(join(ROOT, file), join(staging, file));
    symlinkSync(join(ROOT, 'node_modules'), join(staging, 'node_modules'), 'dir');
    await run(process.execPath, [join(staging, 'scripts', 'build.mjs')], { cwd: staging, timeout: 300_000 });
  }
  return staging;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'scheme-sim-installed-'));
  const staging = await stage();
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: staging,
    timeout: 120_000,
  });
  const [pack] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = pack!.files.map((f) => f.path);
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'payments-client', private: true }));
  // The peers at the versions this checkout tests with, so npm's cache has them.
  const peers = Object.keys(manifest.peerDependencies).map((name) => {
    const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    };
    return `${name}@${installed.version}`;
  });
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, pack!.filename), ...peers], {
    cwd: project,
    env: userEnv(),
    timeout: 420_000,
  });
}, 600_000);

// A node_modules of a few hundred packages: removed without blocking the worker, with time to do it.
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
}, 180_000);

describe('the packed tarball', () => {
  it('holds the library, the bin and the harness with its data, and no file that exists only for tests', () => {
    for (const path of ['dist/index.js', 'dist/msw.js', 'bin/scheme-sim.mjs', 'cucumber.mjs'])
      expect(packed).toContain(path);
    expect(packed).toContain('src/harness/cop-test-keys.json');
    expect(packed).toContain('fixtures/cop/cases.json');
    const testOnly = packed.filter(
      (p) => /^(test|bench|scripts|reports|examples)\//.test(p) || /\.test\.(ts|js|d\.ts)$/.test(p),
    );
    expect(testOnly).toEqual([]);
    expect(manifest.files.filter((f) => f.startsWith('test'))).toEqual([]);
  });

  it('is installed with the peers docs/conformance.md names', () => {
    const line = readFileSync(join(ROOT, 'docs', 'conformance.md'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('npm install --save-dev scheme-sim '));
    expect(line?.split(/\s+/).slice(4).sort()).toEqual(Object.keys(manifest.peerDependencies).sort());
  });
});

describe('a project with the tarball installed', () => {
  const npx = (args: string[], timeout: number) =>
    run('npx', ['scheme-sim', ...args], { cwd: project, env: userEnv(), timeout, maxBuffer: 32 * 1024 * 1024 });

  it('answers npx scheme-sim --version', async () => {
    expect((await npx(['--version'], 60_000)).stdout.trim()).toBe(manifest.version);
  }, 70_000);

  it('starts the simulator, which answers /health and stops on SIGTERM to its pid', async () => {
    const server: ChildProcess = spawn(
      join(project, 'node_modules', '.bin', 'scheme-sim'),
      ['start', '--memory', '--port', '0'],
      { cwd: project, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<number | null>((done) => server.once('exit', done));
    try {
      const url = await new Promise<string>((found, failed) => {
        server.stdout!.on('data', () => {
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) found(m[1]!);
        });
        server.once('exit', (code) => failed(new Error(`start exited ${code}: ${out}`)));
      });
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { status: string }).status).toBe('ok');
      // The files the banner names are where the user can open them from the project.
      const [key, doc] = /private key (\S+) \((\S+)\)/.exec(out)!.slice(1);
      expect(key).toBe(join('node_modules', 'scheme-sim', 'fixtures', 'keys', 'northwind-dev-signing.pem'));
      for (const file of [key!, doc!]) expect(existsSync(resolve(project, file)), file).toBe(true);
    } finally {
      process.kill(server.pid!, 'SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).toMatch(/scheme-sim: SIGTERM, stopping/);
  }, 90_000);

  // @smoke: a few scenarios of every flow (accounts, cop (name verification), claims to the contra,
  // reports, notifications).
  it.each(['inprocess', 'sim'])(
    'passes the conformance scenarios tagged @smoke on the %s target',
    async (target) => {
      const { stdout } = await npx(['conformance', '--target', target, '--tags', '@smoke'], 300_000);
      const tally = /conformance by flow: (.*)/.exec(stdout)?.[1] ?? '';
      for (const flow of ['accounts', 'claims', 'cop', 'notifications', 'reports'])
        expect(tally).toMatch(new RegExp(`${flow} (\\d+)/\\1\\b`));
      expect(stdout).toMatch(/conformance: [1-9]\d* passed, 0 failed/);
    },
    320_000,
  );

  it('is imported by an ESM and a CommonJS consumer, both typechecked, which serve requests through msw', async () => {
    // A token from the app, an account created, refused and listed through msw over a plain fetch
    // (the JSON Schemas and fixtures/ read by the built modules), and a Confirmation of Payee answer
    // verified with the package's own tool against the participant's JWKS.
    const flow = (handlers: string) => `const base = 'http://scheme-sim.test';
  const runtime = await createRuntime({ memory: true });
  const server = setupServer(...${handlers});
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const basic = btoa('northwind-dev:northwind-dev-secret');
    const token = await fetch(base + '/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: 'Basic ' + basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const auth = { authorization: 'Bearer ' + ((await token.json()) as { access_token: string }).access_token };
    const org = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
    const id = crypto.randomUUID();
    const account = (attributes: object, accountId = crypto.randomUUID()) =>
      fetch(base + '/v1/organisation/accounts', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { id: accountId, organisation_id: org, type: 'accounts', attributes } }),
      });
    const created = await account({ country: 'GB', bank_id: '400301', bic: 'NWBKGB22', name: ['Samantha Holder'] }, id);
    const invalid = await account({ country: 'GB' });
    const list = (await (await fetch(base + '/v1/organisation/accounts', { headers: auth })).json()) as {
      data: Array<{ id: string }>;
    };
    const nw = '0015800001041REAAY';
    const jwks = await (await fetch(base + '/v1/participants/' + nw + '/jwks.json')).json();
    const cop = await fetch(base + '/v1/participants/' + nw + '/open-banking/v3.1/accounts/name-verification', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ Data: { SchemeName: 'SortCodeAccountNumber', AccountType: 'Personal', Identification: '40030012345678', Name: 'Samantha Holder' } }),
    });
    const header = await verifyCopResponse(cop.headers, new Uint8Array(await cop.arrayBuffer()), jwks as Parameters<typeof verifyCopResponse>[2], { iss: nw });
    console.log(JSON.stringify({ token: token.status, created: created.status, invalid: invalid.status, listed: list.data.some((a) => a.id === id), cop: cop.status, iss: header['http://openbanking.org.uk/iss'] }));
  } finally {
    server.close();
    await runtime.close();
  }`;
    writeFileSync(
      join(project, 'esm.mts'),
      `import { setupServer } from 'msw/node';
import { createRuntime, verifyCopResponse } from 'scheme-sim';
import { handlersFor } from 'scheme-sim/msw';
${flow("handlersFor(runtime, 'http://scheme-sim.test')")}
`,
    );
    // CommonJS sees msw's CommonJS declarations: it passes its own \`http\` (src/msw.ts says why).
    writeFileSync(
      join(project, 'cjs.cts'),
      `import { http } from 'msw';
import { setupServer } from 'msw/node';
import { createRuntime, verifyCopResponse } from 'scheme-sim';
import { handlersFor } from 'scheme-sim/msw';
async function main(): Promise<void> {
  ${flow("handlersFor(runtime, { http, baseUrl: 'http://scheme-sim.test' })")}
}
void main();
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          strict: true,
          skipLibCheck: true,
          types: [],
          outDir: 'out',
        },
        files: ['esm.mts', 'cjs.cts'],
      }),
    );
    // The user's compiler: TypeScript at the version this checkout builds with.
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await run(process.execPath, [tsc, '-p', project], { cwd: project, timeout: 120_000 }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(compiled).toBe('');
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const { stdout } = await run(process.execPath, [join(project, 'out', file)], {
        cwd: project,
        env: userEnv(),
        timeout: 60_000,
      });
      expect(JSON.parse(stdout)).toEqual({
        token: 200,
        created: 201,
        invalid: 400,
        listed: true,
        cop: 200,
        iss: '0015800001041REAAY',
      });
    }
    // The emitted CommonJS loads the package with require().
    expect(readFileSync(join(project, 'out', 'cjs.cjs'), 'utf8')).toMatch(/require\("scheme-sim"\)/);
  }, 200_000);
});
