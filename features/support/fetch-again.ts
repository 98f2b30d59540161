// A request that meets a connection closed before any answer (the server dropped a kept-alive
// connection as it was reused: ECONNRESET, "other side closed") is sent once more, on a new
// connection. Under load (20 harness runs at once on two cores) a client's event loop may reuse a
// socket the server has just closed for idleness; without this, a preflight's probe or a step fails
// on the connection, not on the target's answer. Installed for the harness's own requests against a
// running target (hooks.ts), not in process, where no connection is made.

const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The error is a connection closed before an answer came, not a timeout or a refusal. */
export function closedBeforeAnswer(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string; cause?: { code?: string } } }).cause;
  return CLOSED.has(cause?.code ?? '') || CLOSED.has(cause?.cause?.code ?? '');
}

/** `fetch` that sends a request once more when its connection was closed before any answer. */
export function resendingOnClose(plain: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const again = request.clone();
    try {
      return await plain(request);
    } catch (err) {
      if (!closedBeforeAnswer(err)) throw err;
      return plain(again);
    }
  };
}
