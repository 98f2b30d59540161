// The profile a running simulator leaves for the CLI: where it listens and, for the bundled
// development clients only, the credentials it printed. Other commands read it when no flag or
// SCHEME_SIM_* variable says otherwise.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Profile {
  url: string;
  client_id?: string;
  client_secret?: string;
}

/** `$SCHEME_SIM_PROFILE`, else ~/.scheme-sim/profile.json. */
export function profilePath(env: Record<string, string | undefined> = process.env): string {
  return (
    env.SCHEME_SIM_PROFILE ??
    process.env.SCHEME_SIM_PROFILE ??
    join(env.HOME ?? homedir(), '.scheme-sim', 'profile.json')
  );
}

export function writeProfile(profile: Profile, env: Record<string, string | undefined> = process.env): string {
  const file = profilePath(env);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/** The profile, or undefined when there is none or it cannot be read. */
export function readProfile(env: Record<string, string | undefined> = process.env): Profile | undefined {
  try {
    const p = JSON.parse(readFileSync(profilePath(env), 'utf8')) as Profile;
    return typeof p.url === 'string' ? p : undefined;
  } catch {
    return undefined;
  }
}
