import { getRequestListener } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { answerHeader, answerText, appendAnswerHeader, isEmptyAnswer } from './answer-header.ts';

// As under the real server: @hono/node-server puts its light Response in place of the global one.
getRequestListener(() => new Response(null));

/**
 * Whether @hono/node-server still holds the answer's headers as the plain object given: then its
 * fast path writes them as they are, with no web Headers made, copied and sorted.
 */
const plain = (res: Response) => {
  const key = Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  const slot = key && (res as unknown as Record<symbol, unknown[]>)[key];
  return Array.isArray(slot) && !(slot[2] instanceof Headers);
};

/** The headers as name, value pairs, in the order web Headers give them. */
const pairs = (headers: Headers) => {
  const out: [string, string][] = [];
  headers.forEach((value, name) => {
    out.push([name, value]);
  });
  return out;
};

const json = () => new Response('{"data":{}}', { status: 201, headers: { 'Content-Type': 'application/json' } });

describe('isEmptyAnswer', () => {
  it('tells an answer with a body from its headers, leaving them plain', () => {
    const res = json();
    expect(plain(res)).toBe(true);
    expect(isEmptyAnswer(res)).toBe(false);
    expect(plain(res)).toBe(true);
  });

  it('finds the empty answers: a 204, a bodyless 404, one with headers but no body', () => {
    expect(isEmptyAnswer(new Response(null, { status: 204 }))).toBe(true);
    expect(isEmptyAnswer(new Response(null, { status: 404, headers: { vary: 'Origin' } }))).toBe(true);
  });

  it('reads the body of an answer without a Content-Type', () => {
    expect(isEmptyAnswer(new Response('', { status: 200, headers: {} }))).toBe(false);
  });

  it('answers alike once web Headers were made', () => {
    const res = json();
    res.headers.get('content-type');
    expect(plain(res)).toBe(false);
    expect(isEmptyAnswer(res)).toBe(false);
    const empty = new Response(null, { status: 204 });
    empty.headers.get('vary');
    expect(isEmptyAnswer(empty)).toBe(true);
  });
});

describe('answerHeader and appendAnswerHeader', () => {
  it('read and add a header in any case of its name, leaving the headers plain', () => {
    const res = json();
    expect(answerHeader(res, 'content-type')).toBe('application/json');
    expect(answerHeader(res, 'vary')).toBeNull();
    appendAnswerHeader(res, 'vary', 'Origin');
    expect(plain(res)).toBe(true);
    expect(pairs(res.headers)).toEqual([
      ['content-type', 'application/json'],
      ['vary', 'Origin'],
    ]);
  });

  it('join a value to one already there, as Headers.append does', () => {
    const res = new Response('x', { headers: { Vary: 'Accept' } });
    appendAnswerHeader(res, 'vary', 'Origin');
    expect(plain(res)).toBe(true);
    expect(answerHeader(res, 'vary')).toBe('Accept, Origin');
    expect(res.headers.get('vary')).toBe('Accept, Origin');
  });

  it('see what the adapter sends for an answer given no headers', () => {
    const text = new Response('x');
    expect(answerHeader(text, 'content-type')).toBe('text/plain; charset=UTF-8');
    const empty = new Response(null, { status: 204 });
    expect(answerHeader(empty, 'content-type')).toBeNull();
    appendAnswerHeader(empty, 'vary', 'Origin');
    expect(pairs(empty.headers)).toEqual([['vary', 'Origin']]);
    appendAnswerHeader(text, 'vary', 'Origin');
    expect(pairs(text.headers)).toEqual([
      ['content-type', 'text/plain; charset=UTF-8'],
      ['vary', 'Origin'],
    ]);
  });

  it('use the web Headers of any other answer', () => {
    const res = json();
    res.headers.set('vary', 'Accept');
    appendAnswerHeader(res, 'vary', 'Origin');
    expect(answerHeader(res, 'vary')).toBe('Accept, Origin');
    const many = new Response('x', { headers: new Headers({ a: '1', 'content-type': 'text/csv' }) });
    expect(answerHeader(many, 'content-type')).toBe('text/csv');
  });
});

describe('answerText', () => {
  it('reads the text an answer holds, or none, leaving the answer light', () => {
    const res = json();
    expect(answerText(res)).toBe('{"data":{}}');
    expect(plain(res)).toBe(true);
    expect(answerText(new Response(null, { status: 204 }))).toBeNull();
  });

  it('says nothing of bytes, or of an answer no longer light', () => {
    expect(answerText(new Response(new Uint8Array([123, 125])))).toBeUndefined();
    const res = json();
    void res.body;
    expect(answerText(res)).toBeUndefined();
  });
});
