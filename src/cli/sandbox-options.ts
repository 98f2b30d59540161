// The start options of sandboxes (docs/sandboxes.md): who may create one and the two limits.
import type { SandboxLimits } from '../sandboxes.ts';

export const SANDBOX_START_OPTIONS = {
  sandboxes: { type: 'string', default: 'admin' },
  'max-sandboxes': { type: 'string' },
  'sandbox-records': { type: 'string' },
} as const;

export const SANDBOX_START_USAGE = `  --sandboxes WHO     who may create sandboxes (POST /v1/simulator/sandboxes): admin (default: an
                      admin client of the default sandbox) or open (anyone, for CI jobs holding no
                      admin secret); with --auth off anyone may (docs/sandboxes.md)
  --max-sandboxes N   live sandboxes at most, counted over every node of a shared double
                      (default 1000)
  --sandbox-records N records one sandbox may hold (default 100000)`;

/** The sandbox limits the options set, or the problem with one of them. */
export function sandboxLimitsFrom(values: {
  sandboxes: string;
  'max-sandboxes'?: string | undefined;
  'sandbox-records'?: string | undefined;
}): { limits: Partial<SandboxLimits> } | { problem: string } {
  const creation = values.sandboxes;
  if (creation !== 'admin' && creation !== 'open')
    return { problem: `--sandboxes must be admin or open, got ${creation}` };
  const limits: Partial<SandboxLimits> = { creation };
  const whole = (flag: string, value: string | undefined, max: number): number | string | undefined => {
    if (value === undefined) return undefined;
    const n = Number(value);
    return Number.isInteger(n) && n >= 1 && n <= max ? n : `${flag} must be a whole number 1–${max}, got ${value}`;
  };
  const max = whole('--max-sandboxes', values['max-sandboxes'], 100_000);
  if (typeof max === 'string') return { problem: max };
  if (max !== undefined) limits.maxSandboxes = max;
  const records = whole('--sandbox-records', values['sandbox-records'], 100_000_000);
  if (typeof records === 'string') return { problem: records };
  if (records !== undefined) limits.recordQuota = records;
  return { limits };
}
