import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../api/journal/request-journal.ts';
import { requestLogger } from './request-log.ts';

const entry: JournalEntry = {
  id: 'x',
  time: '2026-11-25T22:00:00.000Z',
  scheme_time: '2026-12-21T09:00:00.000Z',
  method: 'POST',
  path: '/v1/transaction/claims',
  query: 'a=1',
  headers: {},
  status: 400,
  duration_ms: 3.25,
  error_code: 'e-1',
  client_id: 'c',
  organisation_id: 'o',
};

describe('the request log', () => {
  it('writes one text line per request: time, method, path, status, ms, error_code', () => {
    const lines: string[] = [];
    requestLogger({ format: 'text', level: 'info', write: (l) => lines.push(l) })(entry);
    expect(lines).toEqual(['2026-11-25T22:00:00.000Z POST /v1/transaction/claims 400 3.25ms error_code=e-1\n']);
  });

  it('writes the same event as a pino JSON line, with the client at debug', () => {
    const lines: string[] = [];
    requestLogger({ format: 'json', level: 'debug', write: (l) => lines.push(l) })(entry);
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 20,
      time: '2026-11-25T22:00:00.000Z',
      method: 'POST',
      path: '/v1/transaction/claims',
      status: 400,
      ms: 3.25,
      error_code: 'e-1',
      query: 'a=1',
      client_id: 'c',
      organisation_id: 'o',
    });
  });
});
