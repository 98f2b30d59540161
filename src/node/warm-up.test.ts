import { afterEach, describe, expect, it } from 'vitest';
import { PARTICIPANT_TEST_KEYS } from '../harness/cop-keys.ts';
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime.ts';
import { warmUp } from './warm-up.ts';

const open: Runtime[] = [];
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.close();
});

async function started(options: RuntimeOptions): Promise<Runtime> {
  const rt = await createRuntime(options);
  open.push(rt);
  await rt.warm();
  return rt;
}

describe('warmUp', () => {
  it("takes each path a client's first requests take, on a scratch runtime, leaving the real one as it was", async () => {
    const options: RuntimeOptions = { memory: true, scheduledReports: false };
    const rt = await started(options);
    const accounts = rt.sim.accounts.list(rt.devClient!.organisation_id, {}).length;
    const answers = await warmUp(rt, options, 4);
    expect(answers).toEqual({
      'create 201': 4,
      'fetch 200': 4,
      'list 200': 4,
      'refused create 400': 4,
      'name verification 200': 4,
      'health 200': 4,
    });
    expect(rt.sim.accounts.list(rt.devClient!.organisation_id, {})).toHaveLength(accounts);
    expect(rt.deps.journal?.list(undefined)).toEqual([]);
  });

  it('lends the scratch runtime the keys the real one was given, and warms --auth off too', async () => {
    const options: RuntimeOptions = {
      memory: true,
      auth: 'off',
      seedAccounts: false,
      scheduledReports: false,
      participantSigningKeys: PARTICIPANT_TEST_KEYS,
    };
    const rt = await started(options);
    const answers = await warmUp(rt, options, 2);
    expect(answers['create 201']).toBe(2);
    expect(answers['name verification 200']).toBe(2);
  });
});
