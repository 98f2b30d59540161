// Requests signed in both directions of the cavage draft, with the signing strings written out by
// hand from the draft and from Form3's sources, never by the code under test:
// - a request signed as Form3's Go SDK signs it (pkg/form3/auth_request_signing.go):
//   `(request-target) host date`, then `content-type digest content-length` for a body, the Date
//   in RFC 1123 with "UTC";
// - a notification signed as Form3 signs them (tutorial "Verifying notification headers", decision
//   012): `(request-target) host date digest content-type`, the Date with "GMT".
// Each vector is a POST, so both directions sign the same request.

export interface CavageVector {
  name: string;
  url: string;
  body: string;
  at: Date;
  /** What Form3's SDK signs for this request (content type application/vnd.api+json). */
  sdkSigningString: string;
  /** What a notification of this body to this URL is signed over (content type application/json). */
  notificationSigningString: string;
}

export const CAVAGE_VECTORS: readonly CavageVector[] = [
  {
    name: 'a JSON body to a path',
    url: 'https://api.example.test/v1/organisation/accounts',
    body: '{"data":{"id":"a-1"}}',
    at: new Date('2026-12-21T09:00:00Z'),
    sdkSigningString: [
      '(request-target): post /v1/organisation/accounts',
      'host: api.example.test',
      'date: Mon, 21 Dec 2026 09:00:00 UTC',
      'content-type: application/vnd.api+json',
      'digest: SHA-256=Sf0djuMvQYsO1uO3EzzFF1JOsuKNaiwLkqZ09vMejeU=',
      'content-length: 21',
    ].join('\n'),
    notificationSigningString: [
      '(request-target): post /v1/organisation/accounts',
      'host: api.example.test',
      'date: Mon, 21 Dec 2026 09:00:00 GMT',
      'digest: SHA-256=Sf0djuMvQYsO1uO3EzzFF1JOsuKNaiwLkqZ09vMejeU=',
      'content-type: application/json',
    ].join('\n'),
  },
  {
    name: 'a query string kept as sent, a port, and a body beyond ASCII',
    url: 'http://127.0.0.1:8080/hooks/form3?filter%5Bx%5D=1&page%5Bsize%5D=2',
    body: '{"name":"Zoë Ŵ £1"}',
    at: new Date('2027-03-28T01:30:00Z'),
    sdkSigningString: [
      '(request-target): post /hooks/form3?filter%5Bx%5D=1&page%5Bsize%5D=2',
      'host: 127.0.0.1:8080',
      'date: Sun, 28 Mar 2027 01:30:00 UTC',
      'content-type: application/vnd.api+json',
      'digest: SHA-256=bxE9f5SyF8S6HNvED4Nc5lpRnEXr3Dc2j1uQ9UdkmTk=',
      'content-length: 22',
    ].join('\n'),
    notificationSigningString: [
      '(request-target): post /hooks/form3?filter%5Bx%5D=1&page%5Bsize%5D=2',
      'host: 127.0.0.1:8080',
      'date: Sun, 28 Mar 2027 01:30:00 GMT',
      'digest: SHA-256=bxE9f5SyF8S6HNvED4Nc5lpRnEXr3Dc2j1uQ9UdkmTk=',
      'content-type: application/json',
    ].join('\n'),
  },
  {
    name: 'an empty JSON object',
    url: 'https://receiver.example.test/',
    body: '{}',
    at: new Date('2026-02-28T23:59:59Z'),
    sdkSigningString: [
      '(request-target): post /',
      'host: receiver.example.test',
      'date: Sat, 28 Feb 2026 23:59:59 UTC',
      'content-type: application/vnd.api+json',
      'digest: SHA-256=RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=',
      'content-length: 2',
    ].join('\n'),
    notificationSigningString: [
      '(request-target): post /',
      'host: receiver.example.test',
      'date: Sat, 28 Feb 2026 23:59:59 GMT',
      'digest: SHA-256=RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=',
      'content-type: application/json',
    ].join('\n'),
  },
];
