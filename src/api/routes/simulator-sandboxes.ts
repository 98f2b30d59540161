// The HTTP face of sandboxes: parallel test runs each get a whole world of their own on one server
// (decision 027).
import type { OAuthClient } from '../auth/clients.ts';
import { type Asker, askerOf } from '../auth/sandbox-asker.ts';
import { optionalJson } from '../body/body.ts';
import { validateOrThrow } from '../body/validate.ts';
import type { AppDeps } from '../context.ts';
import { type Answer, defineRoutes, type RouteGroup, type RuleBeyondSchema } from '../route-declaration.ts';
import type { SandboxDirectory, SandboxEntry, SandboxRequest } from '../sandbox-directory.ts';
import { ApiError } from '../wire/errors.ts';
import { parseId } from '../wire/ids.ts';

const PATH = '/v1/simulator/sandboxes';

/** A client as a sandbox's answer lists it; the secret only where one sandbox is shown to its holder. */
function clientView(client: OAuthClient, secrets: boolean) {
  return {
    client_id: client.client_id,
    ...(secrets ? { client_secret: client.client_secret } : {}),
    organisation_id: client.organisation_id,
    name: client.name ?? client.client_id,
    role: client.role ?? 'member',
    key_ids: (client.public_keys ?? []).map((k) => k.key_id),
  };
}

function view(entry: SandboxEntry, quota: number, secrets: boolean) {
  return {
    type: 'sandboxes',
    id: entry.id,
    version: 0,
    created_on: entry.createdOn,
    modified_on: entry.createdOn,
    attributes: {
      expires_at: entry.expiresAt,
      seed: entry.seed,
      settings: entry.settings,
      clock: entry.clock(),
      path_prefix: `/sandboxes/${entry.id}`,
      clients: entry.clients.map((c) => clientView(c, secrets)),
      record_count: entry.recordCount(),
      record_quota: quota,
    },
  };
}

const NEEDS_ADMIN =
  'sandboxes are managed by an admin client of the default sandbox (or anyone when the server runs with --sandboxes open or --auth off)';

/**
 * Who sees a sandbox: an admin client of the default sandbox, or a client of that sandbox. A client
 * of another sandbox does not, even one that made it under `--sandboxes open` (the create's answer
 * carries the new sandbox's own clients, which see it).
 */
const SEEN_BY_ITS_OWN_OR_OPERATOR: RuleBeyondSchema = {
  rule: "the caller is an admin client of the default sandbox or a client of this sandbox (another sandbox's client, even the one that made it, is told nothing of it)",
  answers: [
    { status: 404, error: 'sandbox <id> does not exist' },
    { status: 403, error: NEEDS_ADMIN },
  ],
};

/** The sandbox `id` names, if the asker may see it; 404 otherwise (another's sandbox is not told of). */
async function visible(sandboxes: SandboxDirectory, asker: Asker, id: string): Promise<SandboxEntry> {
  if (asker.anonymous)
    throw new ApiError(401, `reading a sandbox needs credentials: ${NEEDS_ADMIN}, or a client of it`);
  if (!asker.operator && asker.own === undefined) throw new ApiError(403, NEEDS_ADMIN);
  const entry = asker.operator || asker.own === id ? await sandboxes.get(id) : undefined;
  if (!entry) throw new ApiError(404, `sandbox ${id} does not exist`);
  return entry;
}

/** /v1/simulator/sandboxes: make, read, list and delete whole worlds on this server (docs/sandboxes.md). */
export function simulatorSandboxRoutes(deps: AppDeps, sandboxes: SandboxDirectory): RouteGroup {
  const r = defineRoutes(PATH, 'Simulator');
  const single = (answer: Answer, entry: SandboxEntry) =>
    answer({ data: view(entry, sandboxes.recordQuota, true), links: { self: `${PATH}/${entry.id}` } });

  r.post(
    '/',
    {
      summary: 'Create a sandbox',
      status: 201,
      body: 'sandbox-create',
      answer: 'sandbox-single',
      open: true,
      rules: [
        {
          rule: 'the caller may create sandboxes (an admin client of the default sandbox, or anyone with `--sandboxes open` or `--auth off`)',
          answers: [
            { status: 401, error: `creating a sandbox needs credentials: ${NEEDS_ADMIN}` },
            { status: 403, error: `creating a sandbox: ${NEEDS_ADMIN}` },
          ],
        },
        {
          rule: '`expires_at` (or `lifetime_seconds` from now) is in the future and at most 30 days ahead',
          answers: [
            { status: 400, error: 'expires_at in body must be in the future, got <instant>' },
            {
              status: 400,
              error: 'expires_at in body must be at most 30 days ahead (the longest a sandbox lives), got <instant>',
            },
          ],
        },
        { rule: 'an `id` is used once', answers: [{ status: 409, error: 'sandbox <id> already exists' }] },
        {
          rule: 'the steps of `settings.match_thresholds.typo_edits_by_length` ascend: each `min_length` is greater than the one before',
          answers: [
            {
              status: 400,
              error:
                'settings.match_thresholds.typo_edits_by_length[<i>].min_length must be a whole number from <n> to 1000, got <n>',
            },
          ],
        },
        {
          rule: "`settings.match_thresholds.jaro_winkler_prefix_scale` × `jaro_winkler_max_prefix` (each as given, else the server's) is at most 1",
          answers: [
            {
              status: 400,
              error:
                'settings.match_thresholds.jaro_winkler_prefix_scale × jaro_winkler_max_prefix must be at most 1, got <scale> × <prefix>',
            },
          ],
        },
      ],
    },
    async (c, answer) => {
      const asker = await askerOf(c, deps);
      if (sandboxes.creation !== 'open' && !asker.operator) {
        if (asker.anonymous) throw new ApiError(401, `creating a sandbox needs credentials: ${NEEDS_ADMIN}`);
        throw new ApiError(403, `creating a sandbox: ${NEEDS_ADMIN}`);
      }
      const body = validateOrThrow<{ data?: { id?: string; attributes?: SandboxRequest } }>(
        'sandbox-create',
        await optionalJson(c),
      );
      const request: SandboxRequest = { ...body.data?.attributes };
      if (body.data?.id !== undefined) request.id = body.data.id;
      return single(answer, await sandboxes.create(request));
    },
  );
  r.get('/', { summary: 'The sandboxes the caller may see', answer: 'sandbox-list', open: true }, async (c) => {
    const asker = await askerOf(c, deps);
    if (asker.anonymous) throw new ApiError(401, `listing sandboxes needs credentials: ${NEEDS_ADMIN}`);
    if (!asker.operator && asker.own === undefined) throw new ApiError(403, NEEDS_ADMIN);
    const all = await sandboxes.list();
    const entries = asker.operator ? all : all.filter((e) => e.id === asker.own);
    return c.json({
      data: entries.map((e) => view(e, sandboxes.recordQuota, false)),
      links: { self: PATH },
    });
  });
  r.get(
    '/:id',
    {
      summary: 'A sandbox, with its clients and their secrets',
      answer: 'sandbox-single',
      open: true,
      rules: [SEEN_BY_ITS_OWN_OR_OPERATOR],
    },
    async (c, answer) => {
      const id = parseId(c.req.param('id'));
      return single(answer, await visible(sandboxes, await askerOf(c, deps), id));
    },
  );
  r.delete(
    '/:id',
    {
      summary: 'Delete a sandbox and everything it holds',
      status: 204,
      open: true,
      rules: [
        SEEN_BY_ITS_OWN_OR_OPERATOR,
        {
          rule: 'in the sandbox itself, the caller is its admin client',
          answers: [
            { status: 403, error: 'deleting sandbox <id> needs its admin client (the first one its creation listed)' },
          ],
        },
      ],
    },
    async (c, answer) => {
      const id = parseId(c.req.param('id'));
      const asker = await askerOf(c, deps);
      await visible(sandboxes, asker, id);
      if (!asker.operator && !asker.admin)
        throw new ApiError(403, `deleting sandbox ${id} needs its admin client (the first one its creation listed)`);
      await sandboxes.delete(id);
      return answer();
    },
  );
  return r;
}
