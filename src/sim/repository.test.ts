import { describe, expect, it } from 'vitest';
import { cloneJson, recordLabel } from './repository.ts';

describe('cloneJson', () => {
  it('copies nested objects and arrays so a change cannot reach the original', () => {
    const original = { a: 1, b: { c: ['x', { d: null }] }, e: 'text', f: true };
    const copy = cloneJson(original);
    expect(copy).toEqual(original);
    (copy.b.c[1] as { d: unknown }).d = 'changed';
    copy.b.c.push('y');
    expect(original).toEqual({ a: 1, b: { c: ['x', { d: null }] }, e: 'text', f: true });
  });
});

describe('recordLabel', () => {
  it('names one record of a resource type, as duplicate messages do', () => {
    expect(recordLabel('claims')).toBe('Claim');
    expect(recordLabel('claim_submissions')).toBe('Claim submission');
    expect(recordLabel('payment_admissions')).toBe('Payment admission');
  });
});
