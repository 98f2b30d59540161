// The flows of the conformance suite, one tag each on every feature (so on every scenario):
// `npx cucumber-js --tags @cop` runs one flow, and the tally by flow printed at the end of a run
// shows at a glance which flows a staging run covered and which failed.

/** The flow tags, each feature carries exactly one (features/support/flows.test.ts holds them to it). */
export const FLOW_TAGS = [
  '@accounts',
  '@auth',
  '@claims',
  '@clock',
  '@cop',
  '@faults',
  '@notifications',
  '@observability',
  '@reports',
  '@sandboxes',
  '@scenarios',
  '@store',
  '@tenancy',
] as const;

/** The flow of a scenario: its first flow tag (the feature's, ahead of a scenario's own), without the @. */
export function flowOf(tags: readonly string[]): string {
  const tag = tags.find((t) => (FLOW_TAGS as readonly string[]).includes(t));
  return tag ? tag.slice(1) : 'untagged';
}

export class FlowTally {
  readonly #byFlow = new Map<string, { passed: number; failed: number; skipped: number }>();

  add(tags: readonly string[], outcome: 'passed' | 'failed' | 'skipped'): void {
    const flow = flowOf(tags);
    const t = this.#byFlow.get(flow) ?? { passed: 0, failed: 0, skipped: 0 };
    t[outcome]++;
    this.#byFlow.set(flow, t);
  }

  /** `by flow: accounts 120/120, claims 2/3 (1 failed), reports 1/1 (1 skipped)`, flows sorted. */
  line(): string {
    const parts = [...this.#byFlow]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([flow, t]) => {
        const extra = [t.failed ? `${t.failed} failed` : '', t.skipped ? `${t.skipped} skipped` : ''].filter(Boolean);
        return `${flow} ${t.passed}/${t.passed + t.failed + t.skipped}${extra.length ? ` (${extra.join(', ')})` : ''}`;
      });
    return `by flow: ${parts.join(', ') || 'no scenarios'}`;
  }
}
