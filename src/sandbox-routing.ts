// How a request names its sandbox before any world looks at it: the path prefix, an `sbx_` token,
// a token request's Basic client id or a signed request's key id (docs/sandboxes.md, "Addressed
// by credentials"). It runs on every request, so it reads by position where it can.
/** The path prefix that names a sandbox: `/sandboxes/{id}/v1/…`. */
export const PREFIX = '/sandboxes/';
const SBX_BEARER = /^bearer\s+sbx_([0-9a-f]{32})\./i;
/** The start of a `sbx_` token's Authorization header as the server issues it. */
const ISSUED = 'Bearer sbx_';
/** Where `Bearer sbx_<hex>.` puts its pieces: the hex id from 11 to 43, then a dot. */
const SBX_HEX = { from: ISSUED.length, to: ISSUED.length + 32 } as const;

/**
 * The sandbox id (32 lower-case hex digits) an `sbx_` bearer token names, or undefined. It runs on
 * every such request: the form the server issues (`Bearer sbx_<hex>.…`, one space, lower case) is
 * read by character codes, with no regex and no copy but the id (a sandbox's first few thousand
 * requests run it unoptimised, where a regex call costs most); any other spelling goes through the
 * regex.
 */
export function sbxHexOf(authorization: string): string | undefined {
  if (authorization.charCodeAt(SBX_HEX.to) === 46 /* . */ && authorization.startsWith(ISSUED)) {
    let hex = true;
    for (let i = SBX_HEX.from; i < SBX_HEX.to && hex; i++) hex = isLowerHex(authorization.charCodeAt(i));
    if (hex) return authorization.slice(SBX_HEX.from, SBX_HEX.to);
  }
  return SBX_BEARER.exec(authorization)?.[1]?.toLowerCase();
}

/** 0-9 or a-f. */
function isLowerHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102);
}
/** The key id of a signed request's Authorization header. */
export const KEY_ID = /keyId="([^"]*)"/;

/** What names a request's sandbox, before anyone knows where it lives: a node of a shared double routes by it. */
export type RouteKey = { id: string } | { client: string } | { keyId: string };

/**
 * The sandbox a request names (the path prefix, a `sbx_` token, a token request's Basic client
 * id, a signed request's key id), as routeWorld reads it; undefined: the default world's.
 */
export function routeKeyOf(path: string, authorization: string | undefined): RouteKey | undefined {
  if (path.startsWith(PREFIX)) {
    const end = path.indexOf('/', PREFIX.length);
    const stop = end < 0 ? (path.indexOf('?') < 0 ? path.length : path.indexOf('?')) : end;
    return { id: path.slice(PREFIX.length, stop).toLowerCase() };
  }
  if (authorization === undefined) return undefined;
  if (authorization.includes('sbx_')) {
    const hex = sbxHexOf(authorization);
    if (hex) return { id: uuidOfHex(hex) };
  }
  const scheme = authorization.slice(0, 10).toLowerCase();
  if (scheme.startsWith('basic ') && path.startsWith('/v1/oauth2/token')) {
    const client = basicClientId(authorization);
    return client === undefined ? undefined : { client };
  }
  if (scheme.startsWith('signature')) {
    const keyId = KEY_ID.exec(authorization)?.[1];
    return keyId === undefined ? undefined : { keyId };
  }
  return undefined;
}

/** `0123…` (32 hex digits) as a UUID's 8-4-4-4-12 groups. */
function uuidOfHex(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A sandbox id (a UUID) as the 32 hex digits its `sbx_` tokens carry. */
export function hexOf(id: string): string {
  return id.replaceAll('-', '');
}

/** The client id of a Basic authorization header, decoded as RFC 6749 §2.3.1 form-encodes it. */
export function basicClientId(header: string): string | undefined {
  const encoded = header.slice(6).trim();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
  } catch {
    return decoded.slice(0, i);
  }
}
