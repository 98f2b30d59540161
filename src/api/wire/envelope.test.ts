import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { page, pageJson } from './envelope.ts';

/** A list route over `records`, answered by pageJson, or with x-plain as c.json shapes the same page. */
function lists(records: object[]) {
  const app = new Hono();
  app.get('/list', (c) => (c.req.header('x-plain') ? c.json(page(c, records)) : pageJson(c, records)));
  return app;
}

const record = (i: number, name = `holder ${i}`) => ({
  id: `id-${i}`,
  type: 'accounts',
  version: 0,
  attributes: { name: [name], note: 'quote " and \\ and \u2028' },
});

describe('pageJson', () => {
  it('answers the text JSON.stringify gives the page, links included', async () => {
    const records = Array.from({ length: 7 }, (_, i) => record(i));
    const app = lists(records);
    for (const query of ['', '?page[size]=3', '?page[size]=3&page[number]=2', '?page[number]=last&page[size]=2']) {
      const fast = await app.request(`/list${query}`);
      const plain = await app.request(`/list${query}`, { headers: { 'x-plain': '1' } });
      expect(fast.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await fast.text()).toBe(await plain.text());
    }
  });

  it('shows a record stored anew (a change stores a new object), not the text of the old one', async () => {
    const records = [record(0), record(1)];
    const app = lists(records);
    expect(await (await app.request('/list')).text()).toContain('holder 1');
    records[1] = record(1, 'renamed');
    const text = await (await app.request('/list')).text();
    expect(text).toContain('renamed');
    expect(text).not.toContain('holder 1');
  });

  it("says the answer's length in UTF-8 bytes, non-ASCII text included", async () => {
    const records = [record(0, 'Zoë Ångström 名前'), record(1)];
    const app = lists(records);
    for (const query of ['', '?page[size]=1', '?page[size]=1&page[number]=2']) {
      const res = await app.request(`/list${query}`);
      const bytes = new Uint8Array(await res.arrayBuffer()).byteLength;
      expect(res.headers.get('content-length')).toBe(String(bytes));
    }
  });

  it('leaves the journal a way to make the same text again, not the text', async () => {
    const records = Array.from({ length: 3 }, (_, i) => record(i));
    const app = new Hono<{ Variables: { answerText?: { answer: Response; text: () => string } } }>();
    let rebuild: (() => string) | undefined;
    app.use(async (c, next) => {
      await next();
      const kept = c.get('answerText');
      expect(kept?.answer).toBe(c.res);
      rebuild = kept?.text;
    });
    app.get('/list', (c) => pageJson(c, records));
    const text = await (await app.request('/list?page[size]=2')).text();
    expect(rebuild?.()).toBe(text);
  });
});
