import { describe, expect, it } from 'vitest';
import { resolveHostAddresses } from './resolve-host.ts';

describe('resolveHostAddresses', () => {
  it('gives every address of a name, through the system resolver', async () => {
    expect(await resolveHostAddresses('localhost')).toContain('127.0.0.1');
  });

  it('gives none for a name that does not resolve (RFC 6761 .invalid)', async () => {
    expect(await resolveHostAddresses('nowhere.invalid')).toEqual([]);
  });
});
