// The options of `conformance --generate`, checked before anything starts: what the harness's
// process is handed, and the refusals of what makes no sense.
import { describe, expect, it } from 'vitest';
import { generateSettings } from './conformance-generate.ts';

describe('conformance --generate options', () => {
  it('hands the run its cases, seed, operation and target', () => {
    expect(
      generateSettings([
        '--generate',
        '--cases',
        '2000',
        '--seed',
        '7',
        '--operation',
        '^POST',
        '--target',
        'sim',
        '--url',
        'http://h:1',
      ]),
    ).toEqual({
      env: {
        CONFORMANCE_TARGET: 'sim',
        CONFORMANCE_GENERATE_CASES: '2000',
        CONFORMANCE_GENERATE_SEED: '7',
        CONFORMANCE_GENERATE_OPERATION: '^POST',
      },
      target: 'sim',
      url: 'http://h:1',
    });
    expect(generateSettings(['--generate', '--target', 'staging', '--sandbox', 'new']).valueOf()).toMatchObject({
      env: { CONFORMANCE_SANDBOX: 'new', CONFORMANCE_GENERATE_CASES: '200' },
    });
    expect(generateSettings(['--generate', '--help'])).toBe('help');
  });

  it('refuses what makes no sense, naming the option', () => {
    expect(() => generateSettings(['--generate', '--cases', '0'])).toThrow(/--cases must be a whole number/);
    expect(() => generateSettings(['--generate', '--seed', 'x'])).toThrow(/--seed must be an integer/);
    expect(() => generateSettings(['--generate', '--operation', '('])).toThrow(
      /--operation must be a regular expression/,
    );
    expect(() => generateSettings(['--generate', '--target', 'prod'])).toThrow(
      /--target must be inprocess, sim or staging/,
    );
    expect(() => generateSettings(['--generate', '--sandbox', 'new'])).toThrow(
      /--sandbox applies to --target sim or staging/,
    );
    expect(() => generateSettings(['--generate', '--url', 'http://x'])).toThrow(/--url applies to --target sim only/);
    expect(() => generateSettings(['--generate', '--baseline', '/nonexistent/report.json'])).toThrow(/--baseline/);
    expect(() => generateSettings(['--generate', '--differential', 'http://b'])).toThrow(
      /--differential applies to --target sim/,
    );
    expect(() =>
      generateSettings(['--generate', '--target', 'sim', '--sandbox', 'new', '--differential', 'http://b']),
    ).toThrow(/--differential takes the first target's sandbox by id/);
    expect(() => generateSettings(['--generate', '--target', 'sim', '--allow', 'x'])).toThrow(
      /--allow applies to --differential runs only/,
    );
    expect(() =>
      generateSettings(['--generate', '--target', 'sim', '--differential', 'http://b', '--allow', '/nonexistent']),
    ).toThrow(/--allow/);
  });

  it('hands a differential run its second target, which any of its options makes', () => {
    expect(
      generateSettings([
        '--generate',
        '--target',
        'sim',
        '--differential',
        'http://b',
        '--differential-client-id',
        'c',
      ]),
    ).toMatchObject({ differential: { url: 'http://b', clientId: 'c' } });
    expect(
      generateSettings([
        '--generate',
        '--target',
        'sim',
        '--differential-sandbox',
        'sb',
        '--differential-client-secret',
        's',
      ]),
    ).toMatchObject({ differential: { sandbox: 'sb', clientSecret: 's' } });
    expect(generateSettings(['--generate', '--target', 'sim'])).not.toHaveProperty('differential');
  });
});
