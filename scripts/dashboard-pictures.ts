// The pictures of the dashboard in docs/images: a simulator with the bundled fixtures, a claim
// submitted and settled by its contra (14 working days advanced from the dashboard itself), a
// subscription whose notifications are delivered, an injected report, a name verification
// Northwind asks of its own sort code (both sides shown); then Chromium (as the
// browser tests use it) at 1280×800 and at a phone's width. `npx tsx scripts/dashboard-pictures.ts`
// rewrites docs/images/dashboard-*.png.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { listen } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { launchChromium } from '../test/support/chromium.ts';
import { claimRequest } from '../test/support/claim-requests.ts';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'images');
const NORTHWIND = { id: 'northwind-dev', secret: 'northwind-dev-secret', org: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb' };

const runtime = await createRuntime({
  memory: true,
  clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z'),
  scheduledReports: false,
});
const server = await listen(runtime, 0);
// Where the subscription's notifications go: answers 200.
const receiver = createServer((_req, res) => res.writeHead(200).end());
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/claims`;

const token = (
  (await (
    await fetch(`${server.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${NORTHWIND.id}:${NORTHWIND.secret}`).toString('base64')}` },
    })
  ).json()) as { access_token: string }
).access_token;
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: { id: string } }>;
};

for (const record_type of ['claim_submissions', 'payment_admissions'])
  await call('POST', '/v1/notification/subscriptions', {
    data: {
      id: randomUUID(),
      organisation_id: NORTHWIND.org,
      attributes: { record_type, event_type: 'updated', callback_transport: 'http', callback_uri: hook },
    },
  });
for (const reference of ['DDICNW00017', 'DDICNW00018']) {
  const claim = await call('POST', '/v1/transaction/claims', claimRequest(NORTHWIND.org, { reference }));
  await call('POST', `/v1/transaction/claims/${claim.data.id}/submissions`, {
    data: { id: randomUUID(), organisation_id: NORTHWIND.org, type: 'claim_submissions' },
  });
}
await call('POST', '/v1/simulator/reports', { report_type: 'BACS_ARUDD' });
// Northwind asks about an account of its own sort code: it holds both sides, asked and received.
const [own] = (
  (await call('GET', '/v1/organisation/accounts?filter[bank_id]=400300&page[size]=1')) as unknown as {
    data: Array<{ attributes: { account_number: string; name: string[] } }>;
  }
).data;
if (own)
  await call('POST', '/v1/organisation/nameverifications', {
    data: {
      id: randomUUID(),
      organisation_id: NORTHWIND.org,
      attributes: {
        account_number: own.attributes.account_number,
        account_number_code: 'BBAN',
        bank_id: '400300',
        bank_id_code: 'GBDSC',
        name: own.attributes.name,
      },
    },
  });

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/dashboard`);
  await page.locator('#dev-hint').waitFor();
  await page.screenshot({ path: join(OUT, 'dashboard-sign-in.png') });
  await page.click('#use-dev');
  await page.click('#sign-in');
  await page.locator('#clock-now time').waitFor();
  await page.fill('#advance-days', '14');
  await page.click('#advance');
  await page.locator('.contra').first().waitFor({ timeout: 30_000 });
  // The deliveries the settlement caused, attempted before the picture.
  await runtime.delivery.runDue();
  await page.click('#refresh');
  await page.locator('#deliveries table').waitFor();
  await page.screenshot({ path: join(OUT, 'dashboard-settled.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(OUT, 'dashboard-phone.png') });
  console.log(
    `wrote ${['dashboard-sign-in', 'dashboard-settled', 'dashboard-phone'].map((n) => `docs/images/${n}.png`).join(', ')}`,
  );
} finally {
  await browser.close();
  await server.close();
  receiver.close();
}
