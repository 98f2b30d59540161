// The Hono app each world serves: which layers a request passes through, in which order (sandbox
// dispatch, journal, CORS, name verification ahead of the shared rules, body limit, durable commit).
import { type Context, Hono } from 'hono';
import type { AppDeps, AppEnv } from './context.ts';
import { dashboardPage, FAVICON_SVG } from './dashboard/dashboard-page.ts';
import { homePage } from './dashboard/home-page.ts';
import { journalLayer } from './journal/journal-layer.ts';
import { LiveLog } from './journal/live-log.ts';
import { RequestJournal } from './journal/request-journal.ts';
import { limitBody } from './layers/body-limit.ts';
import { corsLayer } from './layers/cors.ts';
import { Faults } from './layers/faults.ts';
import { sandboxDispatch } from './layers/sandbox-dispatch.ts';
import { v1Layer } from './layers/v1-layer.ts';
import { mountRoutes, operationsOf, type RouteGroup } from './route-declaration.ts';
import { accountRoutes } from './routes/accounts.ts';
import { claimRoutes } from './routes/claims.ts';
import { docsRoutes } from './routes/docs.ts';
import { nameVerificationRoutes, participantOperations } from './routes/name-verification.ts';
import { nameVerificationRequestRoutes } from './routes/name-verifications.ts';
import { notificationSigningKeyRoutes } from './routes/notification-signing-keys.ts';
import { paymentRoutes } from './routes/payments.ts';
import { reportRoutes } from './routes/reports.ts';
import { serviceInfoRoutes } from './routes/service-info.ts';
import { simulatorCalendarRoutes } from './routes/simulator-calendar.ts';
import { simulatorClockRoutes } from './routes/simulator-clock.ts';
import { simulatorDeliveryRoutes } from './routes/simulator-deliveries.ts';
import { simulatorFaultRoutes } from './routes/simulator-faults.ts';
import { simulatorReportRoutes } from './routes/simulator-reports.ts';
import { simulatorRequestRoutes } from './routes/simulator-requests.ts';
import { simulatorResetRoutes } from './routes/simulator-reset.ts';
import { simulatorSandboxRoutes } from './routes/simulator-sandboxes.ts';
import { simulatorScenarioRoutes } from './routes/simulator-scenarios.ts';
import { simulatorStreamRoutes } from './routes/simulator-stream.ts';
import { subscriptionRoutes } from './routes/subscriptions.ts';
import { tokenRoutes } from './routes/token.ts';
import { userRoutes } from './routes/users.ts';
import { DEFAULT_SANDBOX } from './sandbox-directory.ts';
import { isEmptyAnswer } from './wire/answer-header.ts';
import { toErrorResponse } from './wire/errors.ts';
import { requestHeader } from './wire/request-header.ts';
import { wireRules } from './wire/wire-rules.ts';

/**
 * The whole HTTP surface. Routing only: each route family lives in routes/, the rules in src/sim.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { sim } = deps;

  app.onError((err, c) => toErrorResponse(err, c));
  // The default world passes a sandbox's requests to that sandbox's app, ahead of everything of its own.
  if (deps.sandboxes && (deps.worldId ?? DEFAULT_SANDBOX) === DEFAULT_SANDBOX)
    app.use('*', sandboxDispatch(deps.sandboxes));
  const journal = deps.journal ?? new RequestJournal();
  app.use(
    '*',
    journalLayer(
      journal,
      () => sim.wall.now(),
      () => sim.clock.now(),
    ),
  );
  const corsHandler = corsLayer(deps.cors ?? { kind: 'localhost' });
  if (corsHandler) app.use('*', corsHandler);
  // Where the fake account API's server answers otherwise than Form3's (--auth off), chosen once.
  const wire = wireRules(deps.mode.wire);
  app.notFound((c) => wire.notFound(c));

  // Name verification answers in Open Banking terms, errors of the shared rules included: it is
  // routed ahead of the shared layers below and applies their rules in its own one layer.
  app.route(participantOperations.prefix, nameVerificationRoutes(deps));
  /** Every route group, in the order mounted: the paths of the OpenAPI document. */
  const declared: RouteGroup[] = [participantOperations];
  const mount = (group: RouteGroup) => {
    mountRoutes(app, group);
    declared.push(group);
  };

  // One global layer (each Hono layer is an async frame and a promise per request, a visible share
  // of a small request): body limit, then the handler, then the vnd.api+json relabel, then the
  // durability commit.
  app.use('*', async (c, next) => {
    const changesBefore = sim.store.changes;
    c.set('wire', wire);
    await limitBody(c, next);
    return after(c, changesBefore);
  });
  /** Runs once the handler answered (errors included, as onError made them a response). */
  const after = (c: Context<AppEnv>, changesBefore: number): Promise<void> | undefined => {
    if (isEmptyAnswer(c.res)) wire.finishEmpty(c.res);
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

  mount(serviceInfoRoutes(deps, () => operationsOf(declared)));
  mount(tokenRoutes(deps));
  app.route('/docs', docsRoutes(deps));
  const dashboard = dashboardPage(deps.devClientHint);
  app.get('/dashboard', (c) => c.html(dashboard));
  // A browser at the root finds the pages; any other client, the 404 it always had.
  app.get(
    '/',
    homePage((c) => wire.notFound(c)),
  );
  // Browsers ask for /favicon.ico whatever the page links; both answer the dashboard's icon.
  for (const path of ['/favicon.svg', '/favicon.ico'])
    app.get(path, (c) =>
      c.body(FAVICON_SVG, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }),
    );

  if (deps.sandboxes) mount(simulatorSandboxRoutes(deps, deps.sandboxes));
  // Authentication, the client as the actor of changes, its fault rules (never on by default), a
  // sandbox's quota, and the wait of a change while an advance or a reset runs: one layer.
  const faults = deps.faults ?? new Faults();
  app.use('/v1/*', v1Layer(deps, faults, sim.longWork, deps.recordQuota));
  mount(simulatorFaultRoutes(faults));
  mount(accountRoutes(deps));
  mount(nameVerificationRequestRoutes(deps));
  mount(subscriptionRoutes(deps));
  mount(claimRoutes(deps));
  mount(paymentRoutes(deps));
  mount(simulatorClockRoutes(deps));
  mount(simulatorCalendarRoutes(deps));
  mount(simulatorResetRoutes(deps));
  mount(simulatorDeliveryRoutes(deps));
  mount(reportRoutes(deps));
  mount(simulatorReportRoutes(deps));
  mount(simulatorScenarioRoutes(deps));
  mount(simulatorRequestRoutes(journal));
  mount(simulatorStreamRoutes(deps, new LiveLog(journal, sim)));
  mount(notificationSigningKeyRoutes(deps));
  mount(userRoutes(deps));

  requestSchemas.set(app, () => [...new Set(operationsOf(declared).flatMap((o) => (o.body ? [o.body] : [])))]);
  return app;
}

const requestSchemas = new WeakMap<Hono<AppEnv>, () => string[]>();

/** The schemas of the request bodies an app's routes read (their declarations name them). */
export function requestSchemasOf(app: Hono<AppEnv>): string[] {
  return requestSchemas.get(app)?.() ?? [];
}
