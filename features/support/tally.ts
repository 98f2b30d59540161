// The tally by flow printed at the end of a run: a staging run shows at a glance which flows it
// covered and which failed.

/** The flow a feature file belongs to: its name without the variant suffixes. */
export function flowOf(uri: string): string {
  const base = uri
    .split('/')
    .pop()!
    .replace(/\.feature$/, '');
  const flow = base.replace(/_(on_any_target|known_account|journey)$/, '');
  return ['validation', 'undeclared_keys', 'account_opening'].includes(flow) ? 'accounts' : flow.replace(/_/g, ' ');
}

export class FlowTally {
  readonly #byFlow = new Map<string, { passed: number; failed: number; skipped: number }>();

  add(uri: string, outcome: 'passed' | 'failed' | 'skipped'): void {
    const flow = flowOf(uri);
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
