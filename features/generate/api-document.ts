// The contract generated checks work from: the target's OpenAPI document read as a list of
// operations (what each takes and answers), with a validator for every schema it names.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { pointerResolver, type ResolveRef, type Schema } from './schema-arbitrary.ts';

type Json = Record<string, any>;

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

export interface ApiOperation {
  /** `POST /v1/organisation/accounts`: how the report names it. */
  key: string;
  method: string;
  path: string;
  tag: string;
  /** The request body's schema (`{ $ref }`), when it takes a JSON body. */
  body?: Schema;
  /** The success status and its body's schema, when it answers JSON. */
  status: number;
  answer?: Schema;
  /** The schema of its 4xx bodies (Form3's error, or Open Banking's). */
  error?: Schema;
  /** Needs no credentials. */
  open: boolean;
  pathParams: string[];
  filters: string[];
  paged: boolean;
  /** The description's rules beyond the schema, each answer as status and a pattern of its error line. */
  documented: Array<{ status: number; line: RegExp }>;
}

/** The answers an operation's description names, read from its `- rule: 400 \`…\`` lines. */
export function documentedAnswers(description: string | undefined): ApiOperation['documented'] {
  const out: ApiOperation['documented'] = [];
  for (const line of (description ?? '').split('\n').filter((l) => l.startsWith('- '))) {
    for (const m of line.matchAll(/(\d{3}) `([^`]+)`/g)) {
      const pattern = m[2]!
        .split(/<[^>]+>/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+?');
      out.push({ status: Number(m[1]), line: new RegExp(pattern) });
    }
  }
  return out;
}

const jsonSchemaOf = (content: Json | undefined): Schema | undefined =>
  content?.['application/json']?.schema as Schema | undefined;

export class ApiDocument {
  readonly operations: ApiOperation[] = [];
  readonly resolve: ResolveRef;
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: doc.components });
    this.resolve = pointerResolver(doc);
    for (const [path, ops] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
      for (const [lower, op] of Object.entries(ops)) {
        const method = lower.toUpperCase();
        const [status, success] = Object.entries((op.responses ?? {}) as Record<string, Json>).find(([s]) =>
          s.startsWith('2'),
        ) ?? ['200', {}];
        const params = (op.parameters ?? []) as Json[];
        const filters = params.filter((p) => p.in === 'query' && /^filter\[/.test(p.name)).map((p) => p.name);
        this.operations.push({
          key: `${method} ${path}`,
          method,
          path,
          tag: op.tags?.[0] ?? 'untagged',
          ...(op.requestBody ? { body: jsonSchemaOf(op.requestBody.content) } : {}),
          status: Number(status),
          ...(jsonSchemaOf(success.content) ? { answer: jsonSchemaOf(success.content) } : {}),
          ...(jsonSchemaOf(op.responses?.['400']?.content) ? { error: jsonSchemaOf(op.responses['400'].content) } : {}),
          open: Array.isArray(op.security) && op.security.length === 0,
          pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
          filters: filters.map((f) => f.slice('filter['.length, -1)),
          paged: params.some((p) => p.name === 'page[size]'),
          documented: documentedAnswers(op.description),
        });
      }
    }
  }

  /** Ajv over the document's components (OpenAPI 3.1's dialect) for one schema of it. */
  validator(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = this.compiled.get(key);
    if (!v) {
      const rooted = JSON.parse(key.replace(/"#\/components/g, '"openapi#/components'));
      v = this.ajv.compile(rooted);
      this.compiled.set(key, v);
    }
    return v;
  }

  /** Why a value breaks a schema, in a line, or undefined when it keeps it. */
  problem(schema: Schema, value: unknown): string | undefined {
    const v = this.validator(schema);
    if (v(value)) return undefined;
    return (v.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
  }

  find(method: string, path: string): ApiOperation | undefined {
    return this.operations.find((o) => o.method === method && o.path === path);
  }
}
