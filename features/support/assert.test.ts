import { describe, expect, it } from 'vitest';
import { deepEqual, equal, fail, ok } from './assert.ts';

describe('step assertions', () => {
  it('throw a plain Error carrying only the message the step wrote', () => {
    expect(() => fail('expected status 200, got 404')).toThrow(new Error('expected status 200, got 404'));
    expect(() => equal(404, 200, 'status')).toThrow(/^status$/);
    expect(() => ok(undefined, 'absent')).toThrow(/^absent$/);
    expect(() => deepEqual({ a: [1] }, { a: [2] }, 'differ')).toThrow(/^differ$/);
  });

  it('pass on what they check', () => {
    expect(() => equal('x', 'x', 'm')).not.toThrow();
    expect(() => ok(1, 'm')).not.toThrow();
    expect(() => deepEqual({ a: [1] }, { a: [1] }, 'm')).not.toThrow();
  });
});
