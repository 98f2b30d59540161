import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { clip, type JournalEntry, maskBody, maskHeaders, type RequestJournal } from './request-journal.ts';

const TEXTUAL = /^(application\/(.*\+)?(json|xml|x-www-form-urlencoded)|text\/)/;

/**
 * Records every request and its answer in the journal (the outermost layer, so refusals by the
 * auth and fault layers are seen too). The request body is what the handler read (no second read);
 * an error's answer is read before recording, so the entry carries its error_code; a success's
 * answer is read after the response has gone, off the request path.
 */
export function journalLayer(journal: RequestJournal, now: () => Date): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const time = now().toISOString();
    await next();
    const res = c.res;
    const url = new URL(c.req.url);
    // What the handler read is cached by Hono as a settled promise: no second read of the stream.
    const cache = c.req.bodyCache;
    const read =
      (cache.text as Promise<string> | undefined) ??
      (cache.arrayBuffer as Promise<ArrayBuffer> | undefined)?.then((b) => new TextDecoder().decode(b));
    const cached = read ? await read.catch(() => undefined) : undefined;
    const body = typeof cached === 'string' && cached !== '' ? clip(maskBody(cached)) : undefined;
    const entry: Omit<JournalEntry, 'id'> = {
      time,
      method: c.req.method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      headers: maskHeaders(c.req.raw.headers),
      ...(body ? { body: body.text, ...(body.truncated ? { body_truncated: true } : {}) } : {}),
      status: res.status,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      ...(c.get('clientId') ? { client_id: c.get('clientId') } : {}),
      ...(c.get('organisationId') ? { organisation_id: c.get('organisationId') } : {}),
    };
    const type = res.headers.get('content-type') ?? '';
    if (!res.body || !TEXTUAL.test(type)) {
      journal.record(entry);
      return;
    }
    const text = res.clone().text();
    if (res.status >= 400) {
      const answer = await text.catch(() => '');
      const code = /"error_code"\s*:\s*"([^"]+)"/.exec(answer)?.[1];
      journal.record({ ...entry, ...(code ? { error_code: code } : {}), ...answerFields(answer) });
      return;
    }
    // A success's answer is read after the response has gone; the entry is made when first read.
    let answer: string | undefined;
    void text.then((t) => (answer = t)).catch(() => undefined);
    journal.record(() => ({ ...entry, ...answerFields(answer) }));
  };
}

function answerFields(answer: string | undefined): Pick<JournalEntry, 'response_body' | 'response_truncated'> {
  if (answer === undefined) return {};
  const kept = clip(answer);
  return { response_body: kept.text, ...(kept.truncated ? { response_truncated: true as const } : {}) };
}
