import { describe, expect, it } from 'vitest';
import { run } from './clock.ts';

// Keeps the benchmark runnable; it checks what ran, never how long it took.
describe('bench/clock', () => {
  it('runs every scheduled job once through a data file and reports its figures', async () => {
    const report = await run({ jobs: 2000 });
    expect(report.name).toBe('clock: scheduler advance');
    expect(report.lines[0]).toContain('2,000 jobs over two years');
    expect(report.lines.join('\n')).toMatch(/jobs\/s \(budget ≥ 50,000 jobs\/s\)/);
    expect(typeof report.withinBudget).toBe('boolean');
  });
});
