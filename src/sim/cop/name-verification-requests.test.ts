import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { HARBOUR, NORTHWIND, TEST_START, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import type { ResponderOutcome } from './answer-attributes.ts';
import type { NameVerificationAttributes } from './name-verification-records.ts';
import type { NameVerificationRequests, NewNameVerification } from './name-verification-requests.ts';

const HARBOUR_OB = '0015800000jf9GgAAI';

function request(attributes: Partial<NameVerificationAttributes> = {}, org = NORTHWIND.organisation_id) {
  return {
    id: randomUUID(),
    organisation_id: org,
    attributes: {
      account_number: '12345678',
      account_number_code: 'BBAN',
      bank_id: '309634',
      bank_id_code: 'GBDSC',
      name: ['Jon', 'Smith'],
      psp_request_id: 'payer-side-id',
      ...attributes,
    },
  } satisfies NewNameVerification;
}

const closeMatch: ResponderOutcome = {
  kind: 'answered',
  report: { Matched: false, ReasonCode: 'MBAM', Name: 'John Smith' },
};

describe('name verification requests (the requester side)', () => {
  let rt: TestRuntime;
  let nv: NameVerificationRequests;
  beforeEach(async () => {
    rt = await testRuntime();
    nv = rt.sim.nameVerificationRequests;
  });
  const ask = (input: NewNameVerification, outcome?: ResponderOutcome) => {
    const plan = nv.plan(input);
    return { plan, created: nv.record(input, plan, plan.ask ? outcome : undefined) };
  };

  it('routes by sort code to the participant serving it, with the Open Banking request built from the attributes', () => {
    const plan = nv.plan(request({ account_classification: 'business', secondary_identification: 'ROLL 1' }));
    expect(plan.ask).toBe(true);
    expect(plan.route).toMatchObject({
      kind: 'participant',
      participant: { open_banking_id: HARBOUR_OB },
      request: {
        accountType: 'Business',
        identification: '30963412345678',
        name: 'Jon Smith',
        secondaryIdentification: 'ROLL 1',
      },
    });
  });

  it("writes the answer as the requester's submission and the payee bank's admission, each whole in its request", () => {
    const input = request();
    const { created } = ask(input, closeMatch);
    expect(created).toMatchObject({ version: 0, created_on: TEST_START });
    expect(created.relationships).toBeUndefined();

    const mine = nv.get(input.id, NORTHWIND.organisation_id);
    expect(mine.version).toBe(1);
    const [submission] = mine.relationships!.name_verification_submission!.data;
    expect(submission).toMatchObject({
      type: 'name_verification_submissions',
      organisation_id: NORTHWIND.organisation_id,
      attributes: {
        status: 'delivery_confirmed',
        answer: 'rejected',
        reason_code: 'MBAM',
        reason: 'the name is a close match to the account name',
        actual_name: 'John Smith',
      },
    });
    expect(submission).not.toHaveProperty('relationships'); // no way back to the request: no cycle
    expect(nv.getSubmission(input.id, submission!.id, NORTHWIND.organisation_id).relationships).toMatchObject({
      name_verification: { data: [{ id: input.id, type: 'name_verifications', attributes: input.attributes }] },
    });

    // At the payee's bank: the request as the Open Banking request carried it, nothing more.
    const [inbound] = nv.list(HARBOUR.organisation_id);
    expect(inbound!.attributes).toEqual({
      account_classification: 'personal',
      account_number: '12345678',
      account_number_code: 'BBAN',
      bank_id: '309634',
      bank_id_code: 'GBDSC',
      name: ['Jon Smith'],
      verification_scheme: 'CoP',
    });
    const [admission] = inbound!.relationships!.name_verification_admission!.data;
    expect(admission!.attributes).toEqual({
      status: 'confirmed',
      answer: 'rejected',
      reason_code: 'MBAM',
      reason: 'the name is a close match to the account name',
      actual_name: 'John Smith',
      debtor_party: { account_with: { bank_name: 'Northwind Bank plc' } },
    });
    expect(nv.getAdmission(inbound!.id, admission!.id, HARBOUR.organisation_id).id).toBe(admission!.id);
    // Every record as stored is its resource schema (the API shows records as stored).
    for (const r of nv.requests.rows.values()) assertMatchesSchema('name-verification', r);
    for (const r of nv.submissions.rows.values()) assertMatchesSchema('name-verification-submission', r);
    for (const r of nv.admissions.rows.values()) assertMatchesSchema('name-verification-admission', r);
  });

  it('emits created and updated events for each record, requester first', () => {
    const seen: string[] = [];
    rt.sim.events.on((e) => {
      if (e.record_type.startsWith('name_verification'))
        seen.push(
          `${e.event_type} ${e.record_type} ${e.record.organisation_id === HARBOUR.organisation_id ? 'H' : 'N'}`,
        );
    });
    ask(request(), { kind: 'answered', report: { Matched: true } });
    expect(seen).toEqual([
      'created name_verifications N',
      'created name_verification_submissions N',
      'updated name_verifications N',
      'created name_verifications H',
      'created name_verification_admissions H',
      'updated name_verifications H',
    ]);
  });

  it('a requester sees only its own; the payee bank sees only its inbound request', () => {
    const input = request();
    ask(input, closeMatch);
    expect(() => nv.get(input.id, HARBOUR.organisation_id)).toThrow(/does not exist/);
    expect(nv.list(NORTHWIND.organisation_id).map((r) => r.id)).toEqual([input.id]);
    const [inbound] = nv.list(HARBOUR.organisation_id);
    const admissionId = inbound!.relationships!.name_verification_admission!.data[0]!.id;
    expect(() => nv.getAdmission(inbound!.id, admissionId, NORTHWIND.organisation_id)).toThrow(/does not exist/);
    expect(() => nv.getAdmission(input.id, admissionId, HARBOUR.organisation_id)).toThrow(/does not exist/);
  });

  it('a sort code of no participant is answered SCNS without a responder', () => {
    const input = request({ bank_id: '400999' });
    const { plan } = ask(input);
    expect(plan).toEqual({ route: { kind: 'unknown_bank', sortCode: '400999' }, ask: false });
    expect(
      nv.get(input.id, NORTHWIND.organisation_id).relationships!.name_verification_submission!.data[0],
    ).toMatchObject({
      attributes: {
        status: 'delivery_confirmed',
        answer: 'rejected',
        reason_code: 'SCNS',
        status_reason: 'no Confirmation of Payee participant serves sort code 400999',
      },
    });
    expect(rt.sim.nameVerificationRequests.admissions.rows.size).toBe(0);
  });

  it.each([
    [{ verification_scheme: 'VoP' as const }, /VoP .* is not simulated/],
    [{ bank_id_code: 'SWBIC' }, /bank_id_code must be GBDSC, not SWBIC/],
    [{ account_number_code: 'IBAN' as const }, /account_number_code must be BBAN, not IBAN/],
  ])('a request Confirmation of Payee cannot carry fails delivery, saying why (%o)', (attributes, reason) => {
    const input = request(attributes);
    ask(input);
    const submission = nv.get(input.id, NORTHWIND.organisation_id).relationships!.name_verification_submission!
      .data[0]!;
    expect(submission.attributes).toMatchObject({
      status: 'delivery_failed',
      status_reason: expect.stringMatching(reason),
    });
    expect(submission.attributes).not.toHaveProperty('answer');
  });

  it("a responder's refusal fails the submission and the admission with its reason", () => {
    const input = request();
    ask(input, { kind: 'failed', reason: '400 UK.OBIE.Field.Invalid at Data.Name: too long' });
    expect(
      nv.get(input.id, NORTHWIND.organisation_id).relationships!.name_verification_submission!.data[0]!.attributes,
    ).toEqual({
      status: 'delivery_failed',
      status_reason: '400 UK.OBIE.Field.Invalid at Data.Name: too long',
    });
    expect(nv.admissions.list(HARBOUR.organisation_id)[0]!.attributes).toMatchObject({
      status: 'failed',
      status_reason: '400 UK.OBIE.Field.Invalid at Data.Name: too long',
    });
  });

  it('refuses an id already used (409), before and after the exchange', () => {
    const input = request();
    const plan = nv.plan(input);
    nv.record(input, plan, closeMatch);
    expect(() => nv.plan(input)).toThrow(/duplicate constraint/);
    expect(() => nv.record(input, plan, closeMatch)).toThrow(/duplicate constraint/);
  });

  describe('responder scenarios', () => {
    const play = (name: string, parameters: Record<string, unknown>) =>
      rt.sim.scenarios.trigger({ id: randomUUID(), organisation_id: NORTHWIND.organisation_id, name, parameters });

    it('responder_failed: the participant is not asked, both sides fail naming the scenario', () => {
      const scenario = play('name_verification.responder_failed', { open_banking_id: HARBOUR_OB, reason: 'timeout' });
      expect(scenario.attributes.status).toBe('pending');
      const input = request();
      const { plan } = ask(input);
      expect(plan.ask).toBe(false);
      const submission = nv.submissions.list(NORTHWIND.organisation_id)[0]!;
      expect(submission.attributes).toEqual({
        status: 'delivery_failed',
        status_reason: `Harbour Building Society (${HARBOUR_OB}) did not answer: timeout`,
      });
      expect(submission.relationships?.scenarios?.data).toEqual([{ id: scenario.id, type: 'scenarios' }]);
      // As the request carries it: the scenario named, the way back to the request left out.
      const embedded = nv.get(input.id, NORTHWIND.organisation_id).relationships!.name_verification_submission!
        .data[0]!;
      expect(embedded.relationships).toEqual({ scenarios: { data: [{ id: scenario.id, type: 'scenarios' }] } });
      expect(nv.admissions.list(HARBOUR.organisation_id)[0]!.attributes.status).toBe('failed');
      expect(rt.sim.scenarios.get(scenario.id, NORTHWIND.organisation_id).attributes.status).toBe('applied');
      // Played once: the next request is answered.
      expect(nv.plan(request()).ask).toBe(true);
    });

    it('responder_slow: the answer arrives the given seconds of scheme time later', () => {
      const scenario = play('name_verification.responder_slow', { open_banking_id: HARBOUR_OB, seconds: 30 });
      const input = request();
      ask(input, closeMatch);
      expect(nv.get(input.id, NORTHWIND.organisation_id).relationships).toBeUndefined();
      expect(rt.sim.scenarios.get(scenario.id, NORTHWIND.organisation_id).attributes.effect).toMatch(
        /arrives 30 s late, at 2026-12-21T09:00:30.000Z/,
      );
      rt.sim.scheduler.advanceTo(new Date('2026-12-21T09:00:29.000Z'));
      expect(nv.submissions.rows.size).toBe(0);
      rt.sim.scheduler.advanceTo(new Date('2026-12-21T09:00:30.000Z'));
      const submission = nv.get(input.id, NORTHWIND.organisation_id).relationships!.name_verification_submission!
        .data[0]!;
      expect(submission).toMatchObject({ created_on: '2026-12-21T09:00:30.000Z', attributes: { answer: 'rejected' } });
      expect(nv.admissions.list(HARBOUR.organisation_id)[0]!.created_on).toBe('2026-12-21T09:00:30.000Z');
    });

    it('a scenario for another participant, or another organisation, does not apply', () => {
      play('name_verification.responder_failed', { open_banking_id: '00158000016i44IAAQ' });
      expect(nv.plan(request()).ask).toBe(true);
      expect(nv.plan(request({}, HARBOUR.organisation_id)).ask).toBe(true);
    });

    it('refuses a participant that does not exist, naming the known ones', () => {
      expect(() => play('name_verification.responder_slow', { open_banking_id: 'NOPE' })).toThrow(
        /open_banking_id must name a participant; known: 0015800001041REAAY, 0015800000jf9GgAAI, 00158000016i44IAAQ/,
      );
      expect(rt.sim.scenarios.list(NORTHWIND.organisation_id)).toEqual([]);
    });
  });

  describe('list filters (ListNameVerifications)', () => {
    it('filter by attributes, name, the answer of either side and the dates', () => {
      const a = request({ name: ['Jon', 'Smith'] });
      const b = request({ name: ['Ann Other'], account_number: '87654321' });
      ask(a, closeMatch);
      ask(b, { kind: 'answered', report: { Matched: true } });
      const ids = (filter: Record<string, string | string[]>) =>
        nv.list(NORTHWIND.organisation_id, filter).map((r) => r.id);
      expect(ids({ 'submission.answer': 'confirmed' })).toEqual([b.id]);
      expect(ids({ 'submission.reason_code': 'MBAM', 'submission.actual_name': 'John Smith' })).toEqual([a.id]);
      expect(ids({ name: ['Jon Smith', 'nobody'] })).toEqual([a.id]);
      expect(ids({ name: 'Smith' })).toEqual([a.id]);
      expect(ids({ account_number: '87654321' })).toEqual([b.id]);
      expect(ids({ created_date_from: TEST_START, created_date_to: TEST_START })).toEqual([a.id, b.id]);
      expect(ids({ created_date_from: '2026-12-21T09:00:00.001Z' })).toEqual([]);
      expect(ids({ created_date_to: '2026-12-21' })).toEqual([a.id, b.id]);
      expect(ids({ 'submission.status': 'delivery_failed' })).toEqual([]);
      expect(nv.list(HARBOUR.organisation_id, { 'admission.answer': 'confirmed' })).toHaveLength(1);
      expect(() => nv.list(NORTHWIND.organisation_id, { created_date_from: 'yesterday' })).toThrow(
        /filter\[created_date_from\] must be a date-time/,
      );
    });
  });
});
