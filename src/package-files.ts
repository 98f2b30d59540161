// The installed package's own files the runtime reads: its package.json (the version) and the
// reference page's renderer, Swagger UI, served from the installed npm package (no CDN).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed package's folder: the one holding package.json beside src/ and dist/. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A file of the installed package, by its path in the package (`docs`, `api.md`). */
export const packageFile = (...parts: string[]): string => join(ROOT, ...parts);

let version: string | undefined;

/** The version of the installed scheme-sim package (package.json beside src/ and dist/), read once. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  return version;
}

/** The files /docs loads; nothing else of the package is served. */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

let swaggerUiDir: string | undefined;

/** Reads one asset of swagger-ui-dist (cached after the first read); undefined for any other name. */
export function swaggerUiAssets(): (name: string) => Promise<{ body: Uint8Array; type: string } | undefined> {
  // Resolved once per process: a runtime is made per conformance scenario.
  swaggerUiDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const dir = swaggerUiDir;
  const cache = new Map<string, Promise<Uint8Array>>();
  return async (name) => {
    const type = DOCS_ASSETS[name];
    if (!type) return undefined;
    let read = cache.get(name);
    if (!read) {
      read = readFile(join(dir, name));
      cache.set(name, read);
    }
    return { body: await read, type };
  };
}
