import { describe, expect, it } from 'vitest';
import { EventBus, type RecordEvent } from './events.ts';
import type { Resource } from './resource.ts';
import { ResourcePaths } from './resource-paths.ts';

const ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';

function record(type: string, id: string, relationships?: Resource['relationships']): Resource {
  return {
    id,
    type,
    version: 0,
    organisation_id: ORG,
    created_on: '2026-12-21T09:00:00.000Z',
    modified_on: '2026-12-21T09:00:00.000Z',
    attributes: { name: `${type} ${id}` },
    ...(relationships ? { relationships } : {}),
  };
}

/** A table of claims (showing their submissions) and submissions, counting the look-ups made. */
function table(rows: Resource[]) {
  const paths = new ResourcePaths();
  const lookups: string[][] = [];
  for (const [type, embeds] of [
    ['claims', ['claim_submission']],
    ['claim_submissions', []],
  ] as const) {
    paths.register(type, {
      path: (r) => `/v1/${type}/${r.id}`,
      findMany: (ids) => {
        lookups.push([type, ...ids]);
        return new Map(rows.filter((r) => r.type === type && ids.includes(r.id)).map((r) => [r.id, r]));
      },
      embeds,
    });
  }
  return { paths, lookups };
}

describe('ResourcePaths.shown', () => {
  it('shows the related resource in the relationships the model types so, and references elsewhere', () => {
    const submission = record('claim_submissions', 's1');
    const claim = record('claims', 'c1', {
      claim_submission: { data: [{ id: 's1', type: 'claim_submissions' }] },
      scenarios: { data: [{ id: 'x1', type: 'scenarios' }] },
    });
    const { paths } = table([claim, submission]);
    expect(paths.show(claim).relationships).toEqual({
      claim_submission: {
        data: [
          { id: 's1', type: 'claim_submissions', version: 0, organisation_id: ORG, attributes: submission.attributes },
        ],
      },
      scenarios: { data: [{ id: 'x1', type: 'scenarios' }] },
    });
    // The stored record is not changed by being shown.
    expect(claim.relationships?.claim_submission?.data).toEqual([{ id: 's1', type: 'claim_submissions' }]);
    expect(paths.bodyOf(claim)).toMatchObject({ links: { self: '/v1/claims/c1' } });
  });

  it('reads the related records of a whole page with one look-up per related type, not one per item', () => {
    const submissions = Array.from({ length: 50 }, (_, i) => record('claim_submissions', `s${i}`));
    const claims = submissions.map((s, i) =>
      record('claims', `c${i}`, { claim_submission: { data: [{ id: s.id, type: s.type }] } }),
    );
    const { paths, lookups } = table([...claims, ...submissions]);
    const shown = paths.shown(claims);
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).toHaveLength(51);
    expect(shown.map((c) => c.relationships?.claim_submission?.data[0]?.organisation_id)).toEqual(
      claims.map(() => ORG),
    );
  });

  it('leaves out an item whose record no longer exists, and makes no look-up for records without relationships', () => {
    const claim = record('claims', 'c1', { claim_submission: { data: [{ id: 'gone', type: 'claim_submissions' }] } });
    const { paths, lookups } = table([claim]);
    expect(paths.show(claim).relationships?.claim_submission?.data).toEqual([]);
    lookups.length = 0;
    paths.shown([record('claims', 'c2'), record('claim_submissions', 's2')]);
    expect(lookups).toEqual([]);
  });
});

describe('EventBus.together', () => {
  it('holds the events of the work until it returns, then emits them in order', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on((e) => seen.push(`${e.event_type} ${e.record.id}`));
    const event = (id: string): RecordEvent => ({
      event_type: 'created',
      record_type: 'claims',
      record: record('claims', id),
    });
    const result = bus.together(() => {
      bus.emit(event('a'));
      bus.together(() => bus.emit(event('b')));
      expect(seen).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['created a', 'created b']);
  });

  it('drops the events of work that throws (its caller undoes the change)', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on((e) => seen.push(e.record.id));
    expect(() =>
      bus.together(() => {
        bus.emit({ event_type: 'created', record_type: 'claims', record: record('claims', 'a') });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    bus.emit({ event_type: 'created', record_type: 'claims', record: record('claims', 'b') });
    expect(seen).toEqual(['b']);
  });
});
