// Each route is declared once: its method and path, what the OpenAPI document says of it, and its
// handler. From the declarations `mountRoutes` registers the handlers and, for each path, the 405
// naming the methods it allows; `openApiDocument` builds its paths. docs/routes.md shows how to
// declare one; docs/decisions/017-routes-declared-once.md says why.
import type { Context, Handler, Hono } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './context.ts';
import { methodNotAllowed } from './wire/errors.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** The order an `Allow` list names methods in, whatever order they were declared in. */
const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'DELETE'];

/**
 * A rule the double enforces on a request that its JSON Schema cannot state (it reads the store,
 * the organisation's configuration, the scheme clock or the running mode), and what breaking it
 * answers: each status with the `error_message` line it gives, `<…>` standing for what varies.
 */
export interface RuleBeyondSchema {
  rule: string;
  answers: readonly { status: number; error: string }[];
}

/** Every create's: the client's `id` is new (a second create with it is a 409, whatever the body). */
export const ID_USED_ONCE: RuleBeyondSchema = {
  rule: 'an `id` is used once',
  answers: [{ status: 409, error: '<record> cannot be created as it violates a duplicate constraint' }],
};

/** Every create under another resource's path: that resource is the caller's. */
export const PARENT_EXISTS: RuleBeyondSchema = {
  rule: "the resource the path names exists and is the caller's organisation's",
  answers: [{ status: 404, error: 'record <id> does not exist' }],
};

/** What the OpenAPI document says of a route besides its method, path and tag. */
export interface RouteDoc {
  summary: string;
  /** The schema of the JSON body (src/api/schemas), if it takes one. */
  body?: string;
  /** The success status (default 200). */
  status?: number;
  /** The schema of its JSON answer (none: no body or an untyped object; `binary`: a file; `event-stream`: server-sent events). */
  answer?: string;
  /** `filter[...]` names of a list; a list also takes page[number], page[size], page[after|before]. */
  filters?: readonly string[];
  /** Answered without a token (true only where it is mounted ahead of the auth layer). */
  open?: boolean;
  /** Its error answers, where they are not the usual ones (the `error` schema, 400/401/403/404). */
  errors?: { schema: string; statuses: Readonly<Record<number, string>> };
  /** The rules of its body beyond the schema, named in its description (docs/conformance.md). */
  rules?: readonly RuleBeyondSchema[];
}

/** One operation of the OpenAPI document. */
export interface Operation extends Omit<RouteDoc, 'status'> {
  method: Method;
  /** OpenAPI form: `/v1/transaction/claims/{id}`. */
  path: string;
  tag: string;
  status: number;
}

/**
 * A declared route: its operation, and the handler at its path in Hono's form (`/:id`); none for
 * an operation answered by a handler of its own (`RouteGroup.answeredElsewhere`).
 */
export interface Route {
  operation: Operation;
  honoPath: string;
  handler?: RouteHandler<string>;
}

/**
 * Answers with the route's declared success status (`RouteDoc.status`): the body as JSON, or no
 * body at all when none is given (a 204). The declaration is the one place a success status is
 * stated; a handler answers its success through this, never with a status of its own.
 */
export type Answer = (body?: object) => Response;

// The path's `:name` parameters, typed as Hono types them in its own route methods.
type RouteHandler<P extends string> = (c: Context<AppEnv, P>, answer: Answer) => Response | Promise<Response>;

/**
 * The routes of one resource family under one path prefix and one OpenAPI tag, each declared once
 * with `get/post/patch/delete(path, doc, handler)` (paths relative to the prefix, `/` for the
 * prefix itself, parameters as `:name`).
 */
export class RouteGroup {
  readonly prefix: string;
  readonly tag: string;
  readonly #routes: Route[] = [];

  constructor(prefix: string, tag: string) {
    this.prefix = prefix;
    this.tag = tag;
  }

  get routes(): readonly Route[] {
    return this.#routes;
  }

  get<P extends string>(path: P, doc: RouteDoc, handler: RouteHandler<P>): this {
    return this.#declare('GET', path, doc, handler);
  }

  post<P extends string>(path: P, doc: RouteDoc, handler: RouteHandler<P>): this {
    return this.#declare('POST', path, doc, handler);
  }

  patch<P extends string>(path: P, doc: RouteDoc, handler: RouteHandler<P>): this {
    return this.#declare('PATCH', path, doc, handler);
  }

  delete<P extends string>(path: P, doc: RouteDoc, handler: RouteHandler<P>): this {
    return this.#declare('DELETE', path, doc, handler);
  }

  /**
   * An operation the document lists but another handler answers (name verification's catch-all,
   * which answers its own 404 and 405 in Open Banking terms): nothing is mounted for it.
   */
  answeredElsewhere(method: Method, path: string, doc: RouteDoc): this {
    return this.#declare(method, path, doc, undefined);
  }

  #declare(method: Method, path: string, doc: RouteDoc, handler: RouteHandler<string> | undefined): this {
    if (!path.startsWith('/')) throw new Error(`route path ${path} must start with /`);
    const honoPath = path === '/' ? this.prefix || '/' : `${this.prefix}${path}`;
    if (this.#routes.some((r) => r.honoPath === honoPath && r.operation.method === method))
      throw new Error(`route ${method} ${honoPath} is declared twice`);
    const { status = 200, ...rest } = doc;
    this.#routes.push({
      operation: { method, path: honoPath.replace(/:([A-Za-z_]+)/g, '{$1}'), tag: this.tag, status, ...rest },
      honoPath,
      ...(handler ? { handler } : {}),
    });
    return this;
  }
}

/** Every operation of these groups, in the order declared: the paths of the OpenAPI document. */
export function operationsOf(groups: readonly RouteGroup[]): Operation[] {
  return groups.flatMap((g) => g.routes.map((r) => r.operation));
}

/** A group of routes under `prefix`, tagged `tag` in the OpenAPI document. */
export function defineRoutes(prefix: string, tag: string): RouteGroup {
  return new RouteGroup(prefix, tag);
}

/**
 * Registers each route's handler on the app, then, for each of the group's paths in the order they
 * were first declared, a 405 naming the methods declared there (`Allow`). A path's 405 comes after
 * every handler of the group, so `/pending` is served before `/:id` answers 405 for it.
 */
export function mountRoutes(app: Hono<AppEnv>, group: RouteGroup): void {
  const allowed = new Map<string, Set<Method>>();
  for (const route of group.routes) {
    if (!route.handler) continue;
    app.on(route.operation.method, route.honoPath, served(route.operation, route.handler));
    const methods = allowed.get(route.honoPath) ?? new Set();
    allowed.set(route.honoPath, methods.add(route.operation.method));
  }
  for (const [path, methods] of allowed) app.all(path, methodNotAllowed(METHODS.filter((m) => methods.has(m))));
}

/**
 * The handler as Hono calls it: given the `Answer` of the declared status, and held to it. A 2xx
 * other than the declared one is the route contradicting its own declaration (and the OpenAPI
 * document): it fails as the bug it is rather than reaching the client as a second truth.
 */
function served({ method, path, status }: Operation, handler: RouteHandler<string>): Handler<AppEnv> {
  const held = (res: Response): Response => {
    if (res.status >= 200 && res.status < 300 && res.status !== status)
      throw new Error(`${method} ${path} answered ${res.status}, but its declaration says ${status}`);
    return res;
  };
  return (c) => {
    const answer: Answer = (body) =>
      body === undefined ? c.body(null, status as StatusCode) : c.json(body, status as ContentfulStatusCode);
    const res = handler(c, answer);
    return res instanceof Promise ? res.then(held) : held(res);
  };
}
