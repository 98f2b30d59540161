import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerAuth } from './auth/middleware.ts';
import type { AppDeps, AppEnv } from './context.ts';
import { ApiError, errorBody, toErrorResponse } from './errors.ts';
import { accountRoutes } from './routes/accounts.ts';
import { reportRoutes } from './routes/reports.ts';
import { simulatorClockRoutes } from './routes/simulator-clock.ts';
import { simulatorReportRoutes } from './routes/simulator-reports.ts';
import { tokenRoutes } from './routes/token.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The whole HTTP surface. Routing only: each route family lives in routes/, the rules in src/sim.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { sim } = deps;

  app.onError((err, c) => toErrorResponse(err, c));
  app.notFound((c) => c.json(errorBody(`route ${c.req.method} ${c.req.path} not found`), 404));

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, `request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`);
    },
  });
  // GET and HEAD carry no body. Skipping them matters: reading `c.req.raw.body` makes the node
  // server build a full fetch Request (and an AbortController) for every call, which halves the
  // throughput of cached report downloads.
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  // Durable before acknowledged: a response is only released once the change it reports is on
  // disk. Concurrent requests share one write (group commit in the store).
  app.use('*', async (c, next) => {
    await next();
    if (sim.store.dirty) await sim.store.commit();
  });

  // application/vnd.api+json is answered in kind when the client asks only for it.
  app.use('*', async (c, next) => {
    await next();
    const accept = c.req.header('accept') ?? '';
    if (accept.includes('application/vnd.api+json') && !accept.includes('application/json')) {
      const type = c.res.headers.get('content-type') ?? '';
      if (type.startsWith('application/json')) c.res.headers.set('content-type', 'application/vnd.api+json');
    }
  });

  app.get('/health', (c) => c.json({ status: 'ok', now: sim.clock.now().toISOString(), clock: sim.clock.mode }));

  app.route('/v1/oauth2/token', tokenRoutes(deps));

  app.use('/v1/*', bearerAuth(deps));
  app.route('/v1/organisation/accounts', accountRoutes(deps));
  app.route('/v1/simulator/clock', simulatorClockRoutes(deps));
  app.route('/v1/notification/reports', reportRoutes(deps));
  app.route('/v1/simulator/reports', simulatorReportRoutes(deps));

  return app;
}
