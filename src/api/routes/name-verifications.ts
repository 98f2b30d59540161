// The requester side of Confirmation of Payee: a client asks Form3's API whether a name matches a
// payee's account, and the simulator asks the payee's bank for it.
import {
  NAME_VERIFICATION_FILTERS,
  NAME_VERIFICATION_TYPE,
  type NameVerificationAttributes,
} from '../../sim/cop/name-verification-records.ts';
import { asCaller } from '../as-caller.ts';
import { readCreateBody } from '../body/create-body.ts';
import type { AppDeps } from '../context.ts';
import { askParticipant } from '../open-banking/ask-participant.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { page, queryOf } from '../wire/envelope.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId } from '../wire/ids.ts';

/**
 * /v1/organisation/nameverifications: Form3's name verification request API (go-form3's
 * name_verification_api). A create is routed to the participant serving the payee's sort code,
 * whose Open Banking endpoint answers it (ask-participant.ts); the domain records both sides
 * (src/sim/cop/name-verification-requests.ts). docs/cop.md, Asking.
 */
export function nameVerificationRequestRoutes(deps: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/organisation/nameverifications', 'Name verifications');
  const requests = deps.sim.nameVerificationRequests;

  r.post(
    '/',
    {
      summary: 'Ask whether a name matches a payee account (the payee bank answers)',
      body: 'name-verification-create',
      status: 201,
      answer: 'name-verification-single',
    },
    async (c, answer) => {
      const body = await readCreateBody<NameVerificationAttributes>(
        c,
        'name-verification-create',
        NAME_VERIFICATION_TYPE,
        { strict: deps.mode.strictBodies },
      );
      const plan = requests.plan(body);
      const { route } = plan;
      const outcome =
        plan.ask && route.kind === 'participant'
          ? await askParticipant(deps, {
              clientId: c.get('clientId'),
              organisationId: c.get('organisationId'),
              participant: route.participant,
              request: route.request,
              interactionId: body.id,
            })
          : undefined;
      return answer(deps.sim.paths.bodyOf(asCaller(c, () => requests.record(body, plan, outcome))));
    },
  );

  r.get(
    '/',
    { summary: 'List name verifications', answer: 'name-verification-list', filters: NAME_VERIFICATION_FILTERS },
    (c) => {
      const filter = parseFilters(queryOf(c), NAME_VERIFICATION_FILTERS, { anyOf: true });
      return c.json(page(c, requests.list(c.get('organisationId'), filter)));
    },
  );

  r.get('/:id', { summary: 'Fetch a name verification', answer: 'name-verification-single' }, (c) =>
    c.json(deps.sim.paths.bodyOf(requests.get(parseId(c.req.param('id')), c.get('organisationId')))),
  );

  r.get(
    '/:name_verification_id/admissions/:id',
    {
      summary: "Fetch a name verification's admission (the payee bank's side)",
      answer: 'name-verification-admission-single',
    },
    (c) => {
      const admission = requests.getAdmission(
        parseId(c.req.param('name_verification_id'), 'name_verification_id'),
        parseId(c.req.param('id')),
        c.get('organisationId'),
      );
      return c.json(deps.sim.paths.bodyOf(admission));
    },
  );

  r.get(
    '/:name_verification_id/submissions/:submission_id',
    {
      summary: "Fetch a name verification's submission (the simulator's; go-form3 has no call for it)",
      answer: 'name-verification-submission-single',
    },
    (c) => {
      const submission = requests.getSubmission(
        parseId(c.req.param('name_verification_id'), 'name_verification_id'),
        parseId(c.req.param('submission_id'), 'submission_id'),
        c.get('organisationId'),
      );
      return c.json(deps.sim.paths.bodyOf(submission));
    },
  );

  return r;
}
