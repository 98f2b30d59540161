// Acts on the whole simulator (moving the shared clock, resetting everything) are an administrator's:
// one check, so every such route refuses with the same 403.
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { ApiError } from '../wire/errors.ts';

/**
 * 403 unless the caller may act on the whole simulator (`role: admin` in the clients file). With
 * `--auth off` everyone may: it is a single user's double. The clock is shared by every
 * organisation, so moving it, like a reset of everything, is an administrator's act.
 */
export function requireAdmin(c: Context<AppEnv>, deps: AppDeps, action: string): void {
  if (!deps.mode.credentials) return;
  const clientId = c.get('clientId');
  const role = deps.clients.roleOf(clientId);
  if (role === 'admin') return;
  throw new ApiError(
    403,
    `${action} needs a client with role admin; client ${deps.clients.label(clientId)} has role ${role} (set "role": "admin" on it in the clients file)`,
  );
}
