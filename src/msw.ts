// msw handlers that answer a base URL with the simulator's own app, in process: a client under
// test keeps its real HTTP code (fetch, axios, ...) and talks to the real simulator, with no port.
//
//   import { setupServer } from 'msw/node';
//   import { createRuntime } from 'scheme-sim';
//   import { handlersFor } from 'scheme-sim/msw';
//   const server = setupServer(...handlersFor(await createRuntime({ memory: true })));
//   server.listen();
//
// msw is a peer of this module: install it in the project that uses it. A CommonJS project
// compiled with NodeNext sees msw's CommonJS declarations, this module (ESM) its ESM ones, and
// TypeScript holds the two HttpHandler classes apart (TS2345): pass your own `http` there,
//   const { http } = require('msw');  setupServer(...handlersFor(runtime, { http }))
// and the handlers are of your msw's type.
import { type HttpHandler, http as ownHttp } from 'msw';
import type { Runtime } from './runtime.ts';

/** The base URL the handlers answer unless told otherwise. */
export const DEFAULT_BASE_URL = 'http://scheme-sim.test';

/**
 * One catch-all handler for every method under `baseUrl`. The base URL may carry a path prefix
 * (`http://gateway.test/payments`); it is stripped before the app routes the request.
 */
/** The part of msw's `http` the handlers are made with (yours, so they are of your msw's types). */
export interface HttpFactory<H> {
  all(path: string, resolver: (info: { request: Request }) => Promise<Response>): H;
}

type SimRuntime = Pick<Runtime, 'app'> & Partial<Pick<Runtime, 'sim' | 'sandboxes'>>;

export function handlersFor(runtime: SimRuntime, baseUrl?: string): HttpHandler[];
export function handlersFor<H>(runtime: SimRuntime, options: { http: HttpFactory<H>; baseUrl?: string }): H[];
export function handlersFor<H>(
  runtime: SimRuntime,
  options: string | { http: HttpFactory<H>; baseUrl?: string } = DEFAULT_BASE_URL,
): Array<H | HttpHandler> {
  const baseUrl = typeof options === 'string' ? options : (options.baseUrl ?? DEFAULT_BASE_URL);
  const http: HttpFactory<H | HttpHandler> = typeof options === 'string' ? ownHttp : options.http;
  const base = new URL(baseUrl);
  // Deliveries go through fetch, which msw answers: a callback under the base URL would call the simulator itself.
  if (runtime.sandboxes) runtime.sandboxes.addSelfAddress(baseUrl);
  else runtime.sim?.subscriptions.addSelfAddress(baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  const origin = base.origin;
  return [
    http.all(`${origin}${prefix}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(prefix.length) || '/';
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const forwarded = new Request(`${origin}${path}${url.search}`, {
        method: request.method,
        headers: request.headers,
        ...(body !== undefined ? { body } : {}),
      });
      return runtime.app.fetch(forwarded);
    }),
  ];
}
