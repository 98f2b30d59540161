import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bareHono, load, percentile, serveFetch, watchStalls } from './lib.ts';

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

describe('percentile', () => {
  it('is the nearest-rank value, whatever the order', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([0.25, 7.5, 3], 99)).toBe(7.5);
    expect(percentile([], 99)).toBeNaN();
  });
});

describe('load', () => {
  it("hands over every answered request's latency, unrounded, when asked", async () => {
    const served = await serveFetch(bareHono('GET', '/', 'ok', 'text/plain').fetch);
    try {
      const latencies: number[] = [];
      const result = await load({ url: served.url, connections: 2, durationSeconds: 1, latencies });
      expect(latencies.length).toBeGreaterThan(0);
      expect(latencies.every((ms) => ms >= 0)).toBe(true);
      expect(latencies.some((ms) => !Number.isInteger(ms))).toBe(true);
      // One per answered request: autocannon's own count of them.
      expect(latencies.length).toBe(result.answered);
    } finally {
      await served.close();
    }
  });
});
