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
  it('routes a sort code to the one participant serving it, and refuses a sort code served twice', () => {
    expect(p.owning('400300')?.open_banking_id).toBe('OB1');
    expect(p.owning('400399')).toBeUndefined();
    const a = { open_banking_id: 'A', organisation_id: 'a', name: 'A', sort_codes: ['111111'] };
    const b = { open_banking_id: 'B', organisation_id: 'b', name: 'B', sort_codes: ['222222', '111111'] };
    expect(() => new Participants([a, b])).toThrow(/sort code 111111 is served by two participants, A and B/);
  });
  it('refuses a participant listed twice', () => {
    const one = { open_banking_id: 'OB1', organisation_id: 'org', name: 'Bank', sort_codes: [] };
    expect(() => new Participants([one, one])).toThrow(/twice/);
  });
});
