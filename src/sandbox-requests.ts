// What a sandbox request asks for, checked before anything is made: the server's limits, the
// lifetime, the clock start, the matcher thresholds and new credentials for each client (each
// refusal a 400 naming the field).
import { randomBytes, randomUUID } from 'node:crypto';
import type { OAuthClient } from './api/auth/clients.ts';
import type { SandboxCreation, SandboxRequest } from './api/sandbox-directory.ts';
import { ApiError } from './api/wire/errors.ts';
import { isSupportedInstant } from './clock/dates.ts';
import { type ClockState, SchemeClock } from './clock/scheme-clock.ts';
import { type MatchThresholds, matchThresholds } from './sim/cop/thresholds.ts';
import type { WorldOptions } from './world.ts';

export interface SandboxLimits {
  /** Who may create one: an admin of the default sandbox (`admin`) or anyone (`open`). */
  creation: SandboxCreation;
  /** Live sandboxes at most (default 1,000). */
  maxSandboxes: number;
  /** Records one sandbox may hold (default 100,000). */
  recordQuota: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { creation: 'admin', maxSandboxes: 1000, recordQuota: 100_000 };
/** A sandbox lives 24 h unless asked otherwise, and 30 days at most (Stripe's test clocks: deletes_after). */
const DEFAULT_LIFETIME_MS = 24 * 3600_000;
const MAX_LIFETIME_MS = 30 * 24 * 3600_000;
export function checkLimits(limits: SandboxLimits): void {
  if (limits.creation !== 'admin' && limits.creation !== 'open')
    throw new Error(`sandbox creation must be admin or open, got ${String(limits.creation)}`);
  for (const key of ['maxSandboxes', 'recordQuota'] as const)
    if (!Number.isInteger(limits[key]) || limits[key] < 1)
      throw new Error(`${key} must be a whole number ≥ 1, got ${String(limits[key])}`);
}

/** New ids, secrets and key ids for each template client; the first is the sandbox's admin. */
export function newClients(template: OAuthClient[]): OAuthClient[] {
  return template.map((t, i) => ({
    client_id: randomUUID(),
    client_secret: randomBytes(24).toString('base64url'),
    organisation_id: t.organisation_id,
    name: t.name ?? `client ${i + 1}`,
    role: i === 0 ? 'admin' : (t.role ?? 'member'),
    ...(t.public_keys
      ? { public_keys: t.public_keys.map((k) => ({ key_id: randomUUID(), public_key: k.public_key })) }
      : {}),
  }));
}

/** When the sandbox expires: `expires_at` or `lifetime_seconds` from now, 24 h by default, 30 days at most. */
export function expiryOf(request: SandboxRequest, now: number): string {
  let at = now + DEFAULT_LIFETIME_MS;
  if (request.lifetime_seconds !== undefined) at = now + request.lifetime_seconds * 1000;
  if (request.expires_at !== undefined) {
    at = Date.parse(request.expires_at);
    if (!(at > now))
      throw new ApiError(
        400,
        `validation failure list:\nexpires_at in body must be in the future, got ${request.expires_at}`,
      );
  }
  if (at - now > MAX_LIFETIME_MS)
    throw new ApiError(
      400,
      `validation failure list:\nexpires_at in body must be at most 30 days ahead (the longest a sandbox lives), got ${new Date(at).toISOString()}`,
    );
  return new Date(at).toISOString();
}

export function clockStartOf(clock: NonNullable<SandboxRequest['clock']>, wall: WorldOptions['wall']): ClockState {
  const at = clock.start ?? (wall?.now() ?? new Date()).toISOString();
  if (!isSupportedInstant(new Date(at)))
    throw new ApiError(400, `validation failure list:\nclock.start in body must be a supported instant, got ${at}`);
  return clock.mode === 'frozen' ? SchemeClock.frozenAt(at, wall) : SchemeClock.runningFrom(at, clock.speed ?? 1, wall);
}

/**
 * A sandbox's `settings.match_thresholds` (the API's snake_case) over the server's thresholds,
 * checked; a value out of range is a 400 naming it.
 */
export function thresholdsOf(given: Record<string, unknown>, server: MatchThresholds | undefined): MatchThresholds {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    const camel = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    changes[camel] =
      key === 'typo_edits_by_length' && Array.isArray(value)
        ? value.map((step: { min_length?: unknown; edits?: unknown }) => ({
            minLength: step.min_length,
            edits: step.edits,
          }))
        : value;
  }
  try {
    return matchThresholds({ ...server, ...(changes as Partial<MatchThresholds>) });
  } catch (err) {
    const message = (err as Error).message
      .replace(/^matchThresholds\./, 'settings.match_thresholds.')
      .replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    throw new ApiError(400, `validation failure list:\n${message}`);
  }
}
