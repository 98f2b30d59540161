// The profiles running simulators leave for the CLI: one file per simulator, keyed by the host and
// port it listens on (~/.scheme-sim/profiles/127.0.0.1_8080.json), holding its URL, the process,
// the directory it was started in and, for the bundled development clients only, the credentials
// it printed. A simulator writes its own file and never another's, so two simulators (two
// projects, a test run beside a dev server) each keep theirs. SCHEME_SIM_PROFILE=FILE names one
// file instead, for both the simulator that writes and the commands that read.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

export interface Profile {
  url: string;
  client_id?: string;
  client_secret?: string;
  /** The simulator's process, to tell a profile whose simulator is gone. */
  pid?: number;
  /** Where it was started: a command run in that directory prefers this profile. */
  cwd?: string;
  started_at?: string;
}

export interface ProfileFile<P = Profile> {
  file: string;
  profile: P;
}

type Env = Record<string, string | undefined>;

const home = (env: Env) => env.HOME ?? homedir();

/** The folder of the per-simulator profiles. */
export function profilesDir(env: Env = process.env): string {
  return join(home(env), '.scheme-sim', 'profiles');
}

/** A URL without its trailing slashes: the form profiles and commands compare. */
export const normalUrl = (url: string) => url.replace(/\/+$/, '');

/** `http://127.0.0.1:8080` → `127.0.0.1_8080.json`: the simulator's own file name. */
export function profileFileName(url: string): string {
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.hostname.replace(/^\[|\]$/g, '').replace(/[^A-Za-z0-9.-]/g, '_')}_${port}.json`;
}

/** Where the simulator at `url` writes its profile: SCHEME_SIM_PROFILE, else its own file. */
export function profileFileFor(url: string, env: Env = process.env): string {
  return env.SCHEME_SIM_PROFILE || join(profilesDir(env), profileFileName(url));
}

/** A profile file's content, or undefined when it is missing or not a profile. */
export function readProfileFile(file: string): Profile | undefined {
  try {
    const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    return p && typeof p.url === 'string' ? p : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote a profile is still running (unknown, without a pid: true). */
export function processAlive(pid: number | undefined): boolean {
  if (pid === undefined) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Writes the simulator's profile to its own file. Refused (answers the reason) when the file holds
 * another simulator's profile whose process still runs: a shared SCHEME_SIM_PROFILE is not taken
 * over from a live simulator.
 */
export function writeProfile(profile: Profile, env: Env = process.env): { file: string; refused?: string } {
  const file = profileFileFor(profile.url, env);
  const there = readProfileFile(file);
  if (
    there &&
    normalUrl(there.url) !== normalUrl(profile.url) &&
    there.pid !== profile.pid &&
    there.pid !== undefined &&
    processAlive(there.pid)
  )
    return { file, refused: `${shortPath(file, env)} is the profile of the running simulator at ${there.url}` };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  return { file };
}

/** Every profile in the profiles folder, newest first. */
export function listProfiles(env: Env = process.env): ProfileFile[] {
  const dir = profilesDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const found: ProfileFile[] = [];
  for (const name of names) {
    const profile = readProfileFile(join(dir, name));
    if (profile) found.push({ file: join(dir, name), profile });
  }
  return found.sort((a, b) => (b.profile.started_at ?? '').localeCompare(a.profile.started_at ?? ''));
}

/**
 * The profile the simulator at `url` wrote, if any (SCHEME_SIM_PROFILE's file, else its own). A
 * profile whose process has gone is none: a simulator that died leaves its file, and another now
 * listening on the same port (one the CLI did not start) must not be lent the dead one's client.
 */
export function profileOf(url: string, env: Env = process.env): ProfileFile | undefined {
  let file: string;
  try {
    file = profileFileFor(url, env);
  } catch {
    return undefined;
  }
  const profile = readProfileFile(file);
  return profile && normalUrl(profile.url) === normalUrl(url) && processAlive(profile.pid)
    ? { file, profile }
    : undefined;
}

/** Whether `dir` is `cwd` or one of its ancestors. */
const contains = (dir: string, cwd: string) => {
  const rel = relative(dir, cwd);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
};

/** Newest first as given, the profiles whose process still runs ahead of those whose process has gone. */
const liveFirst = (profiles: ProfileFile[]): ProfileFile[] => {
  const live = profiles.filter((p) => processAlive(p.profile.pid));
  return [...live, ...profiles.filter((p) => !live.includes(p))];
};

/**
 * The profile a command uses when neither --url nor SCHEME_SIM_URL names a simulator:
 * SCHEME_SIM_PROFILE's file; else the newest profile started in the working directory (or a
 * folder above it); else the newest profile. Within each, a profile whose simulator's process has
 * gone never shadows a live one (two simulators started in one folder, the newer stopped: the
 * older is used). One started here, even stopped, still comes before another folder's: the command
 * then says it is stale rather than talk to another project's simulator. `why` says how it was
 * chosen, for the target line.
 */
export function chosenProfile(
  env: Env = process.env,
  cwd = process.cwd(),
): (ProfileFile & { why: string; others: ProfileFile[] }) | undefined {
  if (env.SCHEME_SIM_PROFILE) {
    const profile = readProfileFile(env.SCHEME_SIM_PROFILE);
    return profile ? { file: env.SCHEME_SIM_PROFILE, profile, why: 'SCHEME_SIM_PROFILE', others: [] } : undefined;
  }
  const all = listProfiles(env);
  if (all.length === 0) return undefined;
  const local = liveFirst(all.filter((p) => p.profile.cwd !== undefined && contains(p.profile.cwd, cwd)));
  const pick = local[0] ?? liveFirst(all)[0]!;
  const others = all.filter((p) => p !== pick);
  const why = local[0]
    ? 'started in this directory'
    : others.length === 0
      ? 'the only one'
      : pick === all[0]
        ? `the newest of ${all.length}`
        : `the newest running of ${all.length}`;
  return { ...pick, why, others };
}

/** Removes the profiles whose simulator has stopped (nothing listens); answers their files. */
export async function pruneProfiles(
  listening: (url: string) => Promise<boolean>,
  env: Env = process.env,
): Promise<string[]> {
  const gone: string[] = [];
  for (const p of listProfiles(env)) {
    if (await listening(p.profile.url)) continue;
    rmSync(p.file, { force: true });
    gone.push(p.file);
  }
  return gone;
}

/** `/home/me/.scheme-sim/…` → `~/.scheme-sim/…`: the form messages print. */
export function shortPath(file: string, env: Env = process.env): string {
  const h = home(env);
  return file.startsWith(`${h}${sep}`) ? `~${file.slice(h.length)}` : file;
}

/**
 * What `scheme-sim sandbox create` keeps of a sandbox, so `--sandbox ID` (or SCHEME_SIM_SANDBOX)
 * finds it later: the simulator it lives on and, when that simulator checks credentials, its first
 * (admin) client. One file per sandbox, ~/.scheme-sim/sandboxes/ID.json: apart from the
 * simulators' profiles, so a sandbox is never taken for a simulator.
 */
export interface SandboxProfile {
  id: string;
  /** The simulator's base URL (without the sandbox's path prefix). */
  url: string;
  /** Absent when the simulator runs with --auth off: the sandbox is then reached by its path prefix. */
  client_id?: string;
  client_secret?: string;
  organisation_id?: string;
  expires_at?: string;
  created_at?: string;
}

/** The folder of the sandboxes' profiles. */
export function sandboxesDir(env: Env = process.env): string {
  return join(home(env), '.scheme-sim', 'sandboxes');
}

/** A sandbox id as a file name: ids are UUIDs, anything else is refused before it is a path. */
function sandboxFile(id: string, env: Env): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id)) throw new Error(`not a sandbox id: '${id}'`);
  return join(sandboxesDir(env), `${id}.json`);
}

/** Writes a sandbox's profile (mode 0600: it may hold a client secret); answers its file. */
export function writeSandboxProfile(profile: SandboxProfile, env: Env = process.env): string {
  const file = sandboxFile(profile.id, env);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/** The saved profile of a sandbox, or undefined when there is none (or the id is no id). */
export function readSandboxProfile(id: string, env: Env = process.env): ProfileFile<SandboxProfile> | undefined {
  let file: string;
  try {
    file = sandboxFile(id, env);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as SandboxProfile;
    return profile && profile.id === id && typeof profile.url === 'string' ? { file, profile } : undefined;
  } catch {
    return undefined;
  }
}

/** Removes a sandbox's saved profile; answers its file, or undefined when there was none. */
export function removeSandboxProfile(id: string, env: Env = process.env): string | undefined {
  const saved = readSandboxProfile(id, env);
  if (!saved) return undefined;
  rmSync(saved.file, { force: true });
  return saved.file;
}
