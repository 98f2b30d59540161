import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

let rt: TestRuntime;
let doc: any;
beforeAll(async () => {
  rt = await testRuntime();
  const res = await rt.app.request('/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(() => rt.close());

const operations = (d: any) =>
  Object.entries(d.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
  );

describe('GET /v1/openapi.json', () => {
  it('is served without a token and is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every route the app serves, and nothing else', () => {
    const served = new Set<string>();
    // The browser pages and their files (/, /docs, /dashboard, its icon) are no API operations.
    const page = (path: string) =>
      path === '/' || path.startsWith('/docs') || path === '/dashboard' || path.startsWith('/favicon.');
    for (const r of rt.app.routes) {
      if (r.method === 'ALL' || page(r.path)) continue;
      served.add(`${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    }
    // Name verification and the participants' JWKS are one handler for /v1/participants/* (the
    // Node adapter answers them ahead of Hono): they are in the document, not in app.routes.
    const documented = operations(doc).filter((o) => !o.includes('/v1/participants/'));
    expect([...served].sort()).toEqual(documented.sort());
    expect(operations(doc).filter((o) => o.includes('/v1/participants/'))).toHaveLength(2);
  });

  it('says truly which operations need a token: without one, each asks for a bearer token exactly when it is not open', async () => {
    const wrong: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      const url = path.replace(/\{open_banking_id\}/g, '0015800001041REAAY').replace(/\{[^}]+\}/g, crypto.randomUUID());
      for (const [method, op] of Object.entries(ops)) {
        const res = await rt.app.request(url, { method: method.toUpperCase() });
        const open = Array.isArray(op.security) && op.security.length === 0;
        // The token endpoint answers 401 too, but for HTTP Basic client credentials.
        const bearer = res.status === 401 && /^Bearer/i.test(res.headers.get('www-authenticate') ?? '');
        if (bearer === open) wrong.push(`${method.toUpperCase()} ${path}: ${res.status}, open ${open}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers the documented participant routes (not a 404 route-not-found)', async () => {
    const res = await rt.app.request('/v1/participants/nonexistent/jwks.json');
    expect((await res.text()).includes('route GET')).toBe(false);
  });

  it("uses Form3's field names, patterns and enums for accounts, subscriptions, claims, payments and reports", () => {
    const s = doc.components.schemas;
    const claim = s.claim.$defs.attributes.properties;
    expect(claim.reason_code.pattern).toBe('^[1-9]$');
    expect(claim.debtor_party.properties.account_number.pattern).toBe('^[A-Z0-9]{6,34}$');
    expect(claim.disputed_transactions.items.properties.amount.pattern).toBe('^[0-9.]{0,20}$');
    expect(s['claim-submission-status'].enum).toEqual([
      'accepted',
      'validation_failed',
      'validation_pending',
      'validation_passed',
      'released_to_gateway',
      'queued_for_delivery',
      'delivery_confirmed',
      'delivery_failed',
    ]);
    expect(JSON.stringify(s.account)).toContain('bank_id_code');
    expect(JSON.stringify(s.subscription)).toContain('callback_uris');
    expect(JSON.stringify(s.payment)).toContain('scheme_payment_sub_type');
    expect(JSON.stringify(s['report-admission'])).toContain('"delivery_confirmed","confirmed","failed"');
    // The document's refs point inside it (no file names left).
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"(?!#\/components\/schemas\/)/);
    const list = doc.paths['/v1/transaction/claims'].get.parameters.map((p: any) => p.name);
    expect(list).toContain('filter[submission.submission_date_from]');
  });
});

describe('/docs', () => {
  it('serves the reference page and its renderer locally, no CDN', async () => {
    const page = await rt.app.request('/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/v1/openapi.json');
    expect(html).not.toMatch(/https?:\/\//);
    const js = await rt.app.request('/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await rt.app.request('/docs/assets/package.json')).status).toBe(404);
  });
});
