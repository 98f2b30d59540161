import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

describe('GET /v1/simulator/requests', () => {
  it('shows a 4xx with its error_code, body and masked token, newest first, to its organisation only', async () => {
    const refused = await json(
      await rt.call('POST', '/v1/organisation/accounts', { data: { id: 'nope', attributes: {} } }),
    );
    const listed = await json(await rt.call('GET', '/v1/simulator/requests?filter[status]=4xx'));
    assertMatchesSchema('request-journal', listed);
    expect(listed.data).toHaveLength(1);
    const [e] = listed.data;
    expect(e.type).toBe('journal_entries');
    expect(e.attributes).toMatchObject({
      method: 'POST',
      path: '/v1/organisation/accounts',
      status: 400,
      error_code: refused.error_code,
      body: '{"data":{"id":"nope","attributes":{}}}',
    });
    expect(e.attributes.headers.authorization).toBe('Bearer ***');
    expect(e.attributes.response_body).toContain(refused.error_code);
    expect(e.attributes.duration_ms).toBeGreaterThanOrEqual(0);
    const byCode = await json(await rt.call('GET', `/v1/simulator/requests?filter[error_code]=${refused.error_code}`));
    expect(byCode.data.map((x: any) => x.id)).toEqual([e.id]);
    const other = await json(await rt.call('GET', '/v1/simulator/requests', undefined, { client: HARBOUR }));
    expect(other.data.every((x: any) => x.attributes.organisation_id === HARBOUR.organisation_id)).toBe(true);
  });

  it('gives each request its wall time and the scheme time it arrived at, apart', async () => {
    // The scheme clock, frozen at TEST_START, moves two working days; the wall clock ten minutes.
    await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 2 });
    rt.wall.advanceMs(600_000);
    await rt.call('GET', '/v1/organisation/accounts');
    const listed = await json(await rt.call('GET', '/v1/simulator/requests'));
    assertMatchesSchema('request-journal', listed);
    const [read, advance] = listed.data.map((e: any) => e.attributes);
    expect([read.path, read.time, read.scheme_time]).toEqual([
      '/v1/organisation/accounts',
      '2026-12-21T09:10:00.000Z',
      '2026-12-23T09:00:00.000Z',
    ]);
    // The advance is stamped as it arrived: before the clock moved.
    expect([advance.path, advance.time, advance.scheme_time]).toEqual([
      '/v1/simulator/clock/advance',
      '2026-12-21T09:00:00.000Z',
      '2026-12-21T09:00:00.000Z',
    ]);
  });

  it('pages, filters by method and path prefix, and DELETE clears the journal', async () => {
    for (let i = 0; i < 3; i++) await rt.call('GET', '/v1/organisation/accounts');
    await rt.call('GET', '/v1/transaction/claims');
    const paged = await json(await rt.call('GET', '/v1/simulator/requests?filter[path]=/v1/organisation&page[size]=2'));
    expect(paged.data).toHaveLength(2);
    expect(paged.links.next).toBeDefined();
    const gets = await json(
      await rt.call('GET', '/v1/simulator/requests?filter[method]=get&filter[path]=/v1/transaction'),
    );
    expect(gets.data).toHaveLength(1);
    expect((await rt.call('DELETE', '/v1/simulator/requests')).status).toBe(204);
    const after = await json(await rt.call('GET', '/v1/simulator/requests?filter[path]=/v1/organisation'));
    expect(after.data).toEqual([]);
    expect((await rt.call('GET', '/v1/simulator/requests?filter[colour]=red')).status).toBe(400);
  });

  it("is not journaled when read, and hides the tools' own reads unless asked (filter[own])", async () => {
    const tool = { headers: { 'x-scheme-sim-tool': 'dashboard' } };
    await rt.call('GET', '/v1/transaction/claims', undefined, tool);
    await rt.call('POST', '/v1/simulator/clock/freeze', undefined, tool);
    await rt.call('GET', '/v1/transaction/payments');
    await rt.call('GET', '/v1/simulator/requests');
    const paths = (list: any) => list.data.map((e: any) => `${e.attributes.method} ${e.attributes.path}`);
    // A tool's change is shown (marked with the tool); its read is not; the journal's reads never are.
    const shown = await json(await rt.call('GET', '/v1/simulator/requests'));
    assertMatchesSchema('request-journal', shown);
    expect(paths(shown)).toEqual(['GET /v1/transaction/payments', 'POST /v1/simulator/clock/freeze']);
    expect(shown.data[1].attributes.tool).toBe('dashboard');
    expect(shown.data[1].attributes.own).toBeUndefined();
    const own = await json(await rt.call('GET', '/v1/simulator/requests?filter[own]=true'));
    assertMatchesSchema('request-journal', own);
    expect(paths(own)).toEqual(['GET /v1/transaction/claims']);
    expect(own.data[0].attributes).toMatchObject({ tool: 'dashboard', own: true });
    expect(paths(await json(await rt.call('GET', '/v1/simulator/requests?filter[own]=true,false')))).toHaveLength(3);
    const wrong = await rt.call('GET', '/v1/simulator/requests?filter[own]=maybe');
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error_message).toBe(
      'filter[own] in query should be one of [true false] (or both, comma-separated)',
    );
  });

  it('keeps a success’s answer in the journal while a listener (the live log) follows it', async () => {
    await rt.token();
    const seen: string[] = [];
    const off = rt.deps.journal!.onRecord((e) => seen.push(e.path));
    await (await rt.call('GET', '/v1/simulator/clock')).text();
    off();
    expect(seen).toEqual(['/v1/simulator/clock']);
    const [entry] = (await json(await rt.call('GET', '/v1/simulator/requests?filter[path]=/v1/simulator/clock'))).data;
    expect(entry.attributes.response_body).toContain('"mode":"frozen"');
  });

  it('shows a list as it was answered, after a listed account changed', async () => {
    const created = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: crypto.randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        attributes: { country: 'GB', ...NORTHWIND.bank, name: ['Sam Holder'] },
      },
    });
    expect(created.status).toBe(201);
    const listed = await rt.call('GET', '/v1/organisation/accounts');
    const answered = await listed.text();
    const [first] = JSON.parse(answered).data;
    await rt.call('PATCH', `/v1/organisation/accounts/${first.id}`, {
      data: {
        id: first.id,
        organisation_id: first.organisation_id,
        version: first.version,
        attributes: { alternative_names: ['Changed Later'] },
      },
    });
    const [entry] = (
      await json(
        await rt.call('GET', '/v1/simulator/requests?filter[method]=GET&filter[path]=/v1/organisation/accounts'),
      )
    ).data;
    expect(entry.attributes.response_body).toBe(answered);
    expect(entry.attributes.response_body).not.toContain('Changed Later');
  });
});
