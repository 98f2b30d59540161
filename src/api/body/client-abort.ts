/**
 * True for the error a body read gets when the client left before sending all of it: a closed
 * connection mid-body, or framing the HTTP parser gave up on (a bad chunk size). Node rejects the
 * read with `Error: aborted` (code ECONNRESET); streams say ERR_STREAM_PREMATURE_CLOSE or AbortError.
 * Nobody is left to read an answer, and nothing went wrong on the server: not a 500.
 */
export function isClientAbort(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return (
    (code === 'ECONNRESET' && err.message === 'aborted') ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ABORT_ERR' ||
    err.name === 'AbortError'
  );
}

/** The one line an operator sees for it, at info level. */
export function clientAbortLine(method: string, path: string): string {
  return `scheme-sim: ${method} ${path}: the client left before its request was read (closed mid-body or bad framing); nothing was done`;
}
