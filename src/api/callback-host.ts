// A subscription must not call the simulator back: the part of that check that needs a DNS lookup,
// which the domain (no I/O) cannot make.
import { isIP } from 'node:net';
import type { AppDeps } from './context.ts';
import { ApiError } from './wire/errors.ts';

/**
 * Refuses a callback whose host name resolves to an address the simulator listens on: its
 * deliveries would call the simulator's own API (a redeliver that feeds itself). Literal addresses
 * and `localhost` names are refused without a lookup by the domain's own check; this adds names
 * such as the machine's host name, or one a hosts file maps to 127.0.0.1. A name that does not
 * resolve is not the simulator, and is left to the delivery to fail.
 */
export async function assertCallbackHostNotSelf(deps: AppDeps, uri: unknown): Promise<void> {
  if (typeof uri !== 'string' || !deps.resolveHost || !deps.sim.subscriptions.knowsItsAddress) return;
  let hostname: string;
  try {
    hostname = new URL(uri).hostname;
  } catch {
    return; // the domain names a malformed URL
  }
  const bare = hostname.replace(/^\[|\]$/g, '');
  // Literal addresses and localhost names are the domain's to decide, with its own message.
  if (bare === '' || isIP(bare) !== 0 || bare === 'localhost' || bare.endsWith('.localhost')) return;
  const addresses = await deps.resolveHost(bare).catch(() => [] as string[]);
  const problem = deps.sim.subscriptions.selfTargetByAddress(uri, addresses);
  if (problem) throw new ApiError(400, `validation failure list: ${problem}`);
}
