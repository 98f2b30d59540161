import { describe, expect, it } from 'vitest';
import { commandsOf, shBlocksOf } from './doc-blocks.ts';

describe('commandsOf', () => {
  it('splits at newlines outside quotes, $( ) and continuations, and reads status and output comments', () => {
    const text = [
      'TOKEN=$(curl -s -u a:b $SIM/token \\', // 1
      "  | node -pe 'x')", // 2
      'curl -s -X POST $SIM/x -d \'{"a": 1,', // 3
      '  "b": "#not a comment"}\'   # 201: made', // 4
      '# {"data":{…}}', // 5
      '', // 6
      'echo "a # b"   # no status here', // 7
    ].join('\n');
    expect(commandsOf(text, 10)).toEqual([
      { text: "TOKEN=$(curl -s -u a:b $SIM/token \\\n  | node -pe 'x')", line: 10 },
      {
        text: 'curl -s -X POST $SIM/x -d \'{"a": 1,\n  "b": "#not a comment"}\'',
        line: 12,
        status: 201,
        output: '{"data":{…}}',
      },
      { text: 'echo "a # b"', line: 16 },
    ]);
  });
});

describe('shBlocksOf', () => {
  it('pairs a block with its marker and with the output fence right after it', () => {
    const page = [
      '<!-- docs-check: skip: needs a staging environment to talk to -->',
      '```sh',
      'npm run conformance:staging',
      '```',
      '',
      '```sh',
      'curl -s $SIM/health',
      '```',
      '',
      '```json',
      '{"status":"ok",…}',
      '```',
      'Prose, then a fence that belongs to nobody:',
      '```',
      'text',
      '```',
    ].join('\n');
    const [skipped, run] = shBlocksOf(page);
    expect(skipped!.skip).toBe('needs a staging environment to talk to');
    expect(skipped!.output).toBeUndefined();
    expect(run!.skip).toBeUndefined();
    expect(run!.commands).toEqual([{ text: 'curl -s $SIM/health', line: 7 }]);
    expect(run!.output).toEqual({ lang: 'json', text: '{"status":"ok",…}', line: 10 });
  });

  it('refuses a marker that is not a skip with its reason', () => {
    expect(() => shBlocksOf('<!-- docs-check: skip: -->\n```sh\nnpm ci\n```\n')).toThrow(/skip: <why/);
    expect(() => shBlocksOf('<!-- docs-check: run twice -->\n```sh\nnpm ci\n```\n')).toThrow(/skip: <why/);
  });
});
