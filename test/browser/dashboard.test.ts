import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NORTHWIND, type TestRuntime, testRuntime } from '../../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../../src/node/server.ts';
import { launchChromium } from '../support/chromium.ts';
import { createClaimVia, submitVia } from '../support/claim-requests.ts';

// The dashboard and the reference page, opened in a real Chromium (Debian's, installed by .ci/run)
// against a listening simulator. A failing test leaves a screenshot in reports/.

const REPORTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'reports');

let rt: TestRuntime;
let server: RunningServer;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  rt = await testRuntime();
  server = await listen(rt, 0);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rt?.close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    mkdirSync(REPORTS, { recursive: true });
    await page.screenshot({ path: join(REPORTS, `browser-${ctx.task.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  }
  await page?.close();
});

describe('the dashboard in Chromium', () => {
  it('signs in, advances 14 working days, and shows the claim settled by its contra on the timeline', async () => {
    const claim = await createClaimVia(rt, { reference: 'DDICDASHBOARD' });
    await submitVia(rt, claim.id);
    page = await browser.newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.fill('#client-id', NORTHWIND.client_id);
    await page.fill('#client-secret', NORTHWIND.client_secret);
    await page.click('#sign-in');
    const row = page.locator(`li.claim[data-claim="${claim.id}"]`);
    await row.waitFor();
    expect(await row.locator('.status').textContent()).toBe('validation_pending');
    expect(await row.locator('.contra').count()).toBe(0);
    await page.fill('#advance-days', '14');
    await page.click('#advance');
    await row.locator('.contra').waitFor({ timeout: 15_000 });
    expect(await row.locator('.status').textContent()).toBe('delivery_confirmed');
    const [contra] = (await (await rt.call('GET', '/v1/transaction/payments')).json()).data;
    expect(await row.locator('.contra').textContent()).toBe(`contra ${contra.id}`);
    // The request journal panel shows the advance it made.
    await page.locator('#requests', { hasText: '/v1/simulator/clock/advance' }).waitFor();
  }, 60_000);

  it('downloads an arrived report as the PDF and XML the API serves', async () => {
    await rt.call('POST', '/v1/simulator/reports', { report_type: 'BACS_ARUDD' });
    page = await browser.newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.fill('#client-id', NORTHWIND.client_id);
    await page.fill('#client-secret', NORTHWIND.client_secret);
    await page.click('#sign-in');
    for (const [format, magic] of [
      ['pdf', '%PDF'],
      ['xml', '<?xml'],
    ] as const) {
      const button = page.locator(`#reports button[data-format="${format}"]`).first();
      await button.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      const path = await download.path();
      expect(readFileSync(path).subarray(0, magic.length).toString('latin1')).toBe(magic);
      expect(download.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
    }
  }, 60_000);

  it('refuses a wrong secret with the reason, and keeps the panels closed', async () => {
    page = await browser.newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.fill('#client-id', NORTHWIND.client_id);
    await page.fill('#client-secret', 'wrong');
    await page.click('#sign-in');
    await page.locator('#message .error').waitFor();
    expect(await page.locator('#panels').isHidden()).toBe(true);
  }, 30_000);
});

describe('the dashboard with --auth off', () => {
  it('opens straight onto the panels, no sign-in', async () => {
    const open = await testRuntime({ auth: 'off' });
    const openServer = await listen(open, 0);
    try {
      page = await browser.newPage();
      await page.goto(`${openServer.url}/dashboard`);
      await page.locator('#clock-now', { hasText: '2026-12-21T09:00:00.000Z' }).waitFor();
      expect(await page.locator('#signin').isHidden()).toBe(true);
      expect(await page.locator('#calendar li').count()).toBeGreaterThanOrEqual(30);
    } finally {
      await openServer.close();
      await open.close();
    }
  }, 60_000);
});

describe('/docs in Chromium', () => {
  it('renders the reference, with the account create operation', async () => {
    page = await browser.newPage();
    await page.goto(`${server.url}/docs`);
    const create = page.locator('.opblock-post', { hasText: '/v1/organisation/accounts' }).first();
    await create.waitFor({ timeout: 20_000 });
    expect(await create.textContent()).toContain('Create an account');
  }, 60_000);
});
