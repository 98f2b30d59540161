// `scheme-sim profiles`: the simulators the CLI knows of (one profile each), which one a command
// would use here, which are stale (nothing listens any more); --prune removes the stale ones.
import { listening } from './connection.ts';
import { chosenProfile, listProfiles, profilesDir, pruneProfiles, shortPath } from './profile.ts';
import { parseCommand } from './usage.ts';

export const PROFILES_HELP = `Usage: scheme-sim profiles [--prune] [--json]

The profiles running simulators wrote (~/.scheme-sim/profiles/, one per host and port): each one's
URL, whether anything still listens there, and (marked *) the one a command run here uses when
neither --url nor SCHEME_SIM_URL names a simulator: SCHEME_SIM_PROFILE's file if set, else the
newest started in this directory or a folder above it, else the newest (in each, a running
simulator's before a stopped one's).
  --prune       remove the stale profiles (nothing listens at their URL)
  --json        the profiles as JSON
  -h, --help    this help`;

type Env = Record<string, string | undefined>;

/** Runs `scheme-sim profiles`. */
export async function profilesCommand(
  argv: string[],
  out: (line: string) => void = console.log,
  env: Env = process.env,
  cwd = process.cwd(),
): Promise<void> {
  const { values } = parseCommand(
    argv,
    {
      prune: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    PROFILES_HELP,
  );
  if (values.help) return void out(PROFILES_HELP);
  if (values.prune) {
    const gone = await pruneProfiles((url) => listening(url), env);
    if (values.json) return void out(JSON.stringify({ removed: gone }, null, 2));
    out(gone.length ? `removed ${gone.length} stale: ${gone.map((f) => shortPath(f, env)).join(', ')}` : 'none stale');
    return;
  }
  const chosen = chosenProfile(env, cwd);
  const all = env.SCHEME_SIM_PROFILE && chosen ? [chosen] : listProfiles(env);
  const rows = await Promise.all(
    all.map(async (p) => ({
      file: p.file,
      url: p.profile.url,
      live: await listening(p.profile.url),
      used: chosen?.file === p.file,
      ...(p.profile.pid !== undefined ? { pid: p.profile.pid } : {}),
      ...(p.profile.cwd !== undefined ? { cwd: p.profile.cwd } : {}),
      ...(p.profile.started_at !== undefined ? { started_at: p.profile.started_at } : {}),
    })),
  );
  if (values.json) return void out(JSON.stringify(rows, null, 2));
  if (rows.length === 0)
    return void out(
      `no profiles in ${shortPath(profilesDir(env), env)}${env.SCHEME_SIM_PROFILE ? ` or ${env.SCHEME_SIM_PROFILE}` : ''}: commands use --url, SCHEME_SIM_URL or http://127.0.0.1:8080`,
    );
  for (const r of rows)
    out(
      `${r.used ? '*' : ' '} ${r.url} ${r.live ? 'live ' : 'stale'} ${shortPath(r.file, env)}${r.started_at ? ` (started ${r.started_at}${r.cwd ? ` in ${r.cwd}` : ''})` : ''}`,
    );
  if (rows.some((r) => !r.live)) out('stale: nothing listens there; scheme-sim profiles --prune removes them');
}
