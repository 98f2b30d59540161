// Server-sent events read from a fetch response (Node 20 has no EventSource): the simulator's live
// log, GET /v1/simulator/stream, which `logs --follow` and `listen` follow.

export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

/** The events of a text/event-stream body, as they arrive; ends when the body ends. */
export async function* readEvents(res: Response): AsyncGenerator<StreamEvent> {
  if (!res.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  let event: Partial<StreamEvent> & { data?: string } = {};
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let nl = buffer.search(/\r?\n/); nl >= 0; nl = buffer.search(/\r?\n/)) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer[nl] === '\r' ? 2 : 1));
      if (line === '') {
        if (event.data !== undefined)
          yield { event: event.event ?? 'message', data: event.data, ...(event.id ? { id: event.id } : {}) };
        event = {};
        continue;
      }
      if (line.startsWith(':')) continue; // a comment (the heartbeat)
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
      else if (field === 'event') event.event = value;
      else if (field === 'id') event.id = value;
    }
  }
}
