// Turns given one per loop iteration, and held back while client requests are being answered.
import { describe, expect, it } from 'vitest';
import { ClientRequests } from './client-requests.ts';
import { LoopTurns } from './loop-turns.ts';

const iterations = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

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

  it('gives no turn while a client request is being answered, and gives it once the request ends', async () => {
    const requests = new ClientRequests();
    const turns = new LoopTurns({ requests, quietMs: 0, everyMs: 3_600_000 });
    await turns.next(); // the first turn is never held back
    requests.begin();
    let released = false;
    const second = turns.next().then(() => {
      released = true;
    });
    await iterations(20);
    expect(released).toBe(false);
    requests.end();
    await second;
    expect(released).toBe(true);
  });

  it('slows background work while requests keep coming, never stops it', async () => {
    const requests = new ClientRequests();
    const turns = new LoopTurns({ requests, quietMs: 3_600_000, everyMs: 0 });
    requests.begin();
    await Promise.all([turns.next(), turns.next(), turns.next()]);
    requests.end();
  });
});

describe('LoopTurns.quiet', () => {
  it('waits while a request is being answered, for its end or everyMs at the latest', async () => {
    const requests = new ClientRequests();
    const patient = new LoopTurns({ requests, quietMs: 0, everyMs: 3_600_000 });
    await patient.quiet(); // nothing answered yet: at once
    requests.begin();
    let released = false;
    const waiting = patient.quiet().then(() => {
      released = true;
    });
    await iterations(20);
    expect(released).toBe(false);
    requests.end();
    await waiting;
    requests.begin();
    await new LoopTurns({ requests, quietMs: 3_600_000, everyMs: 0 }).quiet(); // never longer than everyMs
    await new LoopTurns().quiet(); // no pacing: never waits
    requests.end();
  });
});

describe('ClientRequests', () => {
  it('is quiet once no request started or ended for the quiet time, and a long one no longer counts', () => {
    const requests = new ClientRequests();
    expect(requests.untilQuiet(2)).toBe(0); // none yet
    requests.begin();
    expect(requests.untilQuiet(2)).toBeGreaterThan(0);
    requests.end();
    const ended = performance.now();
    expect(requests.untilQuiet(2, ended)).toBeGreaterThan(0);
    expect(requests.untilQuiet(2, ended + 3)).toBe(0);
    // An event stream stays open: past its first moments, only other requests keep the server busy.
    requests.begin();
    const began = performance.now();
    expect(requests.untilQuiet(2, began + 500)).toBeGreaterThan(0);
    expect(requests.untilQuiet(2, began + 1001)).toBe(0);
  });
});
