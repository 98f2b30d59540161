// The HTTP face of Direct Debit Indemnity Claims; the claims' lifecycle itself is src/sim/claims.
import type { Context } from 'hono';
import {
  CLAIM_REVERSAL_SUBMISSION_TYPE,
  CLAIM_REVERSAL_TYPE,
  CLAIM_SUBMISSION_TYPE,
  CLAIM_TYPE,
  type ClaimAttributes,
} from '../../sim/claims/claim-resources.ts';
import { CLAIM_FILTERS } from '../../sim/claims/claims.ts';
import { asCaller } from '../as-caller.ts';
import { readCreateBody } from '../body/create-body.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import {
  defineRoutes,
  ID_USED_ONCE,
  PARENT_EXISTS,
  type RouteGroup,
  type RuleBeyondSchema,
} from '../route-declaration.ts';
import { queryOf, resourcePage } from '../wire/envelope.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId } from '../wire/ids.ts';

/** A reversal, and its submission, need the claim's submission processed and its window open. */
const REVERSIBLE: readonly RuleBeyondSchema[] = [
  {
    rule: 'the claim has been submitted, its submission has not failed and has been processed (working day 1), and the reversal window (to the end of working day D0+11) is open',
    answers: [
      { status: 400, error: 'claim <id> has not been submitted; only a submitted claim can be reversed' },
      {
        status: 400,
        error: 'claim <id> cannot be reversed: its submission is <status> (<reason>), so it is never settled',
      },
      {
        status: 400,
        error:
          'claim <id> cannot be reversed yet: its submission is processed on <date> (working day 1 after submission day <date>), when the sequence number to quote is assigned; reversals are accepted from then until the end of <date> (working day D0+11, London time)',
      },
      {
        status: 400,
        error:
          'claim <id> can no longer be reversed: the reversal window closed at the end of <date> (working day D0+11, submission day D0 <date>)',
      },
    ],
  },
];

/**
 * /v1/transaction/claims: Direct Debit Indemnity Claims, their submissions, reversals and reversal
 * submissions. What happens after a submission is the scheme clock's business (src/sim/claims).
 */
export function claimRoutes({ sim, mode }: AppDeps): RouteGroup {
  const strict = mode.strictBodies;
  const r = defineRoutes('/v1/transaction/claims', 'Claims');
  const { claims } = sim;
  const org = (c: Context<AppEnv>) => c.get('organisationId');

  r.post(
    '/',
    {
      summary: 'Create a DDIC claim',
      status: 201,
      body: 'claim-create',
      answer: 'claim-single',
      rules: [ID_USED_ONCE],
    },
    async (c, answer) => {
      const body = await readCreateBody<ClaimAttributes>(c, 'claim-create', CLAIM_TYPE, { strict });
      return answer(sim.paths.bodyOf(asCaller(c, () => claims.create(body))));
    },
  );

  r.get('/', { summary: 'List claims', answer: 'claim-list', filters: CLAIM_FILTERS }, (c) => {
    const filter = parseFilters(queryOf(c), CLAIM_FILTERS, { anyOf: true });
    return c.json(resourcePage(c, sim.paths, claims.list(org(c), filter)));
  });

  r.get('/:id', { summary: 'Fetch a claim', answer: 'claim-single' }, (c) =>
    c.json(sim.paths.bodyOf(claims.get(parseId(c.req.param('id')), org(c)))),
  );

  r.post(
    '/:id/submissions',
    {
      summary: 'Submit a claim',
      status: 201,
      body: 'claim-submission-create',
      answer: 'claim-submission-single',
      rules: [
        PARENT_EXISTS,
        {
          rule: 'a claim is submitted once',
          answers: [{ status: 400, error: 'claim <id> has already been submitted (claim submission <id>)' }],
        },
        {
          rule: "the submission's timeline (to working day D0+14) ends within the dates the simulator supports",
          answers: [
            {
              status: 400,
              error:
                'claim <id> cannot be submitted at <time>: its timeline runs to working day D0+14, past <date>, the last date the simulator supports (<range>)',
            },
          ],
        },
        ID_USED_ONCE,
      ],
    },
    async (c, answer) => {
      const claimId = parseId(c.req.param('id'));
      const body = await readCreateBody(c, 'claim-submission-create', CLAIM_SUBMISSION_TYPE, { strict });
      return answer(sim.paths.bodyOf(asCaller(c, () => claims.submit(claimId, body, org(c)))));
    },
  );

  r.get('/:id/submissions/:sid', { summary: 'Fetch a claim submission', answer: 'claim-submission-single' }, (c) => {
    const s = claims.getSubmission(parseId(c.req.param('id')), parseId(c.req.param('sid'), 'submission_id'), org(c));
    return c.json(sim.paths.bodyOf(s));
  });

  r.post(
    '/:id/reversals',
    {
      summary: 'Reverse a claim',
      status: 201,
      body: 'claim-reversal-create',
      answer: 'claim-reversal-single',
      rules: [
        PARENT_EXISTS,
        {
          rule: 'a claim is reversed once',
          answers: [{ status: 400, error: 'claim <id> already has a reversal (claim reversal <id>)' }],
        },
        ...REVERSIBLE,
        {
          rule: "`original_instruction_id` is the sequence number the claim's submission was given",
          answers: [
            {
              status: 400,
              error:
                "original_instruction_id in body should equal the sequence number of the claim's submission (<n>), got <value>",
            },
          ],
        },
        ID_USED_ONCE,
      ],
    },
    async (c, answer) => {
      const claimId = parseId(c.req.param('id'));
      const body = await readCreateBody<{ original_instruction_id: string }>(
        c,
        'claim-reversal-create',
        CLAIM_REVERSAL_TYPE,
        { strict },
      );
      const reversal = asCaller(c, () =>
        claims.reversals.create(
          claimId,
          { id: body.id, organisation_id: body.organisation_id, ...body.attributes },
          org(c),
        ),
      );
      return answer(sim.paths.bodyOf(reversal));
    },
  );

  r.get('/:id/reversals/:rid', { summary: 'Fetch a claim reversal', answer: 'claim-reversal-single' }, (c) => {
    const reversal = claims.reversals.get(
      parseId(c.req.param('id')),
      parseId(c.req.param('rid'), 'reversal_id'),
      org(c),
    );
    return c.json(sim.paths.bodyOf(reversal));
  });

  r.post(
    '/:id/reversals/:rid/submissions',
    {
      summary: 'Submit a claim reversal',
      status: 201,
      body: 'claim-reversal-submission-create',
      answer: 'claim-reversal-submission-single',
      rules: [
        PARENT_EXISTS,
        {
          rule: 'a reversal is submitted once',
          answers: [
            { status: 400, error: 'claim reversal <id> has already been submitted (claim reversal submission <id>)' },
          ],
        },
        ...REVERSIBLE,
        ID_USED_ONCE,
      ],
    },
    async (c, answer) => {
      const claimId = parseId(c.req.param('id'));
      const reversalId = parseId(c.req.param('rid'), 'reversal_id');
      const body = await readCreateBody(c, 'claim-reversal-submission-create', CLAIM_REVERSAL_SUBMISSION_TYPE, {
        strict,
      });
      return answer(sim.paths.bodyOf(asCaller(c, () => claims.reversals.submit(claimId, reversalId, body, org(c)))));
    },
  );

  r.get(
    '/:id/reversals/:rid/submissions/:sid',
    { summary: 'Fetch a claim reversal submission', answer: 'claim-reversal-submission-single' },
    (c) => {
      const s = claims.reversals.getSubmission(
        parseId(c.req.param('id')),
        parseId(c.req.param('rid'), 'reversal_id'),
        parseId(c.req.param('sid'), 'submission_id'),
        org(c),
      );
      return c.json(sim.paths.bodyOf(s));
    },
  );

  return r;
}
