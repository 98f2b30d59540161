import { describe, expect, it } from 'vitest';
import { negotiate, parseAccept } from './negotiate.ts';

const JSON_FIRST = ['application/json', 'application/vnd.api+json', 'application/pdf', 'application/xml'];

describe('negotiate', () => {
  it('answers the first candidate when there is no Accept, and to */*', () => {
    expect(negotiate(undefined, JSON_FIRST)).toBe('application/json');
    expect(negotiate('', JSON_FIRST)).toBe('application/json');
    expect(negotiate('*/*', JSON_FIRST)).toBe('application/json');
  });

  it('prefers an exact type over a wildcard at the same q, and the higher q otherwise', () => {
    expect(negotiate('application/pdf, */*', JSON_FIRST)).toBe('application/pdf');
    expect(negotiate('application/xml;q=0.5, application/pdf;q=0.9', JSON_FIRST)).toBe('application/pdf');
    expect(negotiate('application/*', JSON_FIRST)).toBe('application/json');
    expect(negotiate('application/json;q=0.1, application/xml', JSON_FIRST)).toBe('application/xml');
  });

  it('is case-insensitive and ignores parameters other than q', () => {
    expect(negotiate('Application/PDF; charset=binary', JSON_FIRST)).toBe('application/pdf');
  });

  it('returns null when nothing offered is acceptable', () => {
    expect(negotiate('text/html', JSON_FIRST)).toBeNull();
    expect(negotiate('application/pdf;q=0', JSON_FIRST)).toBeNull();
    expect(negotiate('application/xhtml+zip', JSON_FIRST)).toBeNull();
    expect(negotiate('garbage', JSON_FIRST)).toBeNull();
    expect(negotiate('*/*', [])).toBeNull();
  });
});

describe('parseAccept', () => {
  it('skips malformed ranges and clamps q', () => {
    expect(parseAccept('text/html;q=2, */html, nonsense, application/pdf;q=0.3')).toEqual([
      { type: 'text', subtype: 'html', q: 1 },
      { type: 'application', subtype: 'pdf', q: 0.3 },
    ]);
  });
});
