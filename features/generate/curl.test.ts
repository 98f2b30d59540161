// A failing case as curl: pasteable in a POSIX shell, secrets left as variables.
import { describe, expect, it } from 'vitest';
import { curlOf } from './curl.ts';

describe('curlOf', () => {
  it('prints the method, URL, headers and body, quoting what the shell would read', () => {
    const curl = curlOf('http://127.0.0.1:8080', {
      method: 'POST',
      path: '/v1/organisation/accounts',
      headers: { 'content-type': 'application/json', authorization: 'Bearer abc.def' },
      body: `{"name":["O'Brien"]}`,
    });
    expect(curl).toBe(
      `curl -sS -X POST 'http://127.0.0.1:8080/v1/organisation/accounts' -H 'content-type: application/json' -H "Authorization: $AUTH" -d '{"name":["O'\\''Brien"]}'`,
    );
    expect(curl).not.toContain('abc.def');
  });

  it('leaves signatures as variables and sends no -d without a body', () => {
    const curl = curlOf('http://x', { method: 'GET', path: '/health', headers: { Signature: 'keyId=…' } });
    expect(curl).toBe(`curl -sS -X GET 'http://x/health' -H "Signature: $SIGNATURE"`);
  });
});
