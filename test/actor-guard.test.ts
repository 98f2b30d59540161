// Decision 042's guard: a change a client's request makes names that client, on every route the
// API document has, not only on the routes src/api/as-caller.test.ts drives. The actor is a slot
// set around synchronous work (src/sim/actor.ts), so a route that changes a record after an await
// without `asCaller` makes it as the scheme, and nothing else would notice. Here the generated
// checks (`scheme-sim conformance --generate`, in process) send valid requests to every operation,
// and each record event raised while a request is being answered must carry that request's
// client. Which request an event belongs to is told by AsyncLocalStorage: this test's own, around
// the in-process fetch, never in the simulator (decision 042 says why).
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, runGenerated } from '../features/generate/generated-run.ts';
import { openTarget, type Target } from '../features/support/targets.ts';
import { currentActor, SCHEME_ACTOR } from '../src/sim/actor.ts';

interface InFlight {
  operation: string;
  answered: boolean;
}

interface Change {
  operation: string;
  change: string;
  actor: string;
}

/** The target with each request's answer run inside its own `InFlight`. */
function tracked(target: Target, requests: AsyncLocalStorage<InFlight>): Target {
  return {
    ...target,
    fetch: (request) => {
      const inFlight = { operation: `${request.method} ${new URL(request.url).pathname}`, answered: false };
      return requests.run(inFlight, async () => {
        try {
          return await target.fetch(request);
        } finally {
          inFlight.answered = true;
        }
      });
    },
  };
}

describe("every client's change names the client (decision 042)", () => {
  const requests = new AsyncLocalStorage<InFlight>();
  const changes: Change[] = [];
  let target: Target;

  beforeAll(async () => {
    target = await openTarget('inprocess');
    // A listener runs inside the change, as the notifier does: the slot is what the notifier reads.
    target.runtime!.sim.events.on((event) => {
      const inFlight = requests.getStore();
      // A timer a request armed keeps its context; what it does after the answer is background work.
      if (!inFlight || inFlight.answered) return;
      const change = `${event.record_type} ${event.event_type}`;
      changes.push({ operation: inFlight.operation, change, actor: currentActor() });
    });
    const doc = await documentOf(target, async () => ({}));
    const report = await runGenerated(tracked(target, requests), doc, { cases: 300, seed: 42 });
    expect(report.generated.failures).toEqual([]);
  }, 240_000);

  afterAll(async () => {
    await target?.close();
  });

  it('changes records through many operations', () => {
    const operations = new Set(changes.map((c) => c.operation.split(' ')[0]));
    expect([...operations].sort()).toEqual(expect.arrayContaining(['DELETE', 'PATCH', 'POST']));
    const kinds = new Set(changes.map((c) => c.change.split(' ')[0]));
    for (const kind of [
      'accounts',
      'subscriptions',
      'claims',
      'claim_submissions',
      'claim_reversals',
      'name_verifications',
      'reports',
      'scenarios',
    ])
      expect(kinds).toContain(kind);
    expect(changes.length).toBeGreaterThan(50);
  });

  it('names a client, never the scheme, for every change made while a request is answered', () => {
    const asScheme = changes.filter((c) => c.actor === SCHEME_ACTOR);
    expect(asScheme.map((c) => `${c.operation}: ${c.change}`)).toEqual([]);
  });

  it("names the client whose credentials the request carried: the run's one client", () => {
    // The generated run sends every request as the target's default client (Northwind).
    const client = target.clients.default!;
    const id = client.uuid ?? client.client_id;
    const asAnother = changes.filter((c) => c.actor !== id);
    expect(asAnother.map((c) => `${c.operation}: ${c.change} by ${c.actor}`)).toEqual([]);
  });
});
