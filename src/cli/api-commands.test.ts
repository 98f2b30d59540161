import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import { openAccount } from '../../test/support/testing.ts';
import { API_COMMANDS, apiCommand } from './api-commands.ts';
import { UsageError } from './cli-errors.ts';

let target: CliTarget;
beforeAll(async () => {
  target = await cliTarget();
});
afterAll(() => target.close());

const run = async (name: string, argv: string[]) => {
  const out: string[] = [];
  await apiCommand(name, argv, (l) => out.push(l), target.env);
  return out;
};

describe('the CLI at par with the API', () => {
  it('calendar: a summary line with the holidays, then the working days', async () => {
    const [summary, ...days] = await run('calendar', ['--from', '2026-12-21', '--to', '2027-01-04']);
    expect(summary).toMatch(
      /^8 Bacs working days from 2026-12-21 to 2027-01-04; holidays: 2026-12-25 Christmas Day, 2026-12-28 Boxing Day/,
    );
    expect(days).toEqual([
      '2026-12-21',
      '2026-12-22',
      '2026-12-23',
      '2026-12-24',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-04',
    ]);
  });

  it('reports inject, requests with a status filter, and --json', async () => {
    const [line] = await run('reports', ['inject', 'BACS_ARUDD']);
    expect(line).toMatch(/^report [0-9a-f-]{36} BACS_ARUDD arrived \(processing date \d{4}-\d{2}-\d{2}\)$/);
    await expect(run('reports', ['inject', 'NO_SUCH_TYPE'])).rejects.toThrow(/^400: .*not in the report catalogue/);
    const [count, ...lines] = await run('requests', ['--status', '4xx']);
    expect(count).toBe(`${lines.length} requests`);
    expect(lines[0]).toMatch(/POST \/v1\/simulator\/reports 400 [\d.]+ms error_code=[0-9a-f-]{36}$/);
    const json = JSON.parse((await run('requests', ['--method', 'POST', '--json'])).join('\n'));
    expect(json.data.length).toBeGreaterThanOrEqual(2);
  });

  it('deliveries, redeliver and reset', async () => {
    await target.rt.call('POST', '/v1/notification/subscriptions', {
      data: {
        id: crypto.randomUUID(),
        organisation_id: target.rt.deps.sim.organisations.list[0]!.id,
        attributes: {
          event_type: 'created',
          record_type: 'accounts',
          callback_transport: 'http',
          callback_uri: 'http://127.0.0.1:9/hook',
        },
      },
    });
    await openAccount(target.rt);
    await target.rt.delivery.runDue();
    const [count, attempt] = await run('deliveries', ['--failed']);
    expect(count).toMatch(/^[1-9]\d* delivery attempts$/);
    const notification = /notification ([0-9a-f-]{36})\)$/.exec(attempt!)![1]!;
    await expect(run('redeliver', [notification])).rejects.toThrow(/^(400|409): /); // still pending retries
    const [reset] = await run('reset', []);
    expect(reset).toMatch(/^organisation [0-9a-f-]{36} reset: \d+ records dropped, \d+ jobs cancelled$/);
  });

  it('refuses usage errors as UsageError (exit 2), each command with its help', async () => {
    await expect(run('redeliver', [])).rejects.toThrow(UsageError);
    await expect(run('calendar', ['--nope'])).rejects.toThrow(UsageError);
    await expect(run('reports', ['list', 'X'])).rejects.toThrow(UsageError);
    // A status filter that matches no status is a mistake, not "0 requests".
    for (const status of ['banana', '4xxx', '600', '40'])
      await expect(run('requests', ['--status', status])).rejects.toThrow(UsageError);
    expect((await run('requests', ['--status', '4XX']))[0]).toMatch(/^\d+ requests$/);
    for (const [name, cmd] of Object.entries(API_COMMANDS)) {
      expect(await run(name, ['--help'])).toEqual([cmd.help]);
      expect(cmd.help).toContain('--json');
    }
  });
});
