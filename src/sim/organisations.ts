// The organisations of the fixtures, each a tenant of the simulator; every record and client belongs
// to one.
export interface Organisation {
  id: string;
  name: string;
  /** Sponsors other participants in Faster Payments (gets the sponsored participant report). */
  sponsor: boolean;
  /** The organisation used when authentication is off. */
  default?: boolean;
  /**
   * The bank ids (GB: sort codes) and BICs registered to it: Form3 opens accounts only under
   * those. Without a list, that check is not made (a fixtures folder from before it).
   */
  bank_ids?: string[];
  bics?: string[];
}

export class Organisations {
  readonly #byId = new Map<string, Organisation>();
  readonly list: readonly Organisation[];

  constructor(list: Organisation[]) {
    if (list.length === 0) throw new Error('at least one organisation is needed');
    for (const o of list) this.#byId.set(o.id, o);
    this.list = list;
  }

  get(id: string): Organisation | undefined {
    return this.#byId.get(id);
  }

  /** The organisation marked default, else the first. */
  get defaultOrganisation(): Organisation {
    return this.list.find((o) => o.default) ?? this.list[0]!;
  }
}
