import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { Participants } from './participants.ts';

describe('participants', () => {
  const p = new Participants([
    { open_banking_id: 'OB1', organisation_id: 'org', name: 'Bank', sort_codes: ['400300'] },
  ]);
  it('finds participants and the sort codes they serve', () => {
    expect(p.get('OB1').organisation_id).toBe('org');
    expect(p.serves('OB1', '400300')).toBe(true);
    expect(p.serves('OB1', '400301')).toBe(false);
    expect(p.serves('OB2', '400300')).toBe(false);
    expect(() => p.get('OB2')).toThrow(DomainError);
    expect(p.all()).toEqual([{ open_banking_id: 'OB1', organisation_id: 'org', name: 'Bank', sort_codes: ['400300'] }]);
  });
  it('refuses a participant listed twice', () => {
    const one = { open_banking_id: 'OB1', organisation_id: 'org', name: 'Bank', sort_codes: [] };
    expect(() => new Participants([one, one])).toThrow(/twice/);
  });
});
