import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JWKS_PATH, NAME_VERIFICATION_PATH, PARTICIPANTS_PREFIX, ParticipantPath } from './participant-paths.ts';

const SRC = resolve(import.meta.dirname, '../..');

describe('the participant paths', () => {
  it('build the paths clients call, and read the participant back out of them', () => {
    expect(NAME_VERIFICATION_PATH.of('0015800001041REAAY')).toBe(
      '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification',
    );
    expect(JWKS_PATH.of('0015800001041REAAY')).toBe('/v1/participants/0015800001041REAAY/jwks.json');
    expect(NAME_VERIFICATION_PATH.route).toBe('/:open_banking_id/open-banking/v3.1/accounts/name-verification');
    expect(JWKS_PATH.idIn(JWKS_PATH.of('X1'))).toBe('X1');
    expect(NAME_VERIFICATION_PATH.idIn(NAME_VERIFICATION_PATH.of('X1'))).toBe('X1');
  });

  it.each([
    '/v1/participants//jwks.json',
    '/v1/participants/a/b/jwks.json',
    '/v1/participants/a/jwks.json/',
    '/v1/participants/a/jwksXjson',
    '/v2/participants/a/jwks.json',
    'x/v1/participants/a/jwks.json',
  ])('take %s for no participant of the JWKS path (one segment, dots literal)', (path) => {
    expect(JWKS_PATH.idIn(path)).toBeUndefined();
  });

  it('match a tail with regular-expression characters literally', () => {
    const odd = new ParticipantPath('/a+b(c)');
    expect(odd.idIn('/v1/participants/p/a+b(c)')).toBe('p');
    expect(odd.idIn('/v1/participants/p/aab(c)')).toBeUndefined();
  });

  // The declaration is the one place: a path of the participant API written out anywhere else in
  // src's code (comments aside) is a second declaration that can drift from it.
  it('are written out nowhere else in src', () => {
    const here = 'api/open-banking/participant-paths.ts';
    const written = /['"`](?:[^'"`]*)(?:\/v1\/participants|\/open-banking\/v3\.1|\/jwks\.json)/;
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && relative(SRC, path) !== here)
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (!/^\s*(\/\/|\*|\/\*)/.test(line) && written.test(line)) found.push(`${relative(SRC, path)}:${i + 1}`);
            });
      }
    };
    walk(SRC);
    expect(found).toEqual([]);
    expect(PARTICIPANTS_PREFIX).toBe('/v1/participants');
  });
});
