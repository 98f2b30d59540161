import { describe, expect, it } from 'vitest';
import { UsageError } from './cli-errors.ts';
import { didYouMean, editDistance, nearest, needOneOf, parseCommand } from './usage.ts';

describe('did you mean', () => {
  it('counts edits, a swap of two neighbours as one', () => {
    expect(editDistance('clok', 'clock')).toBe(1);
    expect(editDistance('shwo', 'show')).toBe(1);
    expect(editDistance('--workdays', '--working-days')).toBe(4);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('offers the nearest candidates only, ties together, and nothing far away', () => {
    expect(nearest('clok', ['clock', 'calendar', 'logs'])).toEqual(['clock']);
    expect(nearest('--workdays', ['--working-days', '--days', '--hours', '--to'])).toEqual(['--working-days']);
    expect(nearest('--dya', ['--day', '--dye'])).toEqual(['--day', '--dye']);
    expect(nearest('zzzzzz', ['clock', 'start'])).toEqual([]);
    // A prefix of three letters or more names the command it begins.
    expect(nearest('conf', ['conformance', 'clock'])).toEqual(['conformance']);
    expect(didYouMean('lisen', ['listen', 'logs'])).toBe('; did you mean listen?');
    expect(didYouMean('xyz', ['listen'])).toBe('');
  });
});

describe('parseCommand', () => {
  const options = {
    status: { type: 'string' },
    drop: { type: 'boolean' },
    'working-days': { type: 'string' },
  } as const;
  const first = (argv: string[]) => {
    try {
      parseCommand(argv, options, 'USAGE');
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      const [line, help] = (err as Error).message.split('\n');
      expect(help).toBe('USAGE');
      return line;
    }
    return undefined;
  };

  it('says what is wrong with the command line in its own words, then the usage', () => {
    expect(first(['--workdays', '3'])).toBe('unknown option --workdays; did you mean --working-days?');
    expect(first(['--workdays=3'])).toBe('unknown option --workdays; did you mean --working-days?');
    expect(first(['--status'])).toBe('--status needs a value');
    expect(first(['--drop=yes'])).toBe('--drop takes no value');
    expect(first(['extra'])).toBe("unexpected argument 'extra': this command takes only options");
    expect(first(['--status', '503'])).toBeUndefined();
  });

  it('refuses a command given none of the flags it needs one of', () => {
    expect(() => needOneOf({ drop: false }, ['drop', 'latency'], 'faults set', 'USAGE')).toThrow(
      'faults set needs one of --drop, --latency\nUSAGE',
    );
    expect(() => needOneOf({ latency: '5' }, ['drop', 'latency'], 'faults set', 'USAGE')).not.toThrow();
  });
});
