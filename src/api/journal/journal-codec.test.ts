import { describe, expect, it } from 'vitest';
import { decodeNoted, encodeNoted, giveId, headerPairs, type NotedRequest } from './journal-codec.ts';

const noted: NotedRequest = {
  at: 1_795_651_200_123.5,
  schemeAt: 1_798_448_400_000,
  durationUs: 2_500,
  method: 'PATCH',
  target: '/v1/organisation/accounts/a?x=ü',
  headers: ['content-type', 'application/json', 'x-name', 'Zoë 😀'],
  status: 409,
  clientId: 'c-1',
  organisationId: undefined,
  body: '{"name":"Zoë 😀"}',
  answer: Buffer.from('{"error_code":"e"}'),
  errorKey: 'error_code',
};

/** Encodes at an offset into a larger buffer, as the journal's ring does. */
function encoded(n: NotedRequest): { buffer: Buffer; offset: number } {
  let placed = { buffer: Buffer.alloc(0), offset: 0 };
  encodeNoted(n, (size) => (placed = { buffer: Buffer.alloc(size + 7, 0xff), offset: 7 }));
  return placed;
}

describe('a noted request as bytes', () => {
  it('reads back as it was noted, with no id until one is given', () => {
    const { buffer, offset } = encoded(noted);
    const back = decodeNoted(buffer, offset);
    expect(back).toEqual({
      ...noted,
      answer: '{"error_code":"e"}',
      id: undefined,
      answerRebuilt: false,
      bodyCut: false,
      answerCut: false,
    });
    giveId(buffer, offset, '0c6f0b0e-1f0a-4b8e-9a57-3c1d2e3f4a5b');
    expect(decodeNoted(buffer, offset).id).toBe('0c6f0b0e-1f0a-4b8e-9a57-3c1d2e3f4a5b');
  });

  it('tells an empty body and no answer apart from none, and marks an answer made again', () => {
    const { buffer, offset } = encoded({ ...noted, body: '', answer: () => 'page', clientId: undefined });
    const back = decodeNoted(buffer, offset);
    expect([back.body, back.answer, back.answerRebuilt, back.clientId]).toEqual(['', undefined, true, undefined]);
  });

  it('keeps a client-given id with a line feed as one line, and every header after it', () => {
    const { buffer, offset } = encoded({ ...noted, organisationId: 'a\nb' });
    const back = decodeNoted(buffer, offset);
    expect([back.organisationId, back.headers]).toEqual(['a b', noted.headers]);
  });
});

describe('headerPairs', () => {
  it('gives Node’s headers and web Headers as name, value pairs, repeats apart', () => {
    expect(headerPairs({ accept: 'a', 'set-cookie': ['x=1', 'y=2'], absent: undefined })).toEqual([
      'accept',
      'a',
      'set-cookie',
      'x=1',
      'set-cookie',
      'y=2',
    ]);
    expect(headerPairs(new Headers({ Accept: 'a' }))).toEqual(['accept', 'a']);
  });
});
