// Usage errors that help: a mistyped command or flag gets the nearest one ("did you mean"), by
// edit distance, and each message is the CLI's own words followed by the command's usage.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './cli-errors.ts';

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidates nearest to `word`: within a third of the longer one's length (at least one edit),
 * or beginning with it (three letters or more). Nearest first; ties all kept.
 */
export function nearest(word: string, candidates: readonly string[]): string[] {
  const w = word.toLowerCase();
  let best = Number.POSITIVE_INFINITY;
  let found: string[] = [];
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    const near = d <= Math.max(1, Math.floor(Math.max(w.length, c.length) / 3)) || (w.length >= 3 && c.startsWith(w));
    if (!near) continue;
    if (d < best) [best, found] = [d, [c]];
    else if (d === best) found.push(c);
  }
  return found;
}

/** `; did you mean --working-days?` (or nothing when no candidate is near). */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = nearest(word, candidates);
  return near.length ? `; did you mean ${near.join(' or ')}?` : '';
}

/** A usage error: the message in the CLI's words, then the command's usage. */
export function usageError(message: string, help: string): UsageError {
  return new UsageError(`${message}\n${help}`);
}

/** An unknown subcommand, with the nearest one. */
export function unknownSubcommand(command: string, sub: string, subs: readonly string[], help: string): UsageError {
  return usageError(
    `unknown ${command} command '${sub}'${didYouMean(sub, subs)} (${command} takes ${subs.join(', ')})`,
    help,
  );
}

/** parseArgs' own errors in the CLI's words: the flag, what was wrong, the nearest known flag. */
function explain(err: Error & { code?: string }, options: Record<string, { type: string; short?: string }>): string {
  const flags = Object.keys(options).map((o) => `--${o}`);
  const named = /'(-[^' ]+)/.exec(err.message)?.[1];
  const arg = /'([^']*)'/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const flag = (named ?? arg ?? '').split('=')[0]!;
      return `unknown option ${flag}${didYouMean(flag, flags)}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = named ?? '';
      const name = flag.replace(/^-+/, '');
      const spec = options[name] ?? Object.values(options).find((o) => o.short === name);
      return spec?.type === 'boolean' ? `${flag} takes no value` : `${flag} needs a value`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${arg}': this command takes only options`;
    default:
      return err.message;
  }
}

/** parseArgs with the command's options and its help: a mistake in the command line is a UsageError. */
export function parseCommand<O extends ParseArgsConfig['options']>(
  argv: string[],
  options: O,
  help: string,
  allowPositionals = false,
): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals });
    return { values: values as Record<string, unknown>, positionals };
  } catch (err) {
    throw usageError(explain(err as Error, (options ?? {}) as Record<string, { type: string }>), help);
  }
}

/** `one of --drop, --latency, --status`: refuses a command given none of the flags it needs one of. */
export function needOneOf(values: Record<string, unknown>, flags: readonly string[], what: string, help: string): void {
  if (flags.some((f) => values[f] !== undefined && values[f] !== false)) return;
  throw usageError(`${what} needs one of ${flags.map((f) => `--${f}`).join(', ')}`, help);
}

/** A `--status` filter of the request journal: `404`, or a class such as `4xx` (lower-cased). */
export function statusFilter(value: unknown, help: string): string {
  const s = String(value);
  if (!/^[1-5](\d\d|xx)$/i.test(s)) throw usageError(`--status takes 404 or a class such as 4xx, got '${s}'`, help);
  return s.toLowerCase();
}
