// How a generated differential run names what it found: one divergence per operation and place,
// however many requests met it, with the cases that met them; the allow-lists' excuses apart.
import { describe, expect, it } from 'vitest';
import { BY_NATURE, differentialTable, generatedDivergences } from './generate-differential.ts';
import type { ExchangeOutcome } from './replay-engine.ts';
import { allowListOf } from './replay-report.ts';

const outcome = (seq: number, method: string, template: string, path: string, kind = 'value'): ExchangeOutcome => ({
  seq,
  method,
  template,
  flow: template
    .split('/')
    .filter((s) => s && s !== '{id}')
    .at(-1)!,
  divergences: [{ path, kind: kind as 'value', expected: 'a', actual: 'b' }],
});

const OUTCOMES = [
  outcome(3, 'POST', '/v1/transaction/claims/{id}/submissions', '$.data.attributes.settlement_date', 'renamed'),
  outcome(9, 'POST', '/v1/transaction/claims/{id}/submissions', '$.data.attributes.settlement_date', 'renamed'),
  outcome(12, 'GET', '/v1/notification/reports', '$.data[4].attributes.formats[0]', 'missing'),
  outcome(13, 'GET', '/v1/notification/reports', '$.data[19].attributes.formats[0]', 'missing'),
  outcome(20, 'GET', '/v1/platform/security/signing_keys', '$.data[0].attributes.public_key'),
  { seq: 21, method: 'GET', template: '/v1/organisation/accounts', flow: 'accounts', divergences: [] },
];
const CASES = new Map([
  [3, 'valid POST /v1/transaction/claims/{id}/submissions'],
  [9, 'valid POST /v1/transaction/claims/{id}/reversals'],
  [12, 'valid GET /v1/notification/reports'],
  [13, 'valid GET /v1/notification/reports'],
  [20, 'valid GET /v1/platform/security/signing_keys'],
]);
const FLOWS = new Map([['valid POST /v1/transaction/claims/{id}/submissions', 'claims']]);

describe('generated differential divergences', () => {
  const found = generatedDivergences(OUTCOMES, CASES, FLOWS, allowListOf(BY_NATURE, 'test'), 'rec.jsonl');

  it('are one per operation and place, list positions as [*], counted, with the cases that met them', () => {
    expect(found.divergences).toEqual([
      {
        flow: 'claims',
        scenario: 'POST /v1/transaction/claims/{id}/submissions',
        location: 'rec.jsonl:3',
        case: '$.data.attributes.settlement_date (renamed)',
        expected: 'a',
        actual: 'b',
        count: 2,
        cases: [
          'valid POST /v1/transaction/claims/{id}/submissions',
          'valid POST /v1/transaction/claims/{id}/reversals',
        ],
      },
      expect.objectContaining({
        scenario: 'GET /v1/notification/reports',
        case: '$.data[*].attributes.formats[*] (missing)',
        flow: 'reports',
        count: 2,
        cases: ['valid GET /v1/notification/reports'],
      }),
    ]);
  });

  it('keep what differs by nature apart, shown as allowed', () => {
    expect(found.allowed.map((d) => `${d.scenario} ${d.case}`)).toEqual([
      'GET /v1/platform/security/signing_keys $.data[*].attributes.public_key (value)',
    ]);
    const lines = differentialTable({ first: 'http://a', second: 'http://b', exchanges: 6 }, found);
    expect(lines[1]).toBe(
      "Differential: 6 requests to http://a and http://b, the second's answers compared with the first's: 2 divergences",
    );
    expect(lines.join('\n')).toMatch(
      /POST \/v1\/transaction\/claims\/\{id\}\/submissions\s+\$\.data\.attributes\.settlement_date \(renamed\)\s+"a"\s+"b"\s+valid POST \/v1\/transaction\/claims\/\{id\}\/submissions \(\+1 more\)/,
    );
    expect(lines).toContain("Allowed (each target's own by nature, or --allow) (1):");
  });

  it("name a request no case sent as the run's set-up", () => {
    const setUp = generatedDivergences(
      [outcome(1, 'GET', '/v1/simulator/clock', 'status', 'status')],
      new Map(),
      new Map(),
      [],
      'r',
    );
    expect(setUp.divergences[0]).toMatchObject({ cases: ['run set-up'], flow: 'clock' });
  });
});
