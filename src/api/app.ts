import { type Context, Hono } from 'hono';
import { runAs } from '../sim/actor.ts';
import { bearerAuth } from './auth/middleware.ts';
import { limitBody } from './body-limit.ts';
import type { AppDeps, AppEnv } from './context.ts';
import { corsLayer } from './cors.ts';
import { DASHBOARD_PAGE } from './dashboard/dashboard-page.ts';
import { ApiError, errorBody, toErrorResponse } from './errors.ts';
import { faultLayer } from './fault-layer.ts';
import { Faults } from './faults.ts';
import { journalLayer } from './journal-layer.ts';
import { longWorkGate } from './long-work-gate.ts';
import { openApiDocument } from './openapi.ts';
import { requestHeader } from './request-header.ts';
import { RequestJournal } from './request-journal.ts';
import { accountRoutes } from './routes/accounts.ts';
import { claimRoutes } from './routes/claims.ts';
import { docsRoutes } from './routes/docs.ts';
import { nameVerificationRoutes } from './routes/name-verification.ts';
import { paymentRoutes } from './routes/payments.ts';
import { reportRoutes } from './routes/reports.ts';
import { signingKeyRoutes } from './routes/signing-keys.ts';
import { simulatorCalendarRoutes } from './routes/simulator-calendar.ts';
import { simulatorClockRoutes } from './routes/simulator-clock.ts';
import { simulatorDeliveryRoutes } from './routes/simulator-deliveries.ts';
import { simulatorFaultRoutes } from './routes/simulator-faults.ts';
import { simulatorReportRoutes } from './routes/simulator-reports.ts';
import { simulatorRequestRoutes } from './routes/simulator-requests.ts';
import { simulatorResetRoutes } from './routes/simulator-reset.ts';
import { simulatorScenarioRoutes } from './routes/simulator-scenarios.ts';
import { subscriptionRoutes } from './routes/subscriptions.ts';
import { tokenRoutes } from './routes/token.ts';

/**
 * The whole HTTP surface. Routing only: each route family lives in routes/, the rules in src/sim.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { sim } = deps;

  app.onError((err, c) => toErrorResponse(err, c));
  const journal = deps.journal ?? new RequestJournal();
  app.use(
    '*',
    journalLayer(journal, () => sim.wall.now()),
  );
  const corsHandler = corsLayer(deps.cors ?? { kind: 'localhost' });
  if (corsHandler) app.use('*', corsHandler);
  app.notFound((c) => c.json(errorBody(`route ${c.req.method} ${c.req.path} not found`), 404));

  // Name verification answers in Open Banking terms, errors of the shared rules included: it is
  // routed ahead of the shared layers below and applies their rules in its own one layer.
  app.route('/v1/participants', nameVerificationRoutes(deps));

  // One global layer (each Hono layer is an async frame and a promise per request, a visible share
  // of a small request): body limit, then the handler, then the vnd.api+json relabel, then the
  // durability commit.
  app.use('*', async (c, next) => {
    const changesBefore = sim.store.changes;
    await limitBody(c, next);
    return after(c, changesBefore);
  });
  /** Runs once the handler answered (errors included, as onError made them a response). */
  const after = (c: Context<AppEnv>, changesBefore: number): Promise<void> | undefined => {
    // application/vnd.api+json is answered in kind when the client asks only for it.
    const accept = requestHeader(c, 'accept');
    if (accept?.includes('application/vnd.api+json') && !accept.includes('application/json')) {
      const type = c.res.headers.get('content-type') ?? '';
      if (type.startsWith('application/json')) c.res.headers.set('content-type', 'application/vnd.api+json');
    }
    // Durable before acknowledged: a response is only released once the change it reports is on
    // disk. Concurrent requests share one write (group commit in the store). A write in flight
    // counts too: another request's commit may have taken this request's change into it, leaving
    // the store clean but the change not yet on disk. No await when neither holds, nor for a request
    // that changed nothing (a read, /health): it never waits on another request's write.
    if (sim.store.changes !== changesBefore && (sim.store.dirty || sim.store.writing)) return sim.store.commit();
    return undefined;
  };

  // `store` tells a harness whether a reset would wipe a data file (the sim target asks before it resets).
  // Answered from memory: it never waits for a write or for long work (an advance in slices).
  app.get('/health', (c) =>
    c.json({
      status: 'ok',
      now: sim.clock.now().toISOString(),
      clock: sim.clock.mode,
      store: sim.store.location === 'memory' ? 'memory' : 'persistent',
      auth: deps.mode.auth,
    }),
  );
  app.all('/health', (c) => {
    throw new ApiError(405, `method ${c.req.method} is not allowed on /health; allowed: GET`, { Allow: 'GET' });
  });

  app.route('/v1/oauth2/token', tokenRoutes(deps));
  let openApi: object | undefined; // generated on first request, then served as it is
  app.get('/v1/openapi.json', (c) => c.json((openApi ??= openApiDocument(deps.version))));
  app.route('/docs', docsRoutes(deps));
  app.get('/dashboard', (c) => c.html(DASHBOARD_PAGE));

  app.use('/v1/*', bearerAuth(deps));
  // Changes made by a request are actioned by its client (notifications' actioned_by).
  app.use('/v1/*', (c, next) => runAs(c.get('clientId'), next));
  // Fault rules a client set for itself (never on by default; docs/faults.md).
  const faults = deps.faults ?? new Faults();
  app.use('/v1/*', faultLayer(faults));
  // A change request waits while an advance or a reset runs in slices; reads are answered.
  app.use('/v1/*', longWorkGate(sim.longWork));
  app.route('/v1/simulator/faults', simulatorFaultRoutes(faults));
  app.route('/v1/organisation/accounts', accountRoutes(deps));
  app.route('/v1/notification/subscriptions', subscriptionRoutes(deps));
  app.route('/v1/transaction/claims', claimRoutes(deps));
  app.route('/v1/transaction/payments', paymentRoutes(deps));
  app.route('/v1/simulator/clock', simulatorClockRoutes(deps));
  app.route('/v1/simulator/calendar', simulatorCalendarRoutes(deps));
  app.route('/v1/simulator/reset', simulatorResetRoutes(deps));
  app.route('/v1/simulator/deliveries', simulatorDeliveryRoutes(deps));
  app.route('/v1/notification/reports', reportRoutes(deps));
  app.route('/v1/simulator/reports', simulatorReportRoutes(deps));
  app.route('/v1/simulator/scenarios', simulatorScenarioRoutes(deps));
  app.route('/v1/simulator/requests', simulatorRequestRoutes(journal));
  app.route('/v1/platform/security/signing_keys', signingKeyRoutes(deps));

  return app;
}
