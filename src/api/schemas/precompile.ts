// The validators of every schema as code, written out when the package is built (scripts/build.mjs
// puts dist/api/schemas/precompiled-<set>.js beside the built index.js): the built server loads
// them instead of compiling at start-up, which took most of its start-up time. The same Ajv
// options make the same validators; precompile.test.ts runs both over the same bodies.
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { createAjv, exportNameOf, loadSchemas, type SchemaSet } from './index.ts';

// ajv's standalone is CommonJS; its default export arrives wrapped under ESM.
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ??
  standaloneCodeModule) as typeof import('ajv/dist/standalone/index.js').default;

/**
 * A module exporting the validator of every schema of `set`, each by exportNameOf(id). As `esm`
 * (what the build writes) it imports the formats from ./formats.js beside it and gives ajv's
 * runtime helpers a `require`; as `cjs` the code expects `exports`, `require` and `formats` in
 * scope (a test runs it with new Function).
 */
export function precompiledSource(set: SchemaSet, format: 'esm' | 'cjs'): string {
  const ajv = createAjv(set, format);
  const names = Object.fromEntries(loadSchemas().map((s) => [exportNameOf(s.$id), s.$id]));
  const code = standaloneCode(ajv, names);
  if (format === 'cjs') return code;
  return [
    '// Written by scripts/build.mjs from src/api/schemas/*.json (src/api/schemas/precompile.ts). Do not edit.',
    "import { createRequire } from 'node:module';",
    "import { FORMATS as formats } from './formats.js';",
    'const require = createRequire(import.meta.url);',
    code,
  ].join('\n');
}
