import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './context.ts';
import { defineRoutes, mountRoutes, operationsOf } from './route-declaration.ts';

const things = () =>
  defineRoutes('/v1/things', 'Things')
    .post('/', { summary: 'Create a thing', status: 201, body: 'thing-create', answer: 'thing-single' }, (c) =>
      c.json({ made: true }, 201),
    )
    .get('/', { summary: 'List things', answer: 'thing-list', filters: ['colour'] }, (c) => c.json({ data: [] }))
    .get('/pending', { summary: 'Things still to come' }, (c) => c.json({ pending: true }))
    .delete('/:id', { summary: 'Delete a thing', status: 204 }, (c) => c.body(null, 204))
    .get('/:id', { summary: 'Fetch a thing' }, (c) => c.json({ id: c.req.param('id') }));

function app() {
  const a = new Hono<AppEnv>();
  mountRoutes(a, things());
  return a;
}

describe('a declared route', () => {
  it('is served at its path, parameters as Hono gives them', async () => {
    expect(await (await app().request('/v1/things/abc')).json()).toEqual({ id: 'abc' });
    expect((await app().request('/v1/things', { method: 'POST' })).status).toBe(201);
    expect(await (await app().request('/v1/things/pending')).json()).toEqual({ pending: true });
  });

  it('gives each path a 405 naming the methods declared there, in GET POST PATCH DELETE order', async () => {
    const put = await app().request('/v1/things', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect(await put.json()).toMatchObject({
      error_message: 'method PUT is not allowed on /v1/things; allowed: GET, POST',
    });
    const patch = await app().request('/v1/things/abc', { method: 'PATCH' });
    expect(patch.headers.get('allow')).toBe('GET, DELETE');
    // A fixed segment declared before a parameter keeps its own 405.
    expect((await app().request('/v1/things/pending', { method: 'POST' })).headers.get('allow')).toBe('GET');
  });

  it('is an operation of the OpenAPI document: OpenAPI path, tag, status (default 200)', () => {
    const ops = operationsOf([things()]);
    expect(ops.map((o) => `${o.method} ${o.path} ${o.status}`)).toEqual([
      'POST /v1/things 201',
      'GET /v1/things 200',
      'GET /v1/things/pending 200',
      'DELETE /v1/things/{id} 204',
      'GET /v1/things/{id} 200',
    ]);
    expect(ops[1]).toEqual({
      method: 'GET',
      path: '/v1/things',
      tag: 'Things',
      summary: 'List things',
      status: 200,
      answer: 'thing-list',
      filters: ['colour'],
    });
  });

  it('answered elsewhere, is documented and mounts nothing', async () => {
    const group = defineRoutes('/v1/elsewhere', 'Things').answeredElsewhere('GET', '/:id', { summary: 'Elsewhere' });
    const a = new Hono<AppEnv>();
    mountRoutes(a, group);
    expect(a.routes).toEqual([]);
    expect(operationsOf([group]).map((o) => o.path)).toEqual(['/v1/elsewhere/{id}']);
  });

  it('is refused when declared twice or with a relative path', () => {
    const ok = () => new Response();
    expect(() => defineRoutes('/v1/x', 'X').get('/', { summary: 'a' }, ok).get('/', { summary: 'b' }, ok)).toThrow(
      'route GET /v1/x is declared twice',
    );
    expect(() => defineRoutes('/v1/x', 'X').get('y', { summary: 'a' }, ok)).toThrow('route path y must start with /');
  });
});
