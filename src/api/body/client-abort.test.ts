import { describe, expect, it } from 'vitest';
import { isClientAbort } from './client-abort.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isClientAbort', () => {
  it('knows the errors of a client that left mid-request', () => {
    expect(isClientAbort(withCode('aborted', 'ECONNRESET'))).toBe(true);
    expect(isClientAbort(withCode('Premature close', 'ERR_STREAM_PREMATURE_CLOSE'))).toBe(true);
    expect(isClientAbort(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }))).toBe(true);
  });

  it('leaves every other error a server error', () => {
    expect(isClientAbort(new Error('aborted'))).toBe(false);
    expect(isClientAbort(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(false); // an outbound call's reset is ours
    expect(isClientAbort(new TypeError('x is undefined'))).toBe(false);
    expect(isClientAbort('aborted')).toBe(false);
  });
});
