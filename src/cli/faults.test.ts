import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import type { TestRuntime } from '../harness/test-runtime.ts';
import { CliError } from './cli-errors.ts';
import { FAULTS_HELP, faultsCommand } from './faults.ts';

let target: CliTarget;
let rt: TestRuntime;
let server: CliTarget['server'];
let env: Record<string, string>;
beforeAll(async () => {
  target = await cliTarget();
  ({ rt, server, env } = target);
});
afterAll(() => target.close());

const run = async (argv: string[]) => {
  const out: string[] = [];
  await faultsCommand(argv, (l) => out.push(l), env);
  return out;
};

describe('scheme-sim faults', () => {
  it('sets a rule, lists it, sees it answer, and clears it', async () => {
    const [set] = await run([
      'set',
      '--route',
      '/v1/organisation/accounts',
      '--method',
      'get',
      '--status',
      '503',
      '--retry-after',
      '1',
      '--count',
      '1',
    ]);
    const id = set!.split(' ')[0]!;
    expect(set).toContain('"status":503');
    const token = await rt.token();
    const res = await fetch(`${server.url}/v1/organisation/accounts`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(503);
    expect((await run(['list']))[0]).toContain('"injected":1');
    expect(await run(['clear', '--id', id])).toEqual([`fault ${id} removed`]);
    expect(await run(['list'])).toEqual(['no faults']);
  });

  it('names what is wrong: no route, a bad number, a rule the server refuses, an unknown command', async () => {
    await expect(run(['set', '--status', '503'])).rejects.toThrow('faults set needs --route');
    await expect(run(['set', '--route', '/v1/**', '--latency', 'soon'])).rejects.toThrow(
      "--latency must be a number, got 'soon'",
    );
    await expect(run(['set', '--route', '/v1/**', '--status', '404'])).rejects.toThrow('400: validation failure list:');
    await expect(run(['boom'])).rejects.toThrow(CliError);
    expect(await run(['--help'])).toEqual([FAULTS_HELP]);
  });
});
