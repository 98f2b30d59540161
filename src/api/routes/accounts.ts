// The HTTP face of the account registry, the accounts name verification answers from: create, fetch,
// list, update and delete as Form3's API (or the fake account API) does them.
import type { Context } from 'hono';
import { ACCOUNT_FILTERS, ACCOUNT_TYPE } from '../../sim/accounts.ts';
import { asCaller } from '../as-caller.ts';
import { asForm3Reads, readJson } from '../body/body.ts';
import { assertBodyIdentity } from '../body/body-identity.ts';
import { readCreateBody } from '../body/create-body.ts';
import { emptyMeansAbsent, FORM3_EMPTY_MEANS_ABSENT } from '../body/empty-strings.ts';
import { fieldsOf, withDeclaredKeys } from '../body/json-keys.ts';
import { validateOrThrow } from '../body/validate.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { defineRoutes, ID_USED_ONCE, type RouteGroup, type RuleBeyondSchema } from '../route-declaration.ts';
import { schemaOf } from '../schemas/index.ts';
import { pageJson, queryOf } from '../wire/envelope.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId, parseVersionQuery } from '../wire/ids.ts';

/** The attributes an account may have (account.json); a record stored before they were enforced may hold others. */
const ACCOUNT_ATTRIBUTES = new Set(
  Object.keys(
    (schemaOf('account') as { $defs: { attributes: { properties: Record<string, unknown> } } }).$defs.attributes
      .properties,
  ),
);

/**
 * What a create refuses beyond account-create.json: rules that read the organisation's registered
 * bank ids and configuration or the accounts it holds, and Form3's creation rules, which `--auth
 * off` (the fake account API's model, validated by the same schema) does not apply.
 */
const ACCOUNT_CREATE_RULES: readonly RuleBeyondSchema[] = [
  {
    rule: "`bank_id` and `bic` are one of the organisation's registered ones (Form3's rules)",
    answers: [
      {
        status: 400,
        error: 'bank_id in body <bank_id> is not registered to organisation <organisation_id> (registered: <list>)',
      },
      {
        status: 400,
        error: 'bic in body <bic> is not registered to organisation <organisation_id> (registered: <list>)',
      },
    ],
  },
  {
    rule: '`name` is required for an organisation configured for name verification (one with a participant), and always with `--auth off`',
    answers: [{ status: 400, error: 'name in body is required' }],
  },
  {
    rule: "country GB (Form3's rules, not with `--auth off`): `bank_id` a 6-digit sort code and `bic` required, `bank_id_code` GBDSC, `account_number` 8 digits",
    answers: [
      { status: 400, error: 'bank_id in body is required for country GB' },
      { status: 400, error: "bank_id in body should match '^[0-9]{6}$' for country GB" },
      { status: 400, error: 'bic in body is required for country GB' },
      { status: 400, error: 'bank_id_code in body should be equal to "GBDSC" for country GB' },
      { status: 400, error: "account_number in body should match '^[0-9]{8}$' for country GB" },
    ],
  },
  {
    rule: "a `bank_id` and `account_number` pair is the organisation's once (Form3's rules)",
    answers: [
      {
        status: 409,
        error:
          'Account cannot be created as it violates a duplicate constraint: bank_id <bank_id> with account_number <account_number> is already registered',
      },
    ],
  },
  ID_USED_ONCE,
];

/**
 * A change keeps the account within Form3's rules for its bank: the registered bank and the GB
 * rules of a create hold for the account the change makes (registry.changeFailures).
 */
const ACCOUNT_CHANGE_RULES: readonly RuleBeyondSchema[] = [ACCOUNT_CREATE_RULES[0]!, ACCOUNT_CREATE_RULES[2]!];

interface AccountBody {
  data: { id: string; organisation_id: string; version?: number; attributes: Record<string, unknown> };
}

/**
 * /v1/organisation/accounts: the registry that name verification reads. Whose rules it follows
 * (Form3's, or the fake account API's with --auth off) is the domain's `accountRegistry`, chosen
 * once by the mode.
 */
export function accountRoutes(deps: AppDeps): RouteGroup {
  const { sim } = deps;
  const registry = sim.accountRegistry;
  const strict = deps.mode.strictBodies;
  const r = defineRoutes('/v1/organisation/accounts', 'Accounts');
  const scopeOf = (c: Context<AppEnv>, id: string) => registry.scopeOf(c.get('organisationId'), id);
  const createEmpties = emptyMeansAbsent('account-create', registry.ownModel);
  const updateEmpties = FORM3_EMPTY_MEANS_ABSENT['account-update'];
  const updateFields = fieldsOf('account-update');

  r.post(
    '/',
    {
      summary: 'Create an account',
      status: 201,
      body: 'account-create',
      answer: 'account-single',
      rules: ACCOUNT_CREATE_RULES,
    },
    async (c, answer) => {
      const organisationId = c.get('organisationId');
      const input = await readCreateBody<Record<string, unknown>>(c, 'account-create', ACCOUNT_TYPE, {
        anyOrganisation: registry.anyOrganisation,
        typeRequired: registry.typeRequired,
        anyVersion: registry.anyVersionOnCreate,
        attributeEnums: registry.attributeEnums,
        emptyMeansAbsent: createEmpties,
        strict,
        rules: (data) => registry.createFailures(organisationId, data),
      });
      return answer(sim.paths.bodyOf(asCaller(c, () => registry.create(input))));
    },
  );

  r.get('/', { summary: 'List accounts', answer: 'account-list', filters: ACCOUNT_FILTERS }, (c) => {
    const filter = parseFilters(queryOf(c), ACCOUNT_FILTERS, { anyOf: true });
    // An account has no related resources to embed: how it is shown depends on the record alone.
    return pageJson(c, registry.list(c.get('organisationId'), filter), (a) => sim.paths.show(a));
  });

  r.get('/:id', { summary: 'Fetch an account', answer: 'account-single' }, (c) => {
    const id = parseId(c.req.param('id'));
    return c.json(sim.paths.bodyOf(sim.accounts.get(id, scopeOf(c, id))));
  });

  r.patch(
    '/:id',
    { summary: 'Amend an account', body: 'account-update', answer: 'account-single', rules: ACCOUNT_CHANGE_RULES },
    async (c) => {
      const id = parseId(c.req.param('id'));
      const organisationId = scopeOf(c, id);
      const body = validateOrThrow<{
        data: Partial<AccountBody['data']> & { version: number; attributes: Record<string, unknown> };
      }>(
        'account-update',
        asForm3Reads(withDeclaredKeys(await readJson(c), updateFields), ACCOUNT_TYPE, updateEmpties),
        'body',
        {
          dropUndeclared: !strict,
        },
      );
      assertBodyIdentity(id, organisationId, body.data);
      const current = sim.accounts.get(id, organisationId);
      const failures = registry.changeFailures(organisationId, current.attributes, body.data.attributes);
      if (failures.length > 0) validateOrThrow('account-update', body, 'body', { rules: () => failures });
      // Keys a record kept from before unknown attributes were refused are not the client's fault.
      const stored = Object.fromEntries(Object.entries(current.attributes).filter(([k]) => ACCOUNT_ATTRIBUTES.has(k)));
      validateOrThrow('account-update', {
        data: { version: body.data.version, attributes: { ...stored, ...body.data.attributes } },
      });
      const updated = asCaller(c, () =>
        sim.accounts.update(id, organisationId, body.data.version, body.data.attributes),
      );
      return c.json(sim.paths.bodyOf(updated));
    },
  );

  r.delete('/:id', { summary: 'Delete an account (?version=)', status: 204 }, (c, answer) => {
    const id = parseId(c.req.param('id'));
    const version = parseVersionQuery(c.req.query('version'), c.get('wire').versionRefusal);
    // A DELETE of an id the caller cannot see is an empty 404, as Form3's fake account API answers
    // it (its clients tell "not found" by the empty body).
    const organisationId = scopeOf(c, id);
    if (sim.accounts.organisationOf(id) !== organisationId) return c.body(null, 404);
    sim.accounts.delete(id, organisationId, version);
    return answer();
  });

  return r;
}
