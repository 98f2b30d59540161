// The layer rules of docs/design.md as data, and a checker that reads every import of a tree.
// test/layers.test.ts runs it over the repository; its own test runs it over small made-up trees,
// so a rule that stopped biting would be seen.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Where a file sits, as far as the rules care. */
export type Layer =
  | 'clock'
  | 'store'
  | 'signatures'
  | 'sim'
  | 'delivery'
  | 'api'
  | 'client'
  | 'node'
  | 'cli'
  | 'runtime'
  | 'entry'
  | 'harness'
  | 'src-test'
  | 'test'
  | 'features'
  | 'bench'
  | 'scripts'
  | 'other';

/** What each layer of src may import from src (besides itself). Anything else is upward or sideways. */
const MAY_IMPORT: Record<string, readonly Layer[]> = {
  clock: [],
  store: [],
  signatures: [],
  sim: ['clock', 'store', 'signatures'],
  delivery: ['clock', 'store', 'signatures', 'sim'],
  api: ['clock', 'store', 'signatures', 'sim'],
  client: ['signatures'],
  node: ['clock', 'store', 'signatures', 'sim', 'delivery', 'api', 'runtime'],
  cli: ['clock', 'store', 'signatures', 'sim', 'delivery', 'api', 'node', 'runtime'],
  runtime: ['clock', 'store', 'signatures', 'sim', 'delivery', 'api'],
  entry: ['clock', 'store', 'signatures', 'sim', 'delivery', 'api', 'client', 'node', 'runtime'],
  // The conformance harness's support (shipped, run by features/): all of the product but the CLI,
  // which runs the harness and so sits above it.
  harness: ['clock', 'store', 'signatures', 'sim', 'delivery', 'api', 'client', 'node', 'runtime', 'entry'],
};

/** The files at the top of src that wire the layers together; the rest there are the package's entries. */
const RUNTIME_FILES = new Set([
  'src/runtime.ts',
  'src/world.ts',
  'src/sandboxes.ts',
  'src/sandbox-storage.ts',
  'src/sandbox-routing.ts',
  'src/sandbox-requests.ts',
  'src/fixtures.ts',
  'src/package-files.ts',
]);

/** What features/ may use of src: the package's public entry points and the harness's support. */
const FEATURES_MAY_IMPORT = new Set(['src/index.ts', 'src/msw.ts']);
const featuresMayImport = (to: string) => FEATURES_MAY_IMPORT.has(to) || to.startsWith('src/harness/');

export function layerOf(path: string): Layer {
  const parts = path.split('/');
  if (parts[0] === 'src') {
    if (path.endsWith('.test.ts')) return 'src-test';
    if (parts.length === 2) return RUNTIME_FILES.has(path) ? 'runtime' : 'entry';
    const folder = parts[1] as Layer;
    return folder in MAY_IMPORT ? folder : 'other';
  }
  if (parts[0] === 'test') return 'test';
  if (parts[0] === 'features') return 'features';
  if (parts[0] === 'bench') return 'bench';
  if (parts[0] === 'scripts') return 'scripts';
  return 'other';
}

export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

/** The rule an import from `from` to `to` (both repository-relative) breaks, if any. */
export function ruleBroken(from: string, to: string): string | undefined {
  const a = layerOf(from);
  const b = layerOf(to);
  if (to.startsWith('test/') && from.startsWith('src/') && a !== 'src-test')
    return 'src must not import test-only code (test/)';
  if (a === 'features') {
    // The harness is packed without test/; its own unit tests (*.test.ts) are not packed.
    if (to.startsWith('test/') && !from.endsWith('.test.ts'))
      return 'features must not import test-only code (test/): the packed harness has none';
    if (to.startsWith('src/') && !featuresMayImport(to))
      return 'features may import src only through its public entry points (src/index.ts, src/msw.ts) and src/harness';
    return undefined;
  }
  if (a === 'src-test' || a === 'test' || a === 'bench' || a === 'scripts' || a === 'other') return undefined;
  if (!to.startsWith('src/')) return `src/${a} must not import outside src (${to})`;
  if (a === b) return undefined;
  if (b === 'src-test') return 'src must not import a test file';
  const allowed = MAY_IMPORT[a] ?? [];
  if (!allowed.includes(b)) return `src/${a} must not import ${b === 'runtime' || b === 'entry' ? to : `src/${b}`}`;
  return undefined;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** The relative imports of one source text, as written. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith('.')) out.push(spec);
  }
  return out;
}

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|mjs)$/.test(name)) yield path;
  }
}

/** The relative imports of every source under `root`'s `tops`: file -> [(as written, resolved)], repository-relative. */
function importGraph(root: string, tops: readonly string[]): Map<string, { spec: string; target: string }[]> {
  const graph = new Map<string, { spec: string; target: string }[]>();
  for (const top of tops) {
    let exists = true;
    try {
      statSync(join(root, top));
    } catch {
      exists = false;
    }
    if (!exists) continue;
    for (const abs of sources(join(root, top))) {
      const file = relative(root, abs).split(sep).join('/');
      graph.set(
        file,
        importsOf(readFileSync(abs, 'utf8')).map((spec) => ({
          spec,
          target: relative(root, resolve(dirname(abs), spec))
            .split(sep)
            .join('/'),
        })),
      );
    }
  }
  return graph;
}

/** The trees whose imports the layers test reads, for its rules and for circles alike. */
const TREES = ['src', 'test', 'features', 'bench', 'scripts'] as const;

/** Every import in `root`'s src, test, features, bench and scripts that breaks a layer rule. */
export function checkLayers(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const [file, imports] of importGraph(root, TREES))
    for (const { spec, target } of imports) {
      const rule = ruleBroken(file, target);
      if (rule) violations.push({ file, imports: spec, rule });
    }
  return violations;
}

/**
 * The import circles among the files of `root`'s src, test, features, bench and scripts (test
 * files aside: nothing imports them), type-only imports included: a type in the wrong file closes
 * a circle as surely as a value does. One circle per knot of files that reach each other, as the
 * path that goes round it (`[a, b, a]`).
 */
export function importCycles(root: string): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, imports] of importGraph(root, TREES))
    if (!file.endsWith('.test.ts'))
      graph.set(
        file,
        imports.map((i) => i.target),
      );
  const next = (file: string) => (graph.get(file) ?? []).filter((t) => graph.has(t));

  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const knots: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const knot: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      knot.push(w);
    } while (w !== v);
    if (knot.length > 1 || next(v).includes(v)) knots.push(knot);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);

  // For each knot, the shortest way from its first file (by name) back to itself.
  const circles = knots.map((knot) => {
    const members = new Set(knot);
    const first = [...knot].sort()[0]!;
    const cameFrom = new Map<string, string>();
    const queue = [first];
    while (queue.length > 0) {
      const v = queue.shift()!;
      for (const w of next(v)) {
        if (!members.has(w) || cameFrom.has(w)) continue;
        cameFrom.set(w, v);
        if (w === first) queue.length = 0;
        else queue.push(w);
      }
    }
    const back = [first];
    for (let v = cameFrom.get(first)!; v !== first; v = cameFrom.get(v)!) back.unshift(v);
    return [first, ...back];
  });
  return circles.sort((x, y) => x[0]!.localeCompare(y[0]!));
}
