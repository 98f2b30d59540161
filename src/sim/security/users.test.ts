import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { Users, userIdOf } from './users.ts';

const NORTHWIND_ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
const HARBOUR_ORG = '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11';
const sources = [
  {
    client_id: '5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b',
    organisation_id: NORTHWIND_ORG,
    aliases: ['northwind-dev'],
    public_keys: [{ key_id: '0d3f8c5e-2b7a-4f1d-9c6e-5a4b3c2d1e0f' }, { key_id: 'northwind-jws' }],
  },
  { client_id: '8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f', organisation_id: HARBOUR_ORG },
  { client_id: 'northwind-ops', organisation_id: NORTHWIND_ORG, aliases: ['ops'] },
];

describe('Users', () => {
  it('is one user per client: its first alias as username, the client as credential, its UUID keys', () => {
    const users = new Users(sources);
    const [dev, ops] = users.list(NORTHWIND_ORG);
    expect(dev).toEqual({
      type: 'users',
      id: userIdOf('5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b'),
      organisation_id: NORTHWIND_ORG,
      version: 0,
      attributes: {
        username: 'northwind-dev',
        role_ids: [],
        client_credential_ids: ['5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b'],
        public_key_ids: ['0d3f8c5e-2b7a-4f1d-9c6e-5a4b3c2d1e0f'],
      },
    });
    expect(ops!.attributes.username).toBe('ops');
    // Without an alias the username is the client id.
    expect(users.list(HARBOUR_ORG)[0]!.attributes.username).toBe('8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f');
    expect(users.list('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('derives a stable version-5 UUID per client id, distinct from the client id', () => {
    const id = userIdOf('5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(userIdOf('5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b')).toBe(id);
    expect(userIdOf('8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f')).not.toBe(id);
    expect(id).not.toBe('5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b');
  });

  it("lists a user's credentials without secrets; another organisation's user does not exist", () => {
    const users = new Users(sources);
    const harbourUser = userIdOf('8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f');
    expect(users.credentials(harbourUser, HARBOUR_ORG)).toEqual([
      { client_id: '8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f' },
    ]);
    for (const read of [
      () => users.get(harbourUser, NORTHWIND_ORG),
      () => users.credentials(harbourUser, NORTHWIND_ORG),
    ]) {
      expect(read).toThrow(DomainError);
      expect(read).toThrow(`record ${harbourUser} does not exist`);
    }
  });
});
