import { describe, expect, it } from 'vitest';
import { sandboxLimitsFrom } from './sandbox-options.ts';

describe('sandboxLimitsFrom', () => {
  it('reads who may create and the two limits', () => {
    expect(sandboxLimitsFrom({ sandboxes: 'open', 'max-sandboxes': '20', 'sandbox-records': '500' })).toEqual({
      limits: { creation: 'open', maxSandboxes: 20, recordQuota: 500 },
    });
    expect(sandboxLimitsFrom({ sandboxes: 'admin' })).toEqual({ limits: { creation: 'admin' } });
  });

  it.each([
    [{ sandboxes: 'everyone' }, '--sandboxes must be admin or open, got everyone'],
    [{ sandboxes: 'admin', 'max-sandboxes': '0' }, '--max-sandboxes must be a whole number 1–100000, got 0'],
    [{ sandboxes: 'admin', 'max-sandboxes': '2.5' }, '--max-sandboxes must be a whole number 1–100000, got 2.5'],
    [
      { sandboxes: 'admin', 'sandbox-records': 'lots' },
      '--sandbox-records must be a whole number 1–100000000, got lots',
    ],
  ])('names a bad value: %j', (values, problem) => {
    expect(sandboxLimitsFrom(values)).toEqual({ problem });
  });
});
