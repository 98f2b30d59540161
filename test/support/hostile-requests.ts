// What a careless or hostile client may put in each part of a request other than a JSON body (the
// bodies are src/api/json-bodies-fuzz.test.ts's): path ids, query strings, headers, methods and
// content types, as raw text for the request line and header block (test/client-input-fuzz.test.ts).

const UUID = '6f0c2a8e-0000-4000-8000-000000000001';

/** Path segments in place of an id: malformed, encoded, of another shape, huge, prototype names. */
export const HOSTILE_IDS: readonly string[] = [
  '',
  'x',
  '00000000-0000-0000-0000-000000000000',
  UUID.toUpperCase(),
  `${UUID}%00`,
  `${UUID}x`,
  '%',
  '%ZZ',
  '%C0%AF',
  '%E0%A4%A',
  '%F0%9F%98%80',
  '%00',
  '%0A',
  '%20',
  '%2F',
  '..',
  '%2e%2e',
  ';',
  '*',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'null',
  '-1',
  '1e400',
  'a'.repeat(5_000),
  'sbx_x',
];

/** Query strings (without the `?`): paging, filters and versions malformed, repeated or huge. */
export const HOSTILE_QUERIES: readonly string[] = [
  '',
  '&&&',
  '=',
  '%',
  '%=%',
  '%ZZ=1',
  'q=%E0%A4%A',
  'page[number]=-1',
  'page[number]=abc',
  'page[number]=1e400',
  'page[number]=99999999999999999999999',
  'page[number]=first&page[number]=last',
  'page[size]=0',
  'page[size]=-5',
  'page[size]=1001',
  'page[size]=1.5',
  'page[size]=',
  'page=1',
  'page[]=1',
  'page[__proto__]=1',
  'filter=1',
  'filter[]=1',
  'filter[x]=1',
  'filter[a][b][c]=1',
  'filter[__proto__]=1',
  'filter[constructor]=1',
  'filter[bank_id]=%',
  'filter[bank_id]=%00',
  'filter[bank_id]=1&filter[bank_id]=2',
  'filter[processing_date_from]=2026-02-30',
  'filter[processing_date_from]=-271821-04-19',
  'filter[status]=%0A',
  'filter[report_type]=__proto__',
  'filter[path]=%',
  'filter[own]=maybe',
  'version=abc',
  'version=-1',
  'version=1e999',
  'version=',
  'version=1&version=2',
  '__proto__[x]=1',
  'constructor=1',
  `${'a'.repeat(4_000)}=1`,
  Array.from({ length: 300 }, (_, i) => `k${i}=${i}`).join('&'),
];

/**
 * Header blocks that replace or join the request's own. `null` for a name removes that header:
 * `{ authorization: null }` sends none.
 */
export const HOSTILE_HEADERS: ReadonlyArray<Record<string, string | null>> = [
  { authorization: null },
  { authorization: 'Bearer' },
  { authorization: 'Bearer ' },
  { authorization: 'Bearer a.b.c' },
  { authorization: `Bearer ${'x'.repeat(8_000)}` },
  { authorization: 'Bearer sbx_' },
  { authorization: 'Bearer sbx_x.y' },
  { authorization: 'Basic !!!' },
  { authorization: `Basic ${Buffer.from('::').toString('base64')}` },
  { authorization: `Basic ${Buffer.from('__proto__:x').toString('base64')}` },
  { authorization: 'Signature keyId="x",algorithm="rsa-sha256",headers="(request-target) host date",signature="AAAA"' },
  { authorization: 'Signature keyId=",signature=' },
  { authorization: 'Signature' },
  { date: 'not a date', digest: 'SHA-256=%%%' },
  { digest: 'SHA-256=' },
  { accept: 'application/pdf' },
  { accept: 'text/html' },
  { accept: '*/*;q=x' },
  { accept: 'application/json;q=0' },
  { accept: 'a/b/c, ;;;, */' },
  { accept: 'application/xhtml+zip, application/xml;q=0.5' },
  { 'accept-encoding': 'gzip;q=x, br, zzz' },
  { 'x-fapi-interaction-id': 'not a uuid' },
  { 'x-fapi-interaction-id': 'x'.repeat(5_000) },
  { 'x-fapi-financial-id': '' },
  { 'x-jws-signature': 'a..b' },
  { 'x-jws-signature': '..' },
  { 'x-jws-signature': 'eyJ9.e30.AAAA' },
  { 'x-scheme-sim-tool': '__proto__' },
  { 'x-forwarded-for': '::::' },
  { host: null },
  { host: '' },
  { host: '[' },
  { host: 'a b' },
  { host: 'user@evil:80' },
  { host: '127.0.0.1:99999' },
  { host: 'x'.repeat(300) },
  { 'x-forwarded-proto': 'javascript' },
  { origin: 'null', 'access-control-request-method': 'DELETE' },
  { 'content-type': 'application/json; charset=utf-16' },
  { 'content-type': 'application/json;;;' },
  { 'content-type': 'application/vnd.Form3+json' },
  { 'content-type': 'APPLICATION/JSON' },
  { 'content-type': 'multipart/form-data; boundary=' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-type': 'application/json, application/xml' },
  { 'content-type': '' },
];

/** Methods beyond those a path declares, some no server knows. */
export const ODD_METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'];

/** Content types with the bodies sent under them: JSON and not, empty, cut short, binary. */
export const CONTENT_TYPES: readonly (string | null)[] = [
  null,
  'application/json',
  'application/vnd.api+json',
  'application/vnd.Form3+json',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/octet-stream',
];
export const SMALL_BODIES: readonly string[] = [
  '',
  '{}',
  '{"data":',
  'grant_type=client_credentials&grant_type=password',
  '<a/>',
  '\u0000\u00ff\ud800',
  '{"data":{"id":"6f0c2a8e-0000-4000-8000-000000000002","attributes":{}}}',
];

/** A deterministic random source (a linear congruential generator), so a failure can be replayed. */
export function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}
