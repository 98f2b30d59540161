// Refusing a callback that points back at the simulator needs the addresses its host resolves to:
// the DNS lookup, with a time limit, kept in the I/O layer.
import { lookup } from 'node:dns/promises';

/** How long a callback host's lookup may take before it counts as not resolving. */
const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Every address a host name resolves to (A and AAAA, through the system resolver, hosts file
 * included); none when it does not resolve in time. Used to refuse callbacks at the simulator.
 */
export async function resolveHostAddresses(hostname: string, timeoutMs = LOOKUP_TIMEOUT_MS): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((done) => {
    timer = setTimeout(() => done([]), timeoutMs);
    timer.unref();
  });
  try {
    const found = lookup(hostname, { all: true, verbatim: true }).then(
      (list) => list.map((a) => a.address),
      () => [] as string[],
    );
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
