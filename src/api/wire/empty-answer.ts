/**
 * Whether an answer has no body, told from its headers where they settle it: every answer with a
 * body here says its Content-Type (c.json, c.html, c.text, a typed c.body). Reading `body` of
 * @hono/node-server's light Response builds the web Response and its stream, and Node then writes
 * the answer on its slow path, reading that stream: about a tenth of a create's CPU (issue 30).
 */
export function isEmptyAnswer(res: Response): boolean {
  return !res.headers.has('content-type') && res.body === null;
}
