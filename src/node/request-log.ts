// The request log: one line per request, from the request journal's entries, through pino. `text`
// is a line a person reads in the terminal; `json` is pino's JSON lines, for a log pipeline.
import { pino } from 'pino';
import type { JournalEntry } from '../api/journal/request-journal.ts';

export type LogFormat = 'text' | 'json';
export type LogLevel = 'info' | 'debug';

export interface RequestLogOptions {
  format: LogFormat;
  /** `debug` adds the query, the client and the organisation to each line. */
  level: LogLevel;
  /** Where lines go (default stdout). */
  write?: (line: string) => void;
}

/** `2026-11-25T22:00:00.000Z POST /v1/transaction/claims 400 3.2ms error_code=…` */
export function textLine(e: Record<string, unknown>): string {
  const parts = [String(e.time), String(e.method), String(e.path), String(e.status), `${e.ms}ms`];
  if (e.error_code) parts.push(`error_code=${e.error_code}`);
  if (e.query) parts.push(`query=${e.query}`);
  if (e.client_id) parts.push(`client=${e.client_id}`);
  if (e.organisation_id) parts.push(`organisation=${e.organisation_id}`);
  return `${parts.join(' ')}\n`;
}

/** A function to give every journal entry to: it logs the entry's line at the chosen level. */
export function requestLogger(options: RequestLogOptions): (entry: JournalEntry) => void {
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const stream = {
    write: options.format === 'json' ? write : (line: string) => write(textLine(JSON.parse(line))),
  };
  const logger = pino({ level: options.level, base: null, timestamp: false, messageKey: 'msg' }, stream);
  return (e) => {
    const fields = {
      time: e.time,
      method: e.method,
      path: e.path,
      status: e.status,
      ms: e.duration_ms,
      ...(e.error_code ? { error_code: e.error_code } : {}),
    };
    if (options.level === 'debug') {
      logger.debug({
        ...fields,
        ...(e.query ? { query: e.query } : {}),
        ...(e.client_id ? { client_id: e.client_id } : {}),
        ...(e.organisation_id ? { organisation_id: e.organisation_id } : {}),
      });
    } else logger.info(fields);
  };
}
