// The OpenAPI 3.1 document, generated: the JSON Schemas of src/api/schemas become its components
// (the same files that validate requests, never a copy), the declared routes its paths.
import type { Operation, RuleBeyondSchema } from './route-declaration.ts';
import { loadSchemas } from './schemas/index.ts';

type Json = Record<string, unknown>;

/** `common#/$defs/uuid` → `#/components/schemas/common/$defs/uuid`; `#/$defs/x` stays inside its own schema. */
function rewriteRefs(value: unknown, self: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, self));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string') {
      const [id, pointer = ''] = v.split('#');
      out[k] = `#/components/schemas/${id === '' ? self : id}${pointer}`;
    } else out[k] = rewriteRefs(v, self);
  }
  return out;
}

/** Every schema but the simulator's storage ones, without $id and $schema (OpenAPI 3.1 dialect). */
function components(): Json {
  const schemas: Json = {};
  for (const { $id, $schema: _dialect, ...schema } of loadSchemas()) {
    if ($id.startsWith('stored-')) continue;
    schemas[$id] = rewriteRefs(schema, $id);
  }
  return schemas;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

function parameters(o: Operation): Json[] {
  const out: Json[] = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (o.filters) {
    for (const f of o.filters)
      out.push({ name: `filter[${f}]`, in: 'query', required: false, schema: { type: 'string' } });
    for (const p of o.answer === 'event-stream' ? [] : ['number', 'size', 'after', 'before'])
      out.push({ name: `page[${p}]`, in: 'query', required: false, schema: { type: 'string' } });
  }
  return out;
}

function answer(o: Operation): Json {
  if (o.status === 204) return { description: 'No content' };
  if (o.answer === 'binary')
    return {
      description: 'The file',
      content: Object.fromEntries(
        ['application/pdf', 'application/xml', 'application/xhtml+zip'].map((t) => [
          t,
          { schema: { type: 'string', contentEncoding: 'binary' } },
        ]),
      ),
    };
  if (o.answer === 'event-stream')
    return {
      description: 'Server-sent events, one per line of the live log, until the client goes',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  return { description: 'Success', content: json(o.answer ? ref(o.answer) : { type: 'object' }) };
}

/** The heading of the rules beyond the schema in an operation's description (a test reads them by it). */
const RULES_HEADING = 'Rules beyond the schema';

/**
 * An operation's description: every rule its body must keep that the schema cannot state, each
 * with the status and error message line breaking it answers. Everything else the double refuses
 * a body for is in the request body's schema.
 */
function description(rules: readonly RuleBeyondSchema[]): string {
  const lines = rules.map((r) => `- ${r.rule}: ${r.answers.map((a) => `${a.status} \`${a.error}\``).join(', ')}`);
  return [
    `${RULES_HEADING} (enforced by the double; JSON Schema cannot state them). Each names what breaking it answers: the status and a line of \`error_message\`, \`<…>\` standing for what varies.`,
    '',
    ...lines,
  ].join('\n');
}

function operation(o: Operation): Json {
  const errors: Json = {};
  for (const [status, description] of Object.entries(o.errors?.statuses ?? {}))
    errors[status] = { description, content: json(ref(o.errors!.schema)) };
  for (const [status, description] of [
    ['400', 'Bad request: `error_message` names the field and the rule'],
    ['401', 'No valid token or request signature'],
    ['403', 'Another organisation'],
    ['404', 'Not found (or another organisation’s)'],
  ] as const) {
    if (o.errors || (o.open && status !== '400')) continue;
    errors[status] = { description, content: json(ref('error')) };
  }
  return {
    tags: [o.tag],
    summary: o.summary,
    ...(o.rules && o.rules.length > 0 ? { description: description(o.rules) } : {}),
    operationId: `${o.method.toLowerCase()}${o.path.replace(/\{[^}]+\}/g, 'One').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    ...(o.open ? { security: [] } : {}),
    parameters: parameters(o),
    ...(o.body ? { requestBody: { required: true, content: json(ref(o.body)) } } : {}),
    responses: { [String(o.status)]: answer(o), ...errors },
  };
}

/** The document served at GET /v1/openapi.json: every declared operation, in the order declared. */
export function openApiDocument(operations: readonly Operation[], version = '0.1.0'): Json {
  const paths: Record<string, Json> = {};
  for (const o of operations) {
    paths[o.path] ??= {};
    paths[o.path]![o.method.toLowerCase()] = operation(o);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'scheme-sim',
      version,
      description:
        "A stateful double of Form3's payments API (accounts, subscriptions, DDIC claims, payments, reports, Confirmation of Payee) on a controllable Bacs scheme clock, and the simulator's own controls under /v1/simulator.",
    },
    servers: [{ url: '/' }],
    security: [{ oauth2: [] }, { bearer: [] }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/v1/oauth2/token', scopes: {} } } },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
