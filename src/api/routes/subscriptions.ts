// The HTTP face of notification subscriptions: a client says which changes it wants to hear of and
// where they are sent; what is sent and when is src/sim/notifications and src/delivery.
import {
  SUBSCRIPTION_FILTERS,
  SUBSCRIPTION_TYPE,
  type SubscriptionInput,
} from '../../sim/notifications/subscriptions.ts';
import { asCaller } from '../as-caller.ts';
import { readJson } from '../body/body.ts';
import { assertBodyIdentity } from '../body/body-identity.ts';
import { readCreateBody } from '../body/create-body.ts';
import { FORM3_EMPTY_MEANS_ABSENT, withoutEmptyStrings } from '../body/empty-strings.ts';
import { fieldsOf, withDeclaredKeys } from '../body/json-keys.ts';
import { validateOrThrow } from '../body/validate.ts';
import { assertCallbackHostNotSelf } from '../callback-host.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, ID_USED_ONCE, type RouteGroup, type RuleBeyondSchema } from '../route-declaration.ts';
import { errorView } from '../views/delivery-views.ts';
import { page, queryOf } from '../wire/envelope.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId, parseVersionQuery } from '../wire/ids.ts';

/** Where an empty string in a PATCH means not given (SubscriptionUpdateAttributes' Go strings). */
const UPDATE_EMPTIES = FORM3_EMPTY_MEANS_ABSENT['subscription-update']!;

/** Where a callback may point: read as a WHATWG URL, and by where the simulator listens. */
const CALLBACK_RULES: readonly RuleBeyondSchema[] = [
  {
    rule: 'each `callback_uri` is an absolute http(s) URL (as WHATWG URL parsing reads it) without credentials',
    answers: [
      { status: 400, error: 'callback_uri in body must be an absolute URL' },
      { status: 400, error: 'callback_uri in body must use http or https' },
      { status: 400, error: 'callback_uri in body must not carry credentials' },
    ],
  },
  {
    rule: 'for `callback_transport` queue, an SQS queue URL',
    answers: [
      {
        status: 400,
        error:
          'callback_uri in body must be an SQS queue URL (http(s)://host/<account>/<queue-name>) for callback_transport queue',
      },
    ],
  },
  {
    rule: 'not the simulator itself (its host and port, by any loopback name, or a host name resolving to them)',
    answers: [
      { status: 400, error: 'callback_uri in body must not point at the simulator itself (<address>)' },
      {
        status: 400,
        error:
          'callback_uri in body must not point at the simulator itself: <host> resolves to <address>, where it listens (<address>)',
      },
    ],
  },
];

/** The filter's grammar (docs/notifications.md) and distinct keys. */
const ATTRIBUTE_RULES: readonly RuleBeyondSchema[] = [
  {
    rule: "`filter` is conditions `path=value` joined by ' and '",
    answers: [
      { status: 400, error: 'filter in body: "<part>" is no condition; use <syntax>' },
      { status: 400, error: 'filter in body: "<path>" is no dotted path; use <syntax>' },
      { status: 400, error: 'filter in body: quote a whole value, not part of it; use <syntax>' },
      { status: 400, error: 'filter in body has an unclosed double quote; use <syntax>' },
    ],
  },
  {
    rule: '`user_defined_data` keys are distinct',
    answers: [{ status: 400, error: 'user_defined_data in body should not repeat a key' }],
  },
];

/** A change is judged on the subscription it makes, which the body alone does not show. */
const CHANGED_CALLBACKS: RuleBeyondSchema = {
  rule: 'the subscription the change makes has `callback_uris`, or `callback_transport` and `callback_uri` together',
  answers: [
    {
      status: 400,
      error: 'callback_uris in body is required (or the deprecated callback_transport and callback_uri together)',
    },
    { status: 400, error: 'callback_transport and callback_uri in body go together: give both or neither' },
  ],
};

interface SubscriptionBody {
  data: { id: string; organisation_id: string; version?: number; attributes: SubscriptionInput };
}

/** /v1/notification/subscriptions: who is told about which changes, and where. */
export function subscriptionRoutes(deps: AppDeps): RouteGroup {
  const { sim } = deps;
  const r = defineRoutes('/v1/notification/subscriptions', 'Subscriptions');
  const updateFields = fieldsOf('subscription-update');

  r.post(
    '/',
    {
      summary: 'Create a subscription',
      status: 201,
      body: 'subscription-create',
      answer: 'subscription-single',
      rules: [...CALLBACK_RULES, ...ATTRIBUTE_RULES, ID_USED_ONCE],
    },
    async (c, answer) => {
      const input = await readCreateBody<SubscriptionInput>(c, 'subscription-create', SUBSCRIPTION_TYPE, {
        strict: deps.mode.strictBodies,
        readOnly: ['user_id'],
      });
      for (const uri of callbackUrisOf(input.attributes)) await assertCallbackHostNotSelf(deps, uri);
      const s = asCaller(c, () => sim.subscriptions.create({ ...input, user_id: c.get('clientId') }));
      return answer(sim.paths.bodyOf(s));
    },
  );

  r.get('/', { summary: 'List subscriptions', answer: 'subscription-list', filters: SUBSCRIPTION_FILTERS }, (c) => {
    const filter = parseFilters(queryOf(c), SUBSCRIPTION_FILTERS, { anyOf: true });
    return c.json(page(c, sim.subscriptions.list(c.get('organisationId'), filter)));
  });

  r.get('/:id', { summary: 'Fetch a subscription', answer: 'subscription-single' }, (c) =>
    c.json(sim.paths.bodyOf(sim.subscriptions.get(parseId(c.req.param('id')), c.get('organisationId')))),
  );

  r.get(
    '/:id/errors',
    { summary: 'Failed deliveries of a subscription', answer: 'subscription-delivery-error-list' },
    (c) => {
      const s = sim.subscriptions.get(parseId(c.req.param('id')), c.get('organisationId'));
      const failed = sim.outbox.failedAttemptsOf(s.id);
      return c.json(page(c, failed, errorView));
    },
  );

  r.patch(
    '/:id',
    {
      summary: 'Amend a subscription',
      body: 'subscription-update',
      answer: 'subscription-single',
      rules: [CHANGED_CALLBACKS, ...CALLBACK_RULES, ...ATTRIBUTE_RULES],
    },
    async (c) => {
      const id = parseId(c.req.param('id'));
      const organisationId = c.get('organisationId');
      const body = validateOrThrow<{
        data: Partial<SubscriptionBody['data']> & { version: number; attributes: SubscriptionInput };
      }>(
        'subscription-update',
        withoutEmptyStrings(asSubscriptionUpdate(withDeclaredKeys(await readJson(c), updateFields)), UPDATE_EMPTIES),
        'body',
        {
          dropUndeclared: !deps.mode.strictBodies,
        },
      );
      assertBodyIdentity(id, organisationId, body.data);
      for (const uri of callbackUrisOf(body.data.attributes)) await assertCallbackHostNotSelf(deps, uri);
      const updated = asCaller(c, () =>
        sim.subscriptions.update(id, organisationId, body.data.version, body.data.attributes),
      );
      return c.json(sim.paths.bodyOf(updated));
    },
  );

  r.delete('/:id', { summary: 'Delete a subscription (?version=)', status: 204 }, (c, answer) => {
    const id = parseId(c.req.param('id'));
    sim.subscriptions.delete(
      id,
      c.get('organisationId'),
      parseVersionQuery(c.req.query('version'), c.get('wire').versionRefusal),
    );
    return answer();
  });

  return r;
}

/** Every callback URI a body names (the deprecated one and each of callback_uris). */
function callbackUrisOf(a: SubscriptionInput): string[] {
  return [
    ...(a.callback_uri !== undefined ? [a.callback_uri] : []),
    ...(a.callback_uris ?? []).map((c) => c.callback_uri),
  ];
}

/**
 * A PATCH as Form3's SDK sends it: `callback_uris` null (the SDK serialises it always) leaves the
 * callbacks unchanged, and the read-only `user_id` is ignored. Other nulls keep their meaning here
 * (null removes filter, user_defined_data or secret).
 */
function asSubscriptionUpdate(body: unknown): unknown {
  const attributes = (body as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) return body;
  const { callback_uris, user_id: _, ...rest } = attributes as Record<string, unknown>;
  const data = (body as { data: Record<string, unknown> }).data;
  return {
    ...(body as object),
    data: {
      ...data,
      attributes:
        callback_uris === null ? rest : { ...rest, ...(callback_uris === undefined ? {} : { callback_uris }) },
    },
  };
}
