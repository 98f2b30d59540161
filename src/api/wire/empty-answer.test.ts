import { getRequestListener } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { isEmptyAnswer } from './empty-answer.ts';

// As under the real server: @hono/node-server puts its light Response in place of the global one.
getRequestListener(() => new Response(null));

/** Whether @hono/node-server still holds the answer as given (its fast path writes it in one call). */
const light = (res: Response) => Object.getOwnPropertySymbols(res).some((s) => s.description === 'cache');

describe('isEmptyAnswer', () => {
  it('tells an answer with a body from its headers, leaving it light', () => {
    const res = new Response('{"data":{}}', { status: 201, headers: { 'content-type': 'application/json' } });
    expect(light(res)).toBe(true);
    expect(isEmptyAnswer(res)).toBe(false);
    expect(light(res)).toBe(true);
  });

  it('finds the empty answers: a 204, a bodyless 404, one with headers but no body', () => {
    expect(isEmptyAnswer(new Response(null, { status: 204 }))).toBe(true);
    expect(isEmptyAnswer(new Response(null, { status: 404, headers: { vary: 'Origin' } }))).toBe(true);
  });

  it('reads the body of an answer without a Content-Type', () => {
    expect(isEmptyAnswer(new Response('', { status: 200, headers: {} }))).toBe(false);
  });
});
