import { describe, expect, it } from 'vitest';
import { environmentArgs, START_HELP, START_OPTIONS } from './start.ts';

describe('start options from the environment', () => {
  it('reads SCHEME_SIM_<OPTION> for every start option, flags as true/1/on', () => {
    expect(
      environmentArgs({
        SCHEME_SIM_PORT: '9090',
        SCHEME_SIM_MEMORY: 'true',
        SCHEME_SIM_NO_SEED: '0',
        SCHEME_SIM_CLOCK_START: '2026-12-21T09:00:00Z',
        SCHEME_SIM_JOURNAL_SIZE: '50',
        OTHER: 'x',
      }),
    ).toEqual(['--port', '9090', '--memory', '--clock-start', '2026-12-21T09:00:00Z', '--journal-size', '50']);
  });

  it('turns SCHEME_SIM_LOG=debug into the request log at debug level', () => {
    expect(environmentArgs({ SCHEME_SIM_LOG: 'debug' })).toEqual(['--log-requests', '--log-level', 'debug']);
  });

  it('documents every option in the help', () => {
    for (const name of Object.keys(START_OPTIONS)) expect(START_HELP).toContain(`--${name}`);
    expect(START_HELP).toContain('SCHEME_SIM_<OPTION>');
  });
});
