import { describe, expect, it } from 'vitest';
import { LoopTurns } from './loop-turns.ts';

describe('LoopTurns', () => {
  it('releases waiters one per iteration, with I/O-phase work able to run between them', async () => {
    const turns = new LoopTurns();
    const order: string[] = [];
    const waiters = [1, 2, 3].map((n) => turns.next().then(() => order.push(`turn ${n}`)));
    // A timer due now runs in the timers phase of the next iteration: between two turns, not after all.
    setTimeout(() => order.push('timer'), 0);
    await Promise.all(waiters);
    expect(order.filter((x) => x.startsWith('turn'))).toEqual(['turn 1', 'turn 2', 'turn 3']);
    expect(order.indexOf('timer')).toBeLessThan(order.length - 1);
  });
});
