import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClaimVia, submitVia } from '../../test/support/claim-requests.ts';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import type { TestRuntime } from '../harness/test-runtime.ts';
import { CliError, UsageError } from './cli-errors.ts';
import { parametersOf, TRIGGER_HELP, triggerCommand } from './trigger.ts';

let target: CliTarget;
let rt: TestRuntime;
let env: Record<string, string>;
beforeAll(async () => {
  target = await cliTarget();
  ({ rt, env } = target);
});
afterAll(() => target.close());

const run = async (argv: string[]) => {
  const out: string[] = [];
  await triggerCommand(argv, (l) => out.push(l), env);
  return out;
};

describe('scheme-sim trigger', () => {
  it('lists the catalogue and plays a scenario at a submission, with parameters', async () => {
    const list = await run(['--list']);
    expect(list).toHaveLength(9);
    expect(list[2]).toMatch(/^claim\.contra_delayed \(target: claim_submissions\): /);
    const claim = await createClaimVia(rt);
    const sub = await submitVia(rt, claim.id);
    const [line] = await run(['claim.contra_delayed', '--target', sub.id, '--param', 'working_days=3']);
    expect(line).toMatch(/^scenario [0-9a-f-]{36} claim\.contra_delayed pending$/);
    const json = JSON.parse((await run(['report.emitted', '--param', 'report_type=BACS_ARUDD', '--json'])).join('\n'));
    expect(json.data.attributes).toMatchObject({ name: 'report.emitted', status: 'applied' });
  });

  it('reads parameters as key=value, whole numbers as numbers', () => {
    expect(parametersOf(['working_days=2', 'reason=SU closed'])).toEqual({ working_days: 2, reason: 'SU closed' });
    expect(() => parametersOf(['reason'])).toThrow(CliError);
  });

  it('refuses no scenario or a mistyped one as a usage error, and names what the server refused', async () => {
    expect(await run(['--help'])).toEqual([TRIGGER_HELP]);
    await expect(run([])).rejects.toThrow(UsageError);
    await expect(run([])).rejects.toThrow(/^trigger needs a scenario name .*\nUsage: scheme-sim trigger/);
    await expect(run(['report.emited'])).rejects.toThrow(UsageError);
    await expect(run(['report.emited'])).rejects.toThrow('did you mean report.emitted?');
    expect(
      await rt.call('GET', '/v1/simulator/scenarios/played?filter[name]=report.emited').then((r) => r.json()),
    ).toMatchObject({ data: [] });
    await expect(run(['claim.contra_withheld'])).rejects.toThrow(/400: [\s\S]*target_id is required/);
    await expect(run(['a', 'b'])).rejects.toThrow(/one scenario/);
    await expect(run(['--nope'])).rejects.toThrow(CliError);
  });
});
