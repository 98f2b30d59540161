// A record's address and how its relationships are shown belong to its representation, which an
// answer and a notification share: the domain's one table of them.
import type { Relationship, Resource } from './resource.ts';

type AnyResource = Resource<object>;

/** What a repository tells the table about its resource type when it is made. */
export interface ResourceTypeEntry {
  /** Where a record is addressed (its links.self). */
  path: (r: AnyResource) => string;
  /** The stored records of these ids that exist (one look-up for a whole page, not one per item). */
  findMany: (ids: readonly string[]) => Map<string, AnyResource>;
  /**
   * The relationships whose items are the related resource itself, as Form3's model of this type
   * has them (`ClaimRelationships.claim_submission.data` is `[]*ClaimSubmission`); the others
   * (the simulator's own: `scenarios`, a claim's `payment`) stay `{id, type}` references.
   */
  embeds: readonly string[];
  /** How answers show a record of this type, where that is not as stored (the fake account API's accounts). */
  view?: (r: AnyResource) => AnyResource;
}

/** A related resource as a relationship item shows it: Form3's model of the related type, one level deep. */
export interface RelatedItem {
  [key: string]: unknown;
  id: string;
  type: string;
  version: number;
  organisation_id: string;
  attributes: object;
}

/**
 * Where each resource type of one simulator is addressed, and how a record is shown. Paths and the
 * shape of relationships are part of a resource's representation (links.self, the body a
 * notification carries), so the domain owns them; each Repository registers its type when it is
 * made, so the table holds exactly what this simulator serves, with no registry filled by import
 * side effects.
 *
 * Records store a relationship as `{id, type}` references; a record is shown with the items of
 * the relationships its Form3 model types as resources (`embeds`) replaced by the related record
 * (id, type, version, organisation_id, attributes; the seed's Report Admission shows its Report so).
 * A reference whose record no longer exists (retention removed it) is left out.
 */
export class ResourcePaths {
  readonly #types = new Map<string, ResourceTypeEntry>();

  register(type: string, entry: ResourceTypeEntry): void {
    if (this.#types.has(type)) throw new Error(`a path for resource type ${type} is already registered`);
    this.#types.set(type, entry);
  }

  /** Every resource type served, sorted. */
  types(): string[] {
    return [...this.#types.keys()].sort();
  }

  pathOf(r: AnyResource): string {
    const entry = this.#types.get(r.type);
    if (!entry) throw new Error(`no path registered for resource type ${r.type}`);
    return entry.path(r);
  }

  /** The body a GET of the record answers: what notifications carry as `data`. */
  bodyOf<R extends AnyResource>(r: R): { data: R; links: { self: string } } {
    return { data: this.show(r), links: { self: this.pathOf(r) } };
  }

  /** One record as answers show it. */
  show<R extends AnyResource>(r: R): R {
    return this.shown([r])[0]!;
  }

  /**
   * The records as answers show them (a page of a list, or one record). The related records of the
   * whole batch are read with one `findMany` per related type, however many records there are.
   */
  shown<R extends AnyResource>(records: readonly R[]): R[] {
    const wanted = new Map<string, Set<string>>();
    for (const r of records) {
      for (const name of this.#embedded(r)) {
        for (const item of r.relationships![name]!.data) {
          let ids = wanted.get(item.type);
          if (!ids) wanted.set(item.type, (ids = new Set()));
          ids.add(item.id);
        }
      }
    }
    if (wanted.size === 0) return records.map((r) => this.#view(r));
    const found = new Map<string, Map<string, AnyResource>>();
    for (const [type, ids] of wanted) found.set(type, this.#types.get(type)?.findMany([...ids]) ?? new Map());
    return records.map((r) => {
      const names = this.#embedded(r);
      if (names.length === 0) return this.#view(r);
      const relationships: Record<string, Relationship> = { ...r.relationships };
      for (const name of names) {
        const data: RelatedItem[] = [];
        for (const item of r.relationships![name]!.data) {
          const related = found.get(item.type)?.get(item.id);
          if (related) data.push(relatedItem(this.#view(related)));
        }
        relationships[name] = { data };
      }
      return { ...this.#view(r), relationships };
    });
  }

  #view<R extends AnyResource>(r: R): R {
    const view = this.#types.get(r.type)?.view;
    return view ? (view(r) as R) : r;
  }

  /** The relationships of the record that show the related resource. */
  #embedded(r: AnyResource): string[] {
    const rels = r.relationships;
    if (!rels) return [];
    const embeds = this.#types.get(r.type)?.embeds ?? [];
    return embeds.filter((name) => rels[name]?.data?.length);
  }
}

function relatedItem(r: AnyResource): RelatedItem {
  return { id: r.id, type: r.type, version: r.version, organisation_id: r.organisation_id, attributes: r.attributes };
}
