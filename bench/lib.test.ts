import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { watchStalls } from './lib.ts';

const turn = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('watchStalls', () => {
  it('reports a thread held by synchronous work as an event-loop delay at least that long', async () => {
    const stop = watchStalls();
    await turn(5);
    const until = performance.now() + 40;
    while (performance.now() < until); // hold the thread for 40 ms
    await turn(5);
    expect(stop().longestLoopDelayMs).toBeGreaterThanOrEqual(30);
  });

  it('counts a full collection as a major GC and nothing after it has stopped', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const stop = watchStalls();
    gc();
    await turn(20); // GC entries are delivered asynchronously
    const stalls = stop();
    const major = stalls.majorGc;
    expect(major).toBeGreaterThanOrEqual(1);
    expect(stalls.longestGcMs).toBeGreaterThan(0);
    gc();
    await turn(20);
    expect(stalls.majorGc).toBe(major); // the observer is disconnected
  });
});
