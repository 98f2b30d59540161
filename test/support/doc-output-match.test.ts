import { describe, expect, it } from 'vitest';
import { outputDifferences } from './doc-output-match.ts';

// Ids the page's commands wrote: the id of the account they created, and another one.
const given = new Set(['ad27e265-9605-4b4b-a0e5-3003ea9cc4dc', '0b1e5c6a-6d0f-4a55-9a3e-8f0f4c1b2d3e']);
const running = { frozen: false, given };
const frozen = { ...running, frozen: true };

describe('outputDifferences', () => {
  const body = {
    data: { id: 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc', version: 0, created_on: '2026-12-21T09:00:00.000Z' },
    error_code: '0c768da8-bd01-485b-a4cb-6acc4e37ce9b',
  };
  const printed = JSON.stringify(body, null, 2);

  it('compares fields; timestamps only on a frozen clock; ids the page did not choose not at all', () => {
    const shown =
      '{"data":{"id":"ad27e265-9605-4b4b-a0e5-3003ea9cc4dc","version":0,"created_on":"2030-01-01T00:00:00.000Z"},"error_code":"11111111-2222-4333-8444-555555555555"}';
    expect(outputDifferences(shown, printed, running)).toEqual([]);
    expect(outputDifferences(shown, printed, frozen)).toEqual([
      '$.data.created_on: "2026-12-21T09:00:00.000Z" where the page shows "2030-01-01T00:00:00.000Z"',
    ]);
    const otherId = shown.replace('ad27e265-9605-4b4b-a0e5-3003ea9cc4dc', '0b1e5c6a-6d0f-4a55-9a3e-8f0f4c1b2d3e');
    expect(outputDifferences(otherId, printed, running)).toEqual([
      '$.data.id: "ad27e265-9605-4b4b-a0e5-3003ea9cc4dc" where the page shows "0b1e5c6a-6d0f-4a55-9a3e-8f0f4c1b2d3e"',
    ]);
  });

  it('names a field the page lacks or shows in excess, unless … trims the object', () => {
    expect(
      outputDifferences('{"data":{"id":"ad27e265-9605-4b4b-a0e5-3003ea9cc4dc","version":0}}', printed, running),
    ).toEqual([
      '$.data.created_on: "2026-12-21T09:00:00.000Z" is not on the page',
      '$.error_code: "0c768da8-bd01-485b-a4cb-6acc4e37ce9b" is not on the page',
    ]);
    expect(outputDifferences('{"data":{"version":0,…},…}', printed, running)).toEqual([]);
    expect(outputDifferences('{"data":{"version":0,"joint_account":false,…},…}', printed, running)).toEqual([
      '$.data.joint_account: absent, the page shows it',
    ]);
  });

  it('matches lines in order, … within a line and a … line for any lines', () => {
    const out = 'scheme-sim listening on http://127.0.0.1:8080\n  store:  /tmp/x/data/sim.json\n  auth:   on\n';
    expect(
      outputDifferences('scheme-sim listening on http://127.0.0.1:8080\n  store:  …/data/sim.json\n…', out, running),
    ).toEqual([]);
    expect(outputDifferences('scheme-sim listening on http://127.0.0.1:8080\n  auth:   off', out, running)).toEqual([
      'the page shows "auth:   off"; it printed "store:  /tmp/x/data/sim.json"',
    ]);
    expect(outputDifferences('HTTP/1.1 204 No Content', 'HTTP/1.1 204 No Content\n{"a":1}\n', running)).toEqual([
      'more output than the page shows: {"a":1}',
    ]);
  });
});
