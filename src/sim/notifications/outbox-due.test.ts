import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock/clock.ts';
import { openStore } from '../../store/store.ts';
import type { Notification } from './notification.ts';
import { Outbox } from './outbox.ts';
import type { Subscription } from './subscriptions.ts';

// The outbox's due queue: what the worker takes, in due order, without scanning.

const schedule = { delaysMs: [0, 1000], repeatMs: 5000, giveUpAfterMs: 60_000, jitter: 0 };
const sub = {
  id: 's1',
  attributes: { callback_transport: 'http', callback_uri: 'http://x/' },
} as unknown as Subscription;
const note = (id: string) =>
  ({ id, organisation_id: 'o', event_type: 'created', record_type: 'accounts' }) as Notification;

describe('outbox due queue', () => {
  it('hands out due entries in due order, once, and takes back what was not attempted', async () => {
    const wall = new ManualClock('2026-12-21T09:00:00Z');
    const outbox = new Outbox(await openStore(), { wall, scheme: wall, schedule });
    outbox.enqueue(note('a'), sub);
    wall.advanceMs(10);
    outbox.enqueue(note('b'), sub);
    expect(outbox.takeDue(wall.now().getTime())?.id).toBe('a');
    expect(outbox.takeDue(wall.now().getTime())?.id).toBe('b');
    expect(outbox.takeDue(wall.now().getTime())).toBeUndefined();
    expect(outbox.nextDueMs()).toBeUndefined();
    outbox.requeue('b');
    outbox.requeue('b');
    expect(outbox.takeDue(wall.now().getTime())?.id).toBe('b');
    expect(outbox.takeDue(wall.now().getTime())).toBeUndefined();
  });

  it('queues a failed attempt at its next due time and forgets delivered ones', async () => {
    const wall = new ManualClock('2026-12-21T09:00:00Z');
    const outbox = new Outbox(await openStore(), { wall, scheme: wall, schedule });
    outbox.enqueue(note('a'), sub);
    outbox.enqueue(note('b'), sub);
    const t0 = wall.now().getTime();
    outbox.takeDue(t0);
    outbox.takeDue(t0);
    outbox.recordAttempt('a', sub, { ok: false, response_code: 500, error_category: 'http_error' }, t0);
    outbox.recordAttempt('b', sub, { ok: true, response_code: 200 }, t0);
    expect(outbox.nextDueMs()).toBe(t0 + 1000);
    expect(outbox.takeDue(t0 + 999)).toBeUndefined();
    expect(outbox.takeDue(t0 + 1000)?.id).toBe('a');
    // A second success for an entry no longer pending is not recorded.
    expect(outbox.recordAttempt('b', sub, { ok: true, response_code: 200 }, t0)).toBeUndefined();
    expect(outbox.attempts.size).toBe(2);
  });

  it('rebuilds the queue from the stored pending entries (a restart)', async () => {
    const wall = new ManualClock('2026-12-21T09:00:00Z');
    const store = await openStore();
    const first = new Outbox(store, { wall, scheme: wall, schedule });
    first.enqueue(note('a'), sub);
    first.enqueue(note('b'), sub);
    first.recordAttempt('b', sub, { ok: true, response_code: 200 }, 0);
    const second = new Outbox(store, { wall, scheme: wall, schedule });
    expect(second.takeDue(wall.now().getTime())?.id).toBe('a');
    expect(second.takeDue(wall.now().getTime())).toBeUndefined();
  });
});
