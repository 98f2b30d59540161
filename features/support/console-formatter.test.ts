import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The console formatter (cucumber.mjs's first format) on a run with two failing scenarios: the
// exchange of each failure is printed once, from the step's message or, when the message has none,
// the scenario's last exchange.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'console-formatter-'));
  writeFileSync(
    join(dir, 'probe.feature'),
    `@accounts
Feature: The console formatter's probe

  Scenario: A status other than the one expected
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/organisation/accounts?page[size]=1"
    Then the response status is 418

  Scenario: A step that fails with a message of its own
    Given I am authenticated as "northwind"
    And the known CoP account is registered
    When I verify the known CoP account with "a name nobody asks with"
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the console formatter', () => {
  it('prints each failure with its exchange once', async () => {
    const out = await new Promise<string>((done) =>
      execFile(
        process.execPath,
        [CUCUMBER, '--config', relative(dir, join(ROOT, 'cucumber.mjs')), join(dir, 'probe.feature')],
        { cwd: dir, env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 },
        (_err, stdout, stderr) => done(stdout + stderr),
      ),
    );
    expect(out).toContain('Failures:');
    const count = (s: string) => out.split(s).length - 1;
    // The first: the step's own message carries the exchange; it is not printed again.
    expect(count('expected status 418, got 200')).toBe(1);
    expect(count('GET http://scheme-sim.test/v1/organisation/accounts?page[size]=1')).toBe(1);
    // The second: the step's message has none; the scenario's last exchange follows it, once.
    expect(count('ask with one of:')).toBe(1);
    expect(count('--- last exchange ---')).toBe(1);
    expect(out).toMatch(/--- last exchange ---\n\s+POST http:\/\/scheme-sim\.test\/v1\/organisation\/accounts\n/);
    expect(out).toContain('2 scenarios (2 failed)');
  }, 150_000);
});
