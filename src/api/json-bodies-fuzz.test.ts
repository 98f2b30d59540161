import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { MAX_JSON_DEPTH } from './body/json-depth.ts';

// Hostile bodies to every route that takes one (issue 29): deep, wide and long, at and past the
// depth limit, up to the size limit and past it, and random ones. Nothing may answer 5xx; a body
// nested past the limit is refused with a 400 naming it, on every route that reads JSON.

let rt: TestRuntime;
let token: string;
/** Every operation that takes a body (POST, PATCH), with its path filled in; `json`: its body is JSON. */
let routes: Array<{ method: string; path: string; json: boolean }>;

beforeAll(async () => {
  rt = await testRuntime();
  token = await rt.token();
  const doc = (await (await rt.app.request('/v1/openapi.json')).json()) as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
  };
  routes = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    const path = template
      .replace('{open_banking_id}', '0015800001041REAAY')
      .replace(/\{[^}]+\}/g, '6f0c2a8e-0000-4000-8000-000000000001');
    for (const [method, o] of Object.entries(operations))
      if (method === 'post' || method === 'patch' || method === 'put')
        routes.push({ method: method.toUpperCase(), path, json: 'application/json' in (o.requestBody?.content ?? {}) });
  }
  expect(routes.filter((r) => r.json).length).toBeGreaterThanOrEqual(16);
});
afterAll(() => rt.close());

const send = (route: { method: string; path: string }, body: string) =>
  rt.app.request(route.path, {
    method: route.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });

const MiB = 1024 * 1024;
const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const objects = (n: number, leaf = '{}') => `${'{"a":'.repeat(n - 1)}${leaf}${'}'.repeat(n - 1)}`;
/**
 * A body whose inner part sits where Form3's envelope has attributes (two levels in) and where
 * Open Banking's has Data (one level in); `inner` is told how many levels the envelope adds.
 */
const inEnvelopes = (inner: string | ((outer: number) => string)) => {
  const at = (outer: number) => (typeof inner === 'string' ? inner : inner(outer));
  return [
    `{"data":{"id":"6f0c2a8e-0000-4000-8000-000000000002","type":"accounts","attributes":${at(2)}}}`,
    `{"Data":${at(1)}}`,
  ];
};

/** Bodies nested past the limit: each must be refused with the 400 that names it. */
const TOO_DEEP: Array<[string, string]> = [
  ['data.type as 10,000 nested arrays (issue 29)', `{"data":{"type":${arrays(10_000)},"attributes":{}}}`],
  ...inEnvelopes(objects(5_000)).map((b): [string, string] => ['attributes 5,000 objects deep (issue 29)', b]),
  ...inEnvelopes((outer) => objects(MAX_JSON_DEPTH - outer + 1)).map((b): [string, string] => [
    'one level past the limit',
    b,
  ]),
  ['arrays nested as deep as 1 MiB allows', arrays(MiB / 2 - 1)],
];

/** Bodies within the limits: any answer but a 5xx. */
const HOSTILE: Array<[string, string]> = [
  ...inEnvelopes((outer) => objects(MAX_JSON_DEPTH - outer)).map((b): [string, string] => ['objects at the limit', b]),
  ...inEnvelopes((outer) => arrays(MAX_JSON_DEPTH - outer)).map((b): [string, string] => ['arrays at the limit', b]),
  ...inEnvelopes((outer) =>
    objects(MAX_JSON_DEPTH - outer - 2, '{"b":null,"c":"0001-01-01","d":[null,{"e":null}]}'),
  ).map((b): [string, string] => ['nulls and Go zero dates at the limit', b]),
  ...inEnvelopes(`{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":null`).join(',')}}`).map(
    (b): [string, string] => ['60,000 keys', b],
  ),
  ...inEnvelopes(`{"name":[${Array.from({ length: 200_000 }, () => '1').join(',')}]}`).map((b): [string, string] => [
    'an array of 200,000 items',
    b,
  ]),
  ...inEnvelopes(`{"name":["${'x'.repeat(MiB - 200)}"]}`).map((b): [string, string] => ['a string of 1 MiB', b]),
  ...inEnvelopes(`{"name":["${'x'.repeat(MiB)}"]}`).map((b): [string, string] => ['a body over 1 MiB', b]),
  ...inEnvelopes('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}').map((b): [string, string] => [
    'prototype keys',
    b,
  ]),
  ['a top-level array', '[1,2,3]'],
  ['a top-level string', '"hello"'],
  ['null', 'null'],
  ['brackets in strings', JSON.stringify({ data: { attributes: { name: ['['.repeat(10_000)] } } })],
];

/**
 * Random JSON: nesting up to past the limit, nulls, zero dates, odd keys and numbers (seeded). Each
 * body has at most NODES values (random branching alone grows some bodies without bound), and a
 * deep one nests along a spine that reaches the depth asked for.
 */
function randomBodies(count: number, seed: number): string[] {
  const NODES = 3_000;
  let s = seed;
  const random = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const leaves = [null, '0001-01-01', '', 'x'.repeat(300), 1e308, -0, 12.5, true, '\u0000\ud800', '__proto__'];
  const keys = ['data', 'attributes', 'type', 'id', 'name', '__proto__', 'Data', 'rows', 'version', ''];
  let budget = 0;
  const build = (depth: number, spine: boolean): unknown => {
    if (!spine && (depth === 0 || budget <= 0 || random() < 0.15)) return leaves[Math.floor(random() * leaves.length)];
    if (depth === 0) return leaves[0];
    budget--;
    const n = Math.max(spine ? 1 : 0, Math.floor(random() * 4));
    const children = Array.from({ length: n }, (_, i) => build(depth - 1, spine && i === 0));
    if (random() < 0.4) return children;
    const o: Record<string, unknown> = {};
    children.forEach((child, i) =>
      Object.defineProperty(o, i === 0 && spine ? 'data' : keys[Math.floor(random() * keys.length)]!, {
        value: child,
        enumerable: true,
        writable: true,
        configurable: true,
      }),
    );
    return o;
  };
  return Array.from({ length: count }, (_, i) => {
    budget = NODES;
    const data = build(i % 3 === 0 ? MAX_JSON_DEPTH + 8 : 8, i % 3 === 0);
    budget = NODES;
    return JSON.stringify({ data, Data: build(6, false) });
  });
}

describe('JSON bodies on every route that takes a body', () => {
  it('refuses a body nested past the limit with a 400 naming it, before anything walks it', async () => {
    for (const route of routes.filter((r) => r.json)) {
      for (const [label, body] of TOO_DEEP) {
        const res = await send(route, body);
        const text = await res.text();
        const where = `${route.method} ${route.path}: ${label}`;
        expect(res.status, `${where}: ${text.slice(0, 200)}`).toBe(400);
        expect(text, where).toContain(`the limit is ${MAX_JSON_DEPTH}`);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        // Form3's error shape on its routes, Open Banking's on the participant's.
        if (route.path.startsWith('/v1/participants/')) expect(parsed).toHaveProperty('Errors');
        else expect(Object.keys(parsed).sort(), where).toEqual(['error_code', 'error_message']);
      }
    }
  }, 120_000);

  it('answers no 5xx to deep, wide, long and random bodies', async () => {
    const bodies = [...HOSTILE, ...randomBodies(40, 29).map((b, i): [string, string] => [`random body ${i}`, b])];
    const statuses = new Map<number, number>();
    for (const route of routes) {
      for (const [label, body] of bodies) {
        const res = await send(route, body);
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${route.method} ${route.path}: ${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
      }
    }
    // The bodies reached the readers: they were refused for what they are, not all for one reason.
    expect(statuses.get(400)).toBeGreaterThan(routes.length * 10);
    expect(statuses.get(413)).toBeGreaterThanOrEqual(routes.filter((r) => r.json).length);
  }, 300_000);
});
