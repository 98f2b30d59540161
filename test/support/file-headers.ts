// A file's first line is where a reader learns why it exists (CONTRIBUTING.md): the checker that
// finds the source files that open with code instead. test/file-headers.test.ts runs it over the
// repository, and over made-up trees so a checker that stopped biting would be seen.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The folders the rule covers, whole; the source files at the top of the repository are covered too. */
export const HEADED_FOLDERS: readonly string[] = ['src', 'features', 'bench', 'scripts', 'bin', 'test', 'examples'];

const SOURCE = /\.(ts|mts|mjs)$/;
/** A test says what it checks in its describe and it names: the rule is for code and its helpers. */
const TEST = /\.test\.ts$/;
/** A comment for a tool says nothing to a reader of why the file exists. */
const TOOL_COMMENT = /^(\/\/|\/\*)\s*(biome-ignore|@ts-|eslint-|global\s)/;

/** Whether a source text opens (after a shebang and blank lines) with a comment for its reader. */
export function opensWithComment(text: string): boolean {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let i = lines[0]?.startsWith('#!') ? 1 : 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  const first = (lines[i] ?? '').trim();
  if (TOOL_COMMENT.test(first)) return false;
  return /^\/\/\s*\S/.test(first) || first.startsWith('/*');
}

function* sources(root: string, dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(root, path);
    else if (SOURCE.test(name) && !TEST.test(name)) yield relative(root, path).split(sep).join('/');
  }
}

/** The source files under `root` the rule covers, repository-relative and sorted. */
export function headedFiles(root: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) {
      if (HEADED_FOLDERS.includes(name)) files.push(...sources(root, path));
    } else if (SOURCE.test(name) && !TEST.test(name)) files.push(name);
  }
  return files.sort();
}

/** Every covered file under `root` that does not open with a comment saying why it exists. */
export function headerlessFiles(root: string): string[] {
  return headedFiles(root).filter((file) => !opensWithComment(readFileSync(join(root, file), 'utf8')));
}
