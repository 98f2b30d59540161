import type { Resource } from './resource.ts';

type AnyResource = Resource<object>;

/**
 * Where each resource type of one simulator is addressed. Paths are part of a resource's
 * representation (links.self, and the body a notification carries), so the domain owns them;
 * each Repository registers its own when it is made, so the table holds exactly what this
 * simulator serves, with no registry filled by import side effects.
 */
export class ResourcePaths {
  readonly #paths = new Map<string, (r: AnyResource) => string>();

  register(type: string, path: (r: AnyResource) => string): void {
    if (this.#paths.has(type)) throw new Error(`a path for resource type ${type} is already registered`);
    this.#paths.set(type, path);
  }

  /** Every resource type served, sorted. */
  types(): string[] {
    return [...this.#paths.keys()].sort();
  }

  pathOf(r: AnyResource): string {
    const fn = this.#paths.get(r.type);
    if (!fn) throw new Error(`no path registered for resource type ${r.type}`);
    return fn(r);
  }

  /** The body a GET of the record answers: what notifications carry as `data`. */
  bodyOf<R extends AnyResource>(r: R): { data: R; links: { self: string } } {
    return { data: r, links: { self: this.pathOf(r) } };
  }
}
