import { describe, expect, it } from 'vitest';
import { basicClientId, hexOf, routeKeyOf, sbxHexOf } from './sandbox-routing.ts';

const ID = '0f1e2d3c-4b5a-4697-8887-a6b5c4d3e2f1';
const HEX = hexOf(ID);
const TOKEN = `sbx_${HEX}.eyJjbGllbnQiOiJ4In0.c2ln`;

describe('sandbox routing keys', () => {
  it('reads the id of an sbx_ token by position, and any other spelling through the regex', () => {
    expect(HEX).toBe('0f1e2d3c4b5a46978887a6b5c4d3e2f1');
    for (const scheme of ['Bearer ', 'bearer ', 'BEARER ', 'Bearer  ', 'Bearer\t'])
      expect(sbxHexOf(`${scheme}${TOKEN}`), JSON.stringify(scheme)).toBe(HEX);
    expect(sbxHexOf(`Bearer ${TOKEN.replace(HEX, HEX.toUpperCase())}`)).toBe(HEX);
    expect(sbxHexOf(`Bearer sbx_${'g'.repeat(32)}.x.y`)).toBeUndefined();
    expect(sbxHexOf(`Bearer sbx_${HEX.slice(1)}.x.y`)).toBeUndefined();
    expect(sbxHexOf(`Basic sbx_${HEX}.x.y`)).toBeUndefined();
  });

  it('names the sandbox of a request by its prefix, token, Basic client id or key id', () => {
    expect(routeKeyOf(`/sandboxes/${ID.toUpperCase()}/v1/organisation/accounts`, undefined)).toEqual({ id: ID });
    expect(routeKeyOf(`/sandboxes/${ID}?x=1`, undefined)).toEqual({ id: ID });
    expect(routeKeyOf('/v1/organisation/accounts', `Bearer ${TOKEN}`)).toEqual({ id: ID });
    const basic = `Basic ${Buffer.from('client%2Bone:secret').toString('base64')}`;
    expect(routeKeyOf('/v1/oauth2/token', basic)).toEqual({ client: 'client+one' });
    expect(routeKeyOf('/v1/organisation/accounts', basic)).toBeUndefined();
    expect(routeKeyOf('/v1/x', 'Signature keyId="k-1",algorithm="rsa-sha256"')).toEqual({ keyId: 'k-1' });
    expect(routeKeyOf('/v1/x', 'Bearer plain.token')).toBeUndefined();
    expect(routeKeyOf('/v1/x', undefined)).toBeUndefined();
  });

  it('decodes a Basic client id as RFC 6749 form-encodes it, and refuses one with no colon', () => {
    const b64 = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
    expect(basicClientId(b64('a+b%3Ac:secret'))).toBe('a b:c');
    expect(basicClientId(b64('bad%zz:secret'))).toBe('bad%zz');
    expect(basicClientId(b64('nocolon'))).toBeUndefined();
  });
});
