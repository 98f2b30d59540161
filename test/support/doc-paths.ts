// The repository paths a documentation page names, and those of them that do not exist. A path is
// a Markdown link's target (relative to the page) or a word that starts with one of the
// repository's top folders (relative to the root): `src/sim/claims/claims.ts`, `fixtures/keys`,
// `test/support/`. A placeholder (`{id}`, `<name>`, `*`, `…`) stands for any name: the folder
// before it must exist. A path followed by "(removed" names history and is not checked.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Folders of the repository whose paths docs name; reports/ and data/ are made at run time. */
const TOP = ['src', 'test', 'features', 'fixtures', 'docs', 'bench', 'scripts', 'bin', 'examples', '.ci'];
const WORD = new RegExp(
  `(?<![\\w./@:-])((?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/(?:[^\\s\`'"()\\],;{]|\\{[^}\\s]*\\})*)`,
  'g',
);
const LINK = /\]\(([^)\s]+)\)/g;
const PLACEHOLDER = /[{<*…]/;

export interface NamedPath {
  /** The page, relative to the root. */
  page: string;
  line: number;
  /** As written. */
  path: string;
  /** Relative to the root, as checked. */
  resolved: string;
}

/** Every repository path a page names. */
export function pathsNamedIn(root: string, page: string): NamedPath[] {
  const text = readFileSync(join(root, page), 'utf8');
  const found: NamedPath[] = [];
  text.split('\n').forEach((line, i) => {
    const add = (path: string, base: string) => {
      const clean = path
        .replace(/#.*$/, '')
        .replace(/:\d+(?:-\d+)?$/, '')
        .replace(/[.:]+$/, '');
      if (clean === '') return;
      // A trailing slash names a folder: kept, so a file of that name does not pass for it.
      const resolved = relative(root, resolve(base, clean)).split(sep).join('/') + (clean.endsWith('/') ? '/' : '');
      found.push({ page, line: i + 1, path, resolved });
    };
    for (const m of line.matchAll(LINK)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      add(target, dirname(join(root, page)));
    }
    for (const m of line.matchAll(WORD)) {
      // A decision's context may name what it removed: `path` (removed …) is history, not a pointer.
      if (/^`?\s*\(removed\b/.test(line.slice(m.index + m[0].length))) continue;
      add(m[1]!, root);
    }
  });
  return found;
}

/** A path with `{a,b}` alternatives as one path per alternative (each must exist). */
function expandBraces(path: string): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(path);
  if (!m) return [path];
  return m[1]!
    .split(',')
    .flatMap((alt) => expandBraces(path.slice(0, m.index) + alt + path.slice(m.index + m[0].length)));
}

/** Whether some entry matches each segment of `path` under `dir`, a placeholder matching any name part. */
function segmentsExist(dir: string, segments: string[]): boolean {
  const [head, ...rest] = segments;
  if (head === undefined || head === '') return existsSync(dir) && (head === undefined || statSync(dir).isDirectory());
  if (!PLACEHOLDER.test(head)) return segmentsExist(join(dir, head), rest);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  const pattern = new RegExp(
    `^${head
      .split(/\{[^{}]*\}|<[^<>]*>|\*|…/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return readdirSync(dir).some((entry) => pattern.test(entry) && segmentsExist(join(dir, entry), rest));
}

/**
 * Whether a named path exists. `{a,b}` names both; a placeholder (`{id}`, `<name>`, `*`, `…`) in a
 * segment matches any part of a name, and some entry must match.
 */
export function pathExists(root: string, resolved: string): boolean {
  return expandBraces(resolved).every((path) => segmentsExist(root, path.split('/')));
}

/** The pages checked: README.md, CONTRIBUTING.md and every Markdown file under docs/. */
export function documentationPages(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
    );
  return ['README.md', 'CONTRIBUTING.md', ...walk('docs')].filter((p) => existsSync(join(root, p)));
}

/** Every named path of the pages that does not exist. */
export function missingPaths(root: string, pages = documentationPages(root)): NamedPath[] {
  return pages.flatMap((page) => pathsNamedIn(root, page).filter((p) => !pathExists(root, p.resolved)));
}

/** The decision notes of docs/decisions/ that docs/design.md does not link. */
export function decisionsNotListed(root: string): string[] {
  const design = readFileSync(join(root, 'docs', 'design.md'), 'utf8');
  return readdirSync(join(root, 'docs', 'decisions'))
    .filter((f) => f.endsWith('.md'))
    .filter((f) => !design.includes(`(decisions/${f})`))
    .sort();
}
