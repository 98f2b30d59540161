// Where a subscription may deliver: an absolute http(s) URL (an SQS queue URL for queue), never the
// simulator itself.
import { networkInterfaces } from 'node:os';
import type { CallbackTransport } from './callback-transport.ts';

const QUEUE_NAME_RE = /^[A-Za-z0-9_-]{1,80}(\.fifo)?$/;

/** Where the simulator itself answers: a host and port, and the path prefix of its routes. */
export interface SelfAddress {
  /** As URL.hostname has it: lower case, IPv6 in brackets. */
  host: string;
  port: string;
  /** '' when the app is served at the root. */
  prefix: string;
}

const isLoopback = (host: string) =>
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
  host === '[::1]' ||
  host === '[::ffff:7f00:1]';
const isWildcard = (host: string) => host === '0.0.0.0' || host === '[::]';

/** The names a request to `self` may use: its own, loopback and wildcard, and every interface address when it binds them all. */
function reaches(self: SelfAddress, host: string): boolean {
  if (host === self.host) return true;
  const local = isLoopback(self.host) || isWildcard(self.host);
  if (local && (isLoopback(host) || isWildcard(host))) return true;
  if (isWildcard(self.host)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? [])
        if ((a.family === 'IPv6' ? `[${a.address}]` : a.address).toLowerCase() === host) return true;
    }
  }
  return false;
}

/** Whether `url` is served by the simulator at `self` (the delivery would call the simulator). */
export function targetsSelf(url: URL, self: SelfAddress): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (port !== self.port || !reaches(self, url.hostname.toLowerCase())) return false;
  return self.prefix === '' || url.pathname === self.prefix || url.pathname.startsWith(`${self.prefix}/`);
}

/** A SelfAddress from a base URL (`http://127.0.0.1:8080`, `http://scheme-sim.test/prefix`). */
export function selfAddressOf(baseUrl: string): SelfAddress {
  const url = new URL(baseUrl);
  return {
    host: url.hostname.toLowerCase(),
    port: url.port || (url.protocol === 'https:' ? '443' : '80'),
    prefix: url.pathname.replace(/\/+$/, ''),
  };
}

/**
 * Why `uri` cannot be a callback for `transport`, or undefined. A callback served by the simulator
 * itself (one of `self`) is refused: its deliveries would call the simulator's own API (e.g. a
 * redeliver), which can feed itself forever.
 */
export function callbackUriProblem(
  transport: CallbackTransport,
  uri: string,
  self: readonly SelfAddress[] = [],
): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'callback_uri in body must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'callback_uri in body must use http or https';
  if (url.username || url.password) return 'callback_uri in body must not carry credentials';
  const own = self.find((a) => targetsSelf(url, a));
  if (own) return `callback_uri in body must not point at the simulator itself (${own.host}:${own.port}${own.prefix})`;
  if (transport === 'queue') {
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts.length !== 2 || !QUEUE_NAME_RE.test(parts[1]!) || url.search) {
      return 'callback_uri in body must be an SQS queue URL (http(s)://host/<account>/<queue-name>) for callback_transport queue';
    }
  }
  return undefined;
}
