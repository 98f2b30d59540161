import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClaimVia, submitVia } from '../../../test/support/claim-requests.ts';
import { openAccount, subscribeToAccounts } from '../../../test/support/testing.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { HARBOUR, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;
const play = (attributes: Record<string, unknown>, client?: typeof HARBOUR) =>
  rt.call('POST', '/v1/simulator/scenarios', { data: { type: 'scenarios', attributes } }, client ? { client } : {});

describe('GET /v1/simulator/scenarios: the catalogue', () => {
  it('lists every scenario with its target, when it acts, its parameters and magic amount', async () => {
    const body = await json(await rt.call('GET', '/v1/simulator/scenarios'));
    assertMatchesSchema('scenario-catalogue', body);
    expect(body.data.map((d: any) => d.id)).toEqual([
      'claim_submission.validation_failed',
      'claim_submission.delivery_failed',
      'claim.contra_delayed',
      'claim.contra_withheld',
      'report_admission.failed',
      'notification.duplicate',
      'report.emitted',
      'name_verification.responder_slow',
      'name_verification.responder_failed',
    ]);
    expect(body.data[0].attributes).toMatchObject({ target_type: 'claim_submissions', magic_amount: '900.01' });
  });
});

describe('POST /v1/simulator/scenarios', () => {
  it('plays a claim scenario pending until its step, readable at its link and from the resource', async () => {
    const claim = await createClaimVia(rt);
    const sub = await submitVia(rt, claim.id);
    const res = await play({
      name: 'claim_submission.delivery_failed',
      target_id: sub.id,
      parameters: { reason: 'SU closed' },
    });
    expect(res.status).toBe(201);
    const scenario = await json(res);
    assertMatchesSchema('scenario-single', scenario);
    expect(scenario.data.attributes).toMatchObject({ status: 'pending', source: 'api' });
    await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 2 });
    const played = await json(await rt.call('GET', scenario.links.self));
    assertMatchesSchema('scenario-single', played);
    expect(played.data.attributes.status).toBe('applied');
    const s = await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}/submissions/${sub.id}`));
    assertMatchesSchema('claim-submission-single', s);
    expect(s.data.attributes).toMatchObject({ status: 'delivery_failed', status_reason: 'SU closed' });
    expect(s.data.relationships.scenarios.data).toEqual([{ id: scenario.data.id, type: 'scenarios' }]);
    const list = await json(await rt.call('GET', `/v1/simulator/scenarios/played?filter[target_id]=${sub.id}`));
    assertMatchesSchema('scenario-list', list);
    expect(list.data.map((x: any) => x.id)).toEqual([scenario.data.id]);
  });

  it('400s a bad request naming the field and rule, 404s a target of another organisation', async () => {
    const claim = await createClaimVia(rt);
    const sub = await submitVia(rt, claim.id);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'claim.lost' }, 400, 'name in body should be one of'],
      [{ name: 'claim.contra_withheld' }, 400, 'target_id is required by scenario claim.contra_withheld'],
      [{ name: 'claim.contra_delayed', target_id: sub.id, parameters: { working_days: 0 } }, 400, 'working_days'],
      [{ name: 'claim.contra_delayed', target_id: sub.id, parameters: { hours: 1 } }, 400, 'hours'],
      [{ name: 'report.emitted', parameters: {} }, 400, 'report_type'],
      [{ name: 'report.emitted', target_id: sub.id, parameters: { report_type: 'X' } }, 400, 'has no target'],
      [{ name: 'claim.contra_withheld', target_id: 'nope' }, 400, 'target_id'],
      [{ name: 'claim.contra_withheld', target_id: randomUUID() }, 404, 'does not exist'],
    ];
    for (const [attributes, status, message] of cases) {
      const res = await play(attributes);
      const body = await json(res);
      expect(res.status, JSON.stringify(attributes)).toBe(status);
      expect(body.error_message, JSON.stringify(attributes)).toContain(message);
    }
    const foreign = await play({ name: 'claim.contra_withheld', target_id: sub.id }, HARBOUR);
    expect(foreign.status).toBe(404);
    for (const body of [null, [], { data: [] }, { data: { attributes: 'x' } }]) {
      expect((await rt.call('POST', '/v1/simulator/scenarios', body)).status).toBe(400);
    }
    expect((await rt.call('DELETE', '/v1/simulator/scenarios')).status).toBe(405);
  });

  it('report_admission.failed fails the admission now with its code; report.emitted brings a failed one', async () => {
    const emitted = await json(
      await play({ name: 'report.emitted', parameters: { report_type: 'BACS_ARUDD', admission_status: 'failed' } }),
    );
    expect(emitted.data.attributes.status).toBe('applied');
    const [report] = (await json(await rt.call('GET', '/v1/notification/reports?filter[report_type]=BACS_ARUDD'))).data;
    const admissionId = report.relationships.report_admission.data[0].id;
    const admission = await json(
      await rt.call('GET', `/v1/notification/reports/${report.id}/admissions/${admissionId}`),
    );
    assertMatchesSchema('report-admission-single', admission);
    expect(admission.data.attributes.status).toBe('failed');

    const again = await play({ name: 'report_admission.failed', target_id: report.id });
    expect(again.status).toBe(400);
    expect((await json(again)).error_message).toContain('has already failed');
  });

  it('notification.duplicate queues the newest notification about a record again, same id', async () => {
    await subscribeToAccounts(rt, [['http', 'http://127.0.0.1:9/hook']]);
    const accountId = await openAccount(rt);
    const before = rt.sim.outbox.entries.values().filter((e) => e.notification.data);
    expect(before).toHaveLength(1);
    const res = await play({ name: 'notification.duplicate', target_id: accountId });
    expect(res.status, await res.clone().text()).toBe(201);
    const after = rt.sim.outbox.entries.values();
    expect(after).toHaveLength(2);
    expect(after[1]!.notification.id).toBe(after[0]!.notification.id);
    expect((await play({ name: 'notification.duplicate', target_id: randomUUID() })).status).toBe(404);
  });
});
