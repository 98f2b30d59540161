import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLOW_TAGS, FlowTally, flowOf } from './tally.ts';

const FEATURES = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the flow tags', () => {
  it('are on every feature, exactly one each, so every scenario carries its flow', () => {
    const wrong: string[] = [];
    for (const file of readdirSync(FEATURES).filter((f) => f.endsWith('.feature'))) {
      const lines = readFileSync(join(FEATURES, file), 'utf8').split('\n');
      const at = lines.findIndex((l) => l.startsWith('Feature:'));
      const tags = at > 0 && lines[at - 1]!.startsWith('@') ? lines[at - 1]!.trim().split(/\s+/) : [];
      const flows = tags.filter((t) => (FLOW_TAGS as readonly string[]).includes(t));
      if (flows.length !== 1) wrong.push(`${file}: ${flows.length} flow tags (${flows.join(' ') || 'none'})`);
    }
    expect(wrong).toEqual([]);
  });

  it("name a scenario's flow by the feature's tag, ahead of a scenario's own", () => {
    expect(flowOf(['@claims', '@simulator', '@notifications'])).toBe('claims');
    expect(flowOf(['@simulator'])).toBe('untagged');
  });
});

describe('the tally by flow', () => {
  it('prints one line, flows sorted, failures and skips named', () => {
    const t = new FlowTally();
    t.add(['@reports'], 'passed');
    t.add(['@claims'], 'passed');
    t.add(['@claims', '@journey'], 'skipped');
    t.add(['@accounts'], 'failed');
    expect(t.line()).toBe('by flow: accounts 0/1 (1 failed), claims 1/2 (1 skipped), reports 1/1');
    expect(new FlowTally().line()).toBe('by flow: no scenarios');
  });
});
