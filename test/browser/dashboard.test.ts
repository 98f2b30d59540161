import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SchemeClock } from '../../src/clock/scheme-clock.ts';
import { HARBOUR, NORTHWIND, TEST_START, type TestRuntime, testRuntime } from '../../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../../src/node/server.ts';
import { createRuntime } from '../../src/runtime.ts';
import { launchChromium } from '../support/chromium.ts';
import { createClaimVia, submitVia } from '../support/claim-requests.ts';
import { registerPayee } from '../support/name-verification-requests.ts';
import { accountBody, newSandbox } from '../support/sandbox-client.ts';

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

  it("asks a name verification and shows the payee bank's answer, then the admission as the payee's bank", async () => {
    await registerPayee(rt, HARBOUR, { account_number: '27182818', name: ['Grace Hopper'] });
    page = await browser.newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.fill('#client-id', NORTHWIND.client_id);
    await page.fill('#client-secret', NORTHWIND.client_secret);
    await page.click('#sign-in');
    await page.locator('#name-verifications p').waitFor();
    await page.fill('#nv-sort-code', '309634');
    await page.fill('#nv-account', '27182818');
    await page.fill('#nv-name', 'Grace Hoper');
    await page.click('#nv-ask');
    const answer = page.locator('#name-verifications .answer', { hasText: 'MBAM' });
    await answer.waitFor({ timeout: 15_000 });
    expect(await answer.textContent()).toBe(
      'rejected MBAM (the name is a close match to the account name): Grace Hopper',
    );
    const asked = page.locator('#name-verifications li', { has: page.locator('.answer', { hasText: 'MBAM' }) });
    expect(await asked.getAttribute('data-side')).toBe('asked');
    expect(await asked.locator('.side').textContent()).toBe('asked');

    const payee = await browser.newPage();
    try {
      await payee.goto(`${server.url}/dashboard`);
      await payee.fill('#client-id', HARBOUR.client_id);
      await payee.fill('#client-secret', HARBOUR.client_secret);
      await payee.click('#sign-in');
      const received = payee.locator('#name-verifications li', { hasText: 'from Northwind Bank plc' });
      await received.waitFor({ timeout: 15_000 });
      expect(await received.textContent()).toContain(
        'received payee bank\'s side 309634 27182818 "Grace Hoper": from Northwind Bank plc, answered rejected MBAM',
      );
      expect(await received.getAttribute('data-side')).toBe('received');
      // Northwind holds the other side: nothing here to link it to.
      expect(await received.locator('a.exchange').count()).toBe(0);
    } finally {
      await payee.close();
    }
  }, 60_000);

  it('labels both sides of a name verification its organisation asked of itself, each linking to the other', async () => {
    await registerPayee(rt, NORTHWIND, { account_number: '16180339', name: ['Alan Turing'] });
    await signedIn();
    await page.locator('#name-verifications p, #name-verifications ul').first().waitFor();
    await page.fill('#nv-sort-code', NORTHWIND.bank.bank_id);
    await page.fill('#nv-account', '16180339');
    await page.fill('#nv-name', 'Alan Turing');
    await page.click('#nv-ask');
    const sides = page.locator('#name-verifications li', { hasText: '16180339' });
    await sides.nth(1).waitFor({ timeout: 15_000 });
    // Newest first: the payee bank's side was written after the request it answers.
    const [received, asked] = [sides.nth(0), sides.nth(1)];
    expect(await received.locator('.side').textContent()).toBe('received');
    expect(await asked.locator('.side').textContent()).toBe('asked');
    expect(await asked.textContent()).toContain(
      `asked requester's side ${NORTHWIND.bank.bank_id} 16180339 "Alan Turing": answer confirmed its received side`,
    );
    expect(await received.textContent()).toContain(
      `received payee bank's side ${NORTHWIND.bank.bank_id} 16180339 "Alan Turing": from Northwind Bank plc, answered confirmed its asked side`,
    );
    const askedId = await asked.getAttribute('data-name-verification');
    const receivedId = await received.getAttribute('data-name-verification');
    expect(await received.getAttribute('data-exchange')).toBe(askedId);
    expect(await asked.getAttribute('data-exchange')).toBe(askedId);
    expect(await asked.locator('a.exchange').getAttribute('href')).toBe(`#nv-${receivedId}`);
    await received.locator('a.exchange').click();
    expect(new URL(page.url()).hash).toBe(`#nv-${askedId}`);
    expect(await asked.evaluate((li) => li.matches(':target'))).toBe(true);
  }, 60_000);

  it('lists the accounts newest first, ten a page, with their names, sort code, number, organisation and created time', async () => {
    for (let i = 0; i < 11; i++) {
      const res = await rt.call(
        'POST',
        '/v1/organisation/accounts',
        accountBody(NORTHWIND.organisation_id, `Holder ${i}`, String(55_500_000 + i)),
      );
      expect(res.status).toBe(201);
    }
    const all = (await (await rt.call('GET', '/v1/organisation/accounts?page[size]=1000')).json()).data as Array<{
      id: string;
    }>;
    const newestFirst = all.map((a) => a.id).reverse();
    await signedIn();
    const rows = page.locator('#accounts tr.account');
    await rows.first().waitFor();
    const shown = async () => rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.account));
    expect(await shown()).toEqual(newestFirst.slice(0, 10));
    const headings = await page.locator('#accounts th').allTextContents();
    expect(headings).toEqual([
      'id',
      'name',
      'sort code (bank_id)',
      'account number',
      'organisation',
      'created (scheme time)',
    ]);
    const cells = await rows.first().locator('td').allTextContents();
    const newest = all[all.length - 1] as any;
    expect(cells).toEqual([
      newest.id,
      'Holder 10',
      '400300 GBDSC',
      newest.attributes.account_number,
      NORTHWIND.organisation_id,
      newest.created_on,
    ]);
    expect(await page.locator('#accounts-newer').isDisabled()).toBe(true);
    await page.click('#accounts-older');
    await page.locator('#accounts-page', { hasText: 'page 2' }).waitFor();
    expect((await shown())[0]).toBe(newestFirst[10]);
    await page.click('#accounts-newer');
    await page.locator('#accounts-page', { hasText: 'page 1' }).waitFor();
    expect((await shown())[0]).toBe(newestFirst[0]);
  }, 60_000);

  it('shows each request at its wall time and its scheme time, under headings that say which', async () => {
    await signedIn();
    await page.fill('#advance-days', '1');
    await page.click('#advance');
    await page.locator('#requests', { hasText: '/v1/simulator/clock/advance' }).waitFor();
    await page.click('#freeze');
    const row = page.locator('#requests tr', { hasText: 'POST /v1/simulator/clock/freeze' }).first();
    await row.waitFor();
    // The freeze arrived after the advance: its scheme time is the advanced clock's, its wall time the machine's.
    const scheme = rt.sim.clock.now().toISOString();
    const wall = rt.wall.now().toISOString();
    expect(scheme).not.toBe(wall);
    expect(await page.locator('#requests th').allTextContents()).toEqual([
      'wall time',
      'scheme time',
      'request',
      'status',
      'ms',
      'error_code',
    ]);
    expect(await row.locator('td.wall time').getAttribute('datetime')).toBe(wall);
    expect(await row.locator('td.scheme time').getAttribute('datetime')).toBe(scheme);
  }, 60_000);

  it("signed in as a sandbox's client, shows and moves that sandbox only, and files its claims there", async () => {
    const sandbox = await newSandbox(
      async (path, init) => rt.app.request(path, init),
      { clock: { mode: 'frozen', start: '2027-03-01T09:00:00Z' } },
      await rt.token(),
    );
    const claim = await createClaimVia(rt, { reference: 'DDICDEFAULTWORLD' });
    const sandboxAccount = await (
      await sandbox.call(
        'POST',
        '/v1/organisation/accounts',
        accountBody(sandbox.admin.organisation_id, 'Sandbox Holder', '77777777'),
      )
    ).json();
    const defaultNow = rt.sim.clock.now().toISOString();
    page = await browser.newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.fill('#client-id', sandbox.admin.client_id);
    await page.fill('#client-secret', sandbox.admin.client_secret);
    await page.click('#sign-in');
    await page.locator('#clock-now time').waitFor();
    expect(await page.locator('#clock-now time').getAttribute('datetime')).toBe('2027-03-01T09:00:00.000Z');
    // The default world's claim is not the sandbox's, nor its accounts: the sandbox's own are listed.
    expect(await page.locator(`li.claim[data-claim="${claim.id}"]`).count()).toBe(0);
    const accountIds = async () =>
      page.locator('#accounts tr.account').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.account));
    await page.locator('#accounts tr.account').first().waitFor();
    const sandboxAccounts = (await (await sandbox.call('GET', '/v1/organisation/accounts?page[size]=1000')).json())
      .data as Array<{ id: string }>;
    expect(await accountIds()).toEqual(
      sandboxAccounts
        .map((a) => a.id)
        .reverse()
        .slice(0, 10),
    );
    expect((await accountIds())[0]).toBe(sandboxAccount.data.id);
    expect(await page.locator('#accounts tr.account td').nth(1).textContent()).toBe('Sandbox Holder');
    const defaultAccounts = (await (await rt.call('GET', '/v1/organisation/accounts?page[size]=1000')).json())
      .data as Array<{ id: string }>;
    expect(defaultAccounts.length).toBeGreaterThan(0);
    expect((await accountIds()).some((id) => defaultAccounts.some((a) => a.id === id))).toBe(false);
    await page.fill('#advance-days', '1');
    await page.click('#advance');
    const advanced = page.locator('#requests tr', { hasText: '/v1/simulator/clock/advance' });
    await advanced.waitFor();
    // Its scheme time is the sandbox's clock (as the advance arrived), not the default world's.
    expect(await advanced.locator('td.scheme time').getAttribute('datetime')).toBe('2027-03-01T09:00:00.000Z');
    const sandboxClock = await (await sandbox.call('GET', '/v1/simulator/clock')).json();
    expect(sandboxClock.data.now).toBe('2027-03-02T09:00:00.000Z');
    // Read in process: a request would land in the default world's journal, which a later test reads.
    expect(rt.sim.clock.now().toISOString()).toBe(defaultNow);
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

/** Opens the dashboard signed in as Northwind; answers the page. */
async function signedIn(url = server.url, viewport = { width: 1280, height: 800 }): Promise<Page> {
  page = await browser.newPage({ viewport });
  await page.goto(`${url}/dashboard`);
  await page.fill('#client-id', NORTHWIND.client_id);
  await page.fill('#client-secret', NORTHWIND.client_secret);
  await page.click('#sign-in');
  await page.locator('#clock-now time').waitFor();
  return page;
}

describe('the dashboard, as people use it', () => {
  it('lists reports newest first, ten a page, with an injected one on top and older pages behind', async () => {
    const types = ['BACS_ARUDD', 'BACS_AUDDIS', 'BACS_ADDACS'];
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await rt.call('POST', '/v1/simulator/reports', { report_type: types[i % 3] });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    await signedIn();
    const rows = page.locator('#reports tr.report');
    await rows.first().waitFor();
    const shown = async () => rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.reportId));
    const newestFirst = [...ids].reverse();
    expect((await shown()).slice(0, 10)).toEqual(newestFirst.slice(0, 10));
    expect(await page.locator('#reports-newer').isDisabled()).toBe(true);
    await page.click('#reports-older');
    await page.locator('#reports-page', { hasText: 'page 2' }).waitFor();
    expect((await shown()).slice(0, 2)).toEqual(newestFirst.slice(10, 12));
    await page.click('#reports-newer');
    await page.locator('#reports-page', { hasText: 'page 1' }).waitFor();
    expect((await shown())[0]).toBe(newestFirst[0]);
  }, 60_000);

  it('shows the journal without its own polling, and a favicon; timestamps stay on one line', async () => {
    await signedIn();
    await page.click('#refresh');
    await page.click('#freeze');
    await page.locator('#requests', { hasText: '/v1/simulator/clock/freeze' }).waitFor();
    const panel = (await page.locator('#requests').textContent()) ?? '';
    // The page's reads (clock, claims, reports, deliveries...) are its own traffic: not listed.
    expect(panel).not.toContain('GET /v1/simulator/clock');
    expect(panel).not.toContain('GET /v1/transaction/claims');
    const journal = (await (await rt.call('GET', '/v1/simulator/requests?filter[own]=true')).json()) as {
      data: Array<{ attributes: { tool?: string; method: string } }>;
    };
    expect(journal.data.length).toBeGreaterThan(0);
    expect(journal.data.every((e) => e.attributes.tool === 'dashboard' && e.attributes.method === 'GET')).toBe(true);
    const icon = await page.evaluate(async () => {
      const res = await fetch('/favicon.ico');
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        link: document.querySelector('link[rel=icon]')?.getAttribute('href'),
      };
    });
    expect(icon).toEqual({ status: 200, type: 'image/svg+xml', link: '/favicon.svg' });
    // At a phone's width: nothing wider than the screen, and an ISO timestamp on one line.
    await page.setViewportSize({ width: 390, height: 844 });
    const layout = await page.evaluate(() => {
      const time = document.querySelector('#requests time') as HTMLElement;
      const line = Number.parseFloat(getComputedStyle(time).lineHeight) || 20;
      // What sticks out, not counting what a card scrolls sideways within itself.
      const wide = Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('.scroll'))
        .map((e) => `${e.tagName}#${e.id}.${e.className}`)
        .slice(0, 5);
      return {
        wide,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        timeHeight: time.getBoundingClientRect().height,
        line,
        text: time.textContent,
      };
    });
    expect(layout.overflow, layout.wide.join(', ')).toBeLessThanOrEqual(0);
    expect(layout.text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(layout.timeHeight).toBeLessThan(layout.line * 1.5);
  }, 60_000);

  it('names the development client in the sign-in when the bundled fixtures are loaded, and not otherwise', async () => {
    page = await browser.newPage();
    await page.goto(`${server.url}/dashboard`);
    // The test runtime loads a clients file of its own: no hint.
    expect(await page.locator('#dev-hint').count()).toBe(0);
    await page.close();
    const bundled = await createRuntime({
      memory: true,
      scheduledReports: false,
      clock: SchemeClock.frozenAt(TEST_START),
    });
    const bundledServer = await listen(bundled, 0);
    try {
      page = await browser.newPage();
      await page.goto(`${bundledServer.url}/dashboard`);
      const hint = page.locator('#dev-hint');
      expect(await hint.textContent()).toContain('northwind-dev');
      await page.click('#use-dev');
      expect(await page.inputValue('#client-id')).toBe('northwind-dev');
      await page.click('#sign-in');
      await page.locator('#clock-now time').waitFor();
      expect(await page.locator('#signin').isHidden()).toBe(true);
    } finally {
      await bundledServer.close();
    }
  }, 60_000);
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
      // The clock is shown before the calendar is read: wait for the calendar's 30th day.
      await page.locator('#calendar li').nth(29).waitFor();
      // A name verification asked as the default organisation, found without a token.
      await page.fill('#nv-sort-code', '400999');
      await page.fill('#nv-account', '12345678');
      await page.fill('#nv-name', 'Ada Lovelace');
      await page.click('#nv-ask');
      await page.locator('#name-verifications .answer', { hasText: 'rejected SCNS' }).waitFor({ timeout: 15_000 });
      // The accounts panel reads the open API too.
      await page.locator('#accounts p, #accounts table').first().waitFor();
      expect(await page.locator('#message').textContent()).toBe('');
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
