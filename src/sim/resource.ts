/** The shape shared by every /v1 resource. */
export interface Relationship {
  data: Array<{ id: string; type: string; [key: string]: unknown }>;
}

export interface Resource<A extends object = Record<string, unknown>> {
  id: string;
  type: string;
  version: number;
  organisation_id: string;
  created_on: string;
  modified_on: string;
  attributes: A;
  relationships?: Record<string, Relationship>;
}

/** A reference to a resource inside a relationship. */
export function ref(r: { id: string; type: string }): { id: string; type: string } {
  return { id: r.id, type: r.type };
}

type AnyResource = Resource<object>;

const selfPaths = new Map<string, (r: AnyResource) => string>();

/**
 * Registers how a resource type is addressed. Paths are part of a resource's representation
 * (links.self, and the body of a notification), so the domain owns them.
 */
export function registerSelfPath(type: string, path: (r: AnyResource) => string): void {
  selfPaths.set(type, path);
}

/** Every resource type the simulator serves (those with a registered path). */
export function knownResourceTypes(): string[] {
  return [...selfPaths.keys()].sort();
}

export function selfPath(r: AnyResource): string {
  const fn = selfPaths.get(r.type);
  if (!fn) throw new Error(`no self path registered for resource type ${r.type}`);
  return fn(r);
}

/** The body a GET of the record answers: what notifications carry as `data`. */
export function recordBody<R extends AnyResource>(r: R): { data: R; links: { self: string } } {
  return { data: r, links: { self: selfPath(r) } };
}
