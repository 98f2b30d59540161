import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from './cli-errors.ts';
import { replayCommand } from './replay.ts';

// The replay command's refusals, each before it sends anything. The replays themselves run against
// listening simulators in test/replay-tour.test.ts.

const dir = mkdtempSync(join(tmpdir(), 'replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const recording = join(dir, 'r.jsonl');
writeFileSync(
  recording,
  `${JSON.stringify({ seq: 1, started_at: '', request: { method: 'GET', path: '/health', headers: {} } })}\n`,
);
const env = { SCHEME_SIM_PROFILE: join(dir, 'none.json'), SCHEME_SIM_URL: 'http://127.0.0.1:9' };

describe('scheme-sim replay refuses', () => {
  it('no recording, or two', async () => {
    await expect(replayCommand([], env)).rejects.toThrow(UsageError);
    await expect(replayCommand([recording, recording], env)).rejects.toThrow(/replay takes one recording/);
  });

  it('a recording that is not there or not one', async () => {
    await expect(replayCommand([join(dir, 'nowhere.jsonl')], env)).rejects.toThrow(/no recording at .*nowhere\.jsonl/);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '[1]\n');
    await expect(replayCommand([bad], env)).rejects.toThrow(/bad\.jsonl:1: not an exchange/);
  });

  it('a --client mapping of the wrong form, and an allow-list line that is not three words', async () => {
    await expect(replayCommand([recording, '--client', 'northwind-dev'], env)).rejects.toThrow(
      /--client must be RECORDED_ID=ID:SECRET, got 'northwind-dev'/,
    );
    const allow = join(dir, 'allow.txt');
    writeFileSync(allow, '# fine\nGET /v1/x status\nGET /v1/x\n');
    await expect(replayCommand([recording, '--allow', allow], env)).rejects.toThrow(
      /'GET \/v1\/x' must be METHOD PATH JSON-PATH/,
    );
  });

  it('a baseline that is not a run report', async () => {
    const baseline = join(dir, 'baseline.json');
    writeFileSync(baseline, 'nope');
    await expect(replayCommand([recording, '--baseline', baseline], env)).rejects.toThrow(
      /--baseline .* is not a run report/,
    );
  });
});

describe('scheme-sim replay against a target that does not answer', () => {
  it('names the exchange that got no answer, and leaves an event stream out, saying why', async () => {
    const file = join(dir, 'stream.jsonl');
    const exchange = (seq: number, path: string, type: string) => ({
      seq,
      started_at: '',
      request: { method: 'GET', path, headers: {} },
      response: {
        status: 200,
        headers: { 'content-type': type },
        body: type === 'application/json' ? '{}' : 'event: ready\n\n',
      },
    });
    writeFileSync(
      file,
      [exchange(1, '/v1/simulator/stream', 'text/event-stream'), exchange(2, '/health', 'application/json')]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    // A port nothing listens on any more: the connection is refused.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const lines: string[] = [];
    const code = await replayCommand(
      [file, '--report', join(dir, 'report.json')],
      { ...env, SCHEME_SIM_URL: `http://127.0.0.1:${port}` },
      (l) => lines.push(l),
    );
    expect(code).toBe(1);
    const out = lines.join('\n');
    expect(out).toContain(
      'Not replayed (1): #1 GET /v1/simulator/stream: an event stream: it ends when its client leaves',
    );
    expect(out).toMatch(/#2 GET \/health +status \(status\) +200 +"0 \(no answer: ECONNREFUSED\)"/);
  });
});
