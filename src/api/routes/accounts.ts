import type { Context } from 'hono';
import { ACCOUNT_FILTERS, ACCOUNT_TYPE } from '../../sim/accounts.ts';
import { asForm3Reads, readJson } from '../body.ts';
import { assertBodyIdentity } from '../body-identity.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { readCreateBody } from '../create-body.ts';
import { emptyMeansAbsent, FORM3_EMPTY_MEANS_ABSENT } from '../empty-strings.ts';
import { pageJson, queryOf } from '../envelope.ts';
import { parseFilters } from '../filters.ts';
import { parseId, parseVersionQuery } from '../ids.ts';
import { fieldsOf, withDeclaredKeys } from '../json-keys.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { schemaOf } from '../schemas/index.ts';
import { validateOrThrow } from '../validate.ts';

/** The attributes an account may have (account.json); a record stored before they were enforced may hold others. */
const ACCOUNT_ATTRIBUTES = new Set(
  Object.keys(
    (schemaOf('account') as { $defs: { attributes: { properties: Record<string, unknown> } } }).$defs.attributes
      .properties,
  ),
);

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
    { summary: 'Create an account', status: 201, body: 'account-create', answer: 'account-single' },
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
      return answer(sim.paths.bodyOf(registry.create(input)));
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

  r.patch('/:id', { summary: 'Amend an account', body: 'account-update', answer: 'account-single' }, async (c) => {
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
    return c.json(sim.paths.bodyOf(sim.accounts.update(id, organisationId, body.data.version, body.data.attributes)));
  });

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
