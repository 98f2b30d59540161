import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.ts';

// The cucumber report a QA engineer opens after a failed run must show what went wrong: the
// failing step's request and response, as the harness attaches them. Checked in a real Chromium
// on a run with one deliberately failing scenario in a temporary feature.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let dir: string;
let browser: Browser;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cucumber-report-'));
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runFailingFeature(): Promise<{ report: string; code: number; out: string }> {
  const feature = join(dir, 'deliberate-failure.feature');
  writeFileSync(
    feature,
    `Feature: A deliberate failure
  Scenario: An account that does not exist is expected to be there
    Given I am authenticated as "northwind"
    And a new id remembered as "missing_id"
    When I send a GET request to "/v1/organisation/accounts/{{missing_id}}"
    Then the response status is 200
`,
  );
  const report = join(dir, 'cucumber.html');
  // A config of its own: the harness's support code and steps, this one feature, a report of its own
  // (the project's reports/ is left alone). Cucumber resolves --config from the working directory.
  const config = join(dir, 'cucumber.mjs');
  writeFileSync(
    config,
    `export default ${JSON.stringify({
      paths: [feature],
      import: [join(ROOT, 'features/support/**/!(*.test).ts'), join(ROOT, 'features/steps/**/!(*.test).ts')],
      format: [`html:${report}`],
    })};`,
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [CUCUMBER, '--config', relative(ROOT, config)],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: '--import tsx' },
        timeout: 60_000,
      },
    );
    return { report, code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { report, code: e.code, out: e.stdout + e.stderr };
  }
}

describe('reports/cucumber.html in Chromium', () => {
  it('shows the failing step, its expected and actual status, and the request and response it was about', async () => {
    const { report, code, out } = await runFailingFeature();
    expect(code, out).toBe(1);
    const page = await browser.newPage();
    try {
      await page.goto(pathToFileURL(report).href);
      await page.getByText('An account that does not exist is expected to be there').first().waitFor();
      // The failing step's message: expected and actual, then the exchange it is about.
      const failure = page.locator('pre', { hasText: 'expected status 200, got 404' }).first();
      await failure.waitFor({ state: 'visible', timeout: 15_000 });
      const message = await failure.innerText();
      expect(message).toMatch(/GET http:\/\/scheme-sim\.test\/v1\/organisation\/accounts\/[0-9a-f-]{36}/);
      expect(message).toMatch(/HTTP 404/);
      expect(message).toMatch(/"error_message":"record [0-9a-f-]{36} does not exist"/);
      // The request step's own attachment, opened as a reader would, shows the same trace.
      await page.getByText('GET /v1/organisation/accounts/{{missing_id}}').first().click();
      const trace = page.locator('pre', { hasText: 'HTTP 404' }).filter({ hasNotText: 'expected status' }).first();
      await trace.waitFor({ state: 'visible', timeout: 15_000 });
      expect(await trace.innerText()).toMatch(/^GET http:\/\/scheme-sim\.test\/v1\/organisation\/accounts\//);
      // Secrets stay masked in what the report shows.
      const text = await page.locator('body').innerText();
      expect(text).toMatch(/authorization: Bearer \S+…\S+ \(\d+ chars\)/);
      expect(text).not.toMatch(/northwind-dev-secret/);
    } finally {
      await page.close();
    }
  }, 120_000);
});
