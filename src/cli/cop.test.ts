import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import { registerPayee } from '../../test/support/name-verification-requests.ts';
import { HARBOUR } from '../harness/test-runtime.ts';
import { UsageError } from './cli-errors.ts';
import { answerLine, COP_HELP, copCommand } from './cop.ts';

let target: CliTarget;
let env: Record<string, string>;
beforeAll(async () => {
  target = await cliTarget();
  env = target.env;
  await registerPayee(target.rt, HARBOUR, { account_number: '31415926', name: ['Grace Hopper'] });
});
afterAll(() => target.close());

const run = async (argv: string[]) => {
  const out: string[] = [];
  await copCommand(
    ['ask', ...argv],
    (l) => out.push(l),
    env,
    () => {},
  );
  return out;
};
const ask = (...more: string[]) => run(['--sort-code', '309634', '--account', '31415926', ...more]);
const ID = '[0-9a-f-]{36}';

describe('scheme-sim cop ask', () => {
  it("prints the payee bank's answer: confirmed, a close match with the held name, or SCNS", async () => {
    expect(await ask('--name', 'Grace Hopper')).toEqual([
      expect.stringMatching(new RegExp(`^name verification ${ID}: confirmed$`)),
    ]);
    expect((await ask('--name', 'Grace', '--name', 'Hoper'))[0]).toMatch(
      / rejected MBAM \(the name is a close match to the account name\): Grace Hopper$/,
    );
    expect((await ask('--name', 'Grace Hopper', '--business'))[0]).toMatch(/ rejected PANM \(/);
    expect((await run(['--sort-code', '400999', '--account', '12345678', '--name', 'X Y']))[0]).toMatch(
      / rejected SCNS \(the sort code is not supported\)$/,
    );
  });

  it('--json prints the name verification with its submission', async () => {
    const json = JSON.parse((await ask('--name', 'Grace Hopper', '--json')).join('\n'));
    expect(json.data.relationships.name_verification_submission.data[0].attributes.answer).toBe('confirmed');
  });

  it('says when no answer came yet (a slow responder on a frozen clock)', async () => {
    await target.rt.call('POST', '/v1/simulator/scenarios', {
      data: {
        attributes: {
          name: 'name_verification.responder_slow',
          parameters: { open_banking_id: '0015800000jf9GgAAI', seconds: 60 },
        },
      },
    });
    let slept = 0;
    const out: string[] = [];
    await copCommand(
      ['ask', '--sort-code', '309634', '--account', '31415926', '--name', 'Grace Hopper', '--wait', '0.5'],
      (l) => out.push(l),
      env,
      () => {},
      async (ms) => {
        slept += ms;
        await new Promise((r) => setTimeout(r, ms));
      },
    );
    expect(out[0]).toMatch(new RegExp(`^name verification ${ID}: no answer yet$`));
    expect(slept).toBeGreaterThan(0);
  });

  it('refuses a command line it cannot send, naming what is missing; the API names what it refuses', async () => {
    await expect(run(['--sort-code', '309634'])).rejects.toThrow(/cop ask needs --account, --name/);
    await expect(run(['--sort-code', '1', '--account', '1', '--name', 'x', '--wait', 'soon'])).rejects.toThrow(
      UsageError,
    );
    await expect(copCommand(['tell'], () => {}, env)).rejects.toThrow(/unknown cop command 'tell'/);
    await expect(run(['--sort-code', '309634', '--account', 'abc', '--name', 'X'])).rejects.toThrow(
      /^400: [\s\S]*account_number in body should match/,
    );
    const help: string[] = [];
    await copCommand([], (l) => help.push(l), env);
    expect(help).toEqual([COP_HELP]);
  });

  it('writes a failed delivery with its reason', () => {
    expect(answerLine({ status: 'delivery_failed', status_reason: 'no answer' })).toBe('delivery_failed: no answer');
  });
});
