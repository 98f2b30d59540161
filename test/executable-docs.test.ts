// The README's and the tour's `sh` blocks, run in order and as written against a simulator the page
// starts (test/support/doc-runner.ts): each command must exit 0, answer the status its comment
// states (any other 4xx/5xx fails), and print the output the page shows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDoc } from './support/doc-runner.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe.each(['README.md', 'docs/tour.md', 'docs/sandboxes.md', 'docs/conformance.md'])('%s', (page) => {
  it('runs every sh block as written and prints what the page shows', async () => {
    const run = await runDoc(ROOT, join(ROOT, page));
    expect(run.failures).toEqual([]);
    expect(run.ran).toBeGreaterThan(10);
    for (const skipped of run.skipped) expect(skipped.reason.length).toBeGreaterThan(20);
  }, 240_000);
});

describe('the docs check (a test of the test)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-check-page-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const page = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const start = '```sh\nnpm start -- --memory --clock frozen --clock-start 2026-12-21T09:00:00Z\n```\n\n';

  it('passes a page that tells the truth, and fails one wrong status, one wrong field and one failing command', async () => {
    const health = '{"status":"ok","now":"2026-12-21T09:00:00.000Z","clock":"frozen",…}';
    const truthful = page(
      'true.md',
      `${start}\`\`\`sh\ncurl -s http://127.0.0.1:8080/health   # 200\n# ${health}\ncurl -s http://127.0.0.1:8080/v1/organisation/accounts   # 401\n\`\`\`\n`,
    );
    expect((await runDoc(ROOT, truthful)).failures).toEqual([]);

    const wrong = page(
      'wrong.md',
      `${start}\`\`\`sh\ncurl -s http://127.0.0.1:8080/health   # 200\n# ${health.replace('frozen', 'running')}\ncurl -s http://127.0.0.1:8080/v1/organisation/accounts   # 200\nfalse\n\`\`\`\n\n\`\`\`json\n{"status":"ok",…}\n\`\`\`\n`,
    );
    const failures = (await runDoc(ROOT, wrong)).failures;
    expect(failures).toHaveLength(4);
    expect(failures[0]).toMatch(
      /wrong\.md:6: the output the page shows differs: \$\.clock: "frozen" where the page shows "running"/,
    );
    expect(failures[1]).toMatch(/wrong\.md:8: answered 401 where the page states 200/);
    expect(failures[2]).toMatch(/wrong\.md:9: exited 1: false/);
    // The block prints two bodies; the page shows one.
    expect(failures[3]).toMatch(/wrong\.md:12: the output the page shows differs: more output than the page shows/);
  }, 120_000);

  it('fails a 4xx the page does not state, and a command before any npm start', async () => {
    const unstated = page(
      'unstated.md',
      `${start}\`\`\`sh\ncurl -s http://127.0.0.1:8080/v1/organisation/accounts\n\`\`\`\n`,
    );
    expect((await runDoc(ROOT, unstated)).failures).toEqual([
      expect.stringMatching(/unstated\.md:6: answered 401, which the page does not state \(# 401\)/),
    ]);
    const early = page('early.md', '```sh\ncurl -s http://127.0.0.1:8080/health\n```\n');
    expect((await runDoc(ROOT, early)).failures).toEqual([
      expect.stringMatching(/early\.md:2: runs before the page has started a simulator/),
    ]);
  }, 120_000);

  it('refuses a skip marker without its reason', async () => {
    const bare = page('bare.md', '<!-- docs-check: skip -->\n```sh\nnpm ci\n```\n');
    await expect(runDoc(ROOT, bare)).rejects.toThrow(/skip: <why the block cannot run in CI>/);
  });
});
