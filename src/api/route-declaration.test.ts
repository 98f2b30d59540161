import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './context.ts';
import { defineRoutes, mountRoutes, operationsOf } from './route-declaration.ts';

const things = () =>
  defineRoutes('/v1/things', 'Things')
    .post('/', { summary: 'Create a thing', status: 201, body: 'thing-create', answer: 'thing-single' }, (_c, answer) =>
      answer({ made: true }),
    )
    .get('/', { summary: 'List things', answer: 'thing-list', filters: ['colour'] }, (c) => c.json({ data: [] }))
    .get('/pending', { summary: 'Things still to come' }, (c) => c.json({ pending: true }))
    .delete('/:id', { summary: 'Delete a thing', status: 204 }, (_c, answer) => answer())
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

  it('answers its success with the status it declares, and nothing else states it', async () => {
    const made = await app().request('/v1/things', { method: 'POST' });
    expect(made.status).toBe(201);
    expect(await made.json()).toEqual({ made: true });
    const deleted = await app().request('/v1/things/abc', { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const later = defineRoutes('/v1/later', 'Things').post('/', { summary: 'Later', status: 202 }, async (_c, answer) =>
      answer({ queued: true }),
    );
    const a = new Hono<AppEnv>();
    mountRoutes(a, later);
    expect((await a.request('/v1/later', { method: 'POST' })).status).toBe(202);
  });

  it.each([
    ['declares 201, answers 200', { status: 201 }, (c: Context<AppEnv>) => c.json({ made: true }), 200, 201],
    ['declares 201, answers 200 later', { status: 201 }, async (c: Context<AppEnv>) => c.json({}, 200), 200, 201],
    ['declares 200, answers 201', {}, (c: Context<AppEnv>) => c.json({}, 201), 201, 200],
    ['declares 204, answers 200', { status: 204 }, (c: Context<AppEnv>) => c.body(null, 200), 200, 204],
  ])('fails when it %s: a 2xx other than the declared one', async (_, doc, handler, answered, declared) => {
    const group = defineRoutes('/v1/x', 'X').post('/', { summary: 'x', ...doc }, handler);
    const a = new Hono<AppEnv>();
    let error: Error | undefined;
    a.onError((err, c) => {
      error = err;
      return c.json({}, 500);
    });
    mountRoutes(a, group);
    expect((await a.request('/v1/x', { method: 'POST' })).status).toBe(500);
    expect(error?.message).toBe(`POST /v1/x answered ${answered}, but its declaration says ${declared}`);
  });

  it('lets its errors through: only a 2xx is held to the declared status', async () => {
    const group = defineRoutes('/v1/x', 'X').post('/', { summary: 'x', status: 201 }, (c) => c.body(null, 404));
    const a = new Hono<AppEnv>();
    mountRoutes(a, group);
    expect((await a.request('/v1/x', { method: 'POST' })).status).toBe(404);
  });

  it('is refused when declared twice or with a relative path', () => {
    const ok = () => new Response();
    expect(() => defineRoutes('/v1/x', 'X').get('/', { summary: 'a' }, ok).get('/', { summary: 'b' }, ok)).toThrow(
      'route GET /v1/x is declared twice',
    );
    expect(() => defineRoutes('/v1/x', 'X').get('y', { summary: 'a' }, ok)).toThrow('route path y must start with /');
  });
});
