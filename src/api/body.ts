import type { Context } from 'hono';
import { ApiError } from './errors.ts';

export const JSON_MEDIA_TYPES = ['application/json', 'application/vnd.api+json'];

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Reads a JSON request body: 415 for another content type, 400 for malformed JSON or an empty body. */
export async function readJson(c: Context): Promise<unknown> {
  const type = mediaType(c.req.header('content-type'));
  if (!JSON_MEDIA_TYPES.includes(type)) {
    throw new ApiError(415, `Content-Type must be application/json or application/vnd.api+json, got ${type || 'none'}`);
  }
  const text = await c.req.text();
  if (text.trim() === '') throw new ApiError(400, 'request body is empty; a JSON object is required');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, `request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** The JSON body of an action whose body is optional: none (or whitespace) reads as `{}`. */
export async function optionalJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  return text.trim() === '' ? {} : readJson(c);
}
