import { describe, expect, it } from 'vitest';
import { NAME_VERIFICATIONS, nameVerificationBody } from '../../../test/support/name-verification-requests.ts';
import { loadCorpus, materialise } from '../../harness/cop-corpus.ts';
import { HARBOUR, testRuntime } from '../../harness/test-runtime.ts';
import { NAME_VERIFICATION_PATH } from '../open-banking/participant-paths.ts';

// Both sides of Confirmation of Payee check each other: every case of fixtures/cop/cases.json,
// asked through Form3's name verification API and straight at the Open Banking endpoint of the
// participant serving the sort code, gets the same answer (and, at the corpus's participant, the
// case's expected one). Harbour asks, so every answer crosses organisations.
const corpus = loadCorpus();

interface Report {
  Matched: boolean;
  ReasonCode?: string;
  Name?: string;
}

/** A report as the requester's submission states it. */
const inForm3Terms = (r: Report) => ({
  status: 'delivery_confirmed',
  answer: r.Matched ? 'confirmed' : 'rejected',
  ...(r.ReasonCode ? { reason_code: r.ReasonCode } : {}),
  ...(r.Name !== undefined ? { actual_name: r.Name } : {}),
});

describe('the requester API and the Open Banking endpoint, over the case corpus', () => {
  it('give the same answer for every case', async () => {
    const rt = await testRuntime();
    const mismatches: string[] = [];
    for (const [i, c] of corpus.cases.entries()) {
      const { attributes, body } = materialise(corpus, c, `2${String(i).padStart(7, '0')}`);
      if (attributes)
        rt.sim.accounts.create({ id: crypto.randomUUID(), organisation_id: corpus.organisation_id, attributes });
      const d = body.Data as {
        AccountType: string;
        Identification: string;
        Name: string;
        SecondaryIdentification?: string;
      };
      const sortCode = d.Identification.slice(0, 6);
      const owner = rt.sim.participants.owning(sortCode)?.open_banking_id ?? corpus.participant;

      const ob = await rt.call('POST', NAME_VERIFICATION_PATH.of(owner), body, { client: HARBOUR });
      const report = ((await ob.json()) as { Data: { VerificationReport: Report } }).Data.VerificationReport;

      const created = await rt.call(
        'POST',
        NAME_VERIFICATIONS,
        nameVerificationBody(HARBOUR.organisation_id, {
          account_classification: d.AccountType.toLowerCase(),
          bank_id: sortCode,
          account_number: d.Identification.slice(6),
          name: [d.Name],
          ...(d.SecondaryIdentification !== undefined ? { secondary_identification: d.SecondaryIdentification } : {}),
        }),
        { client: HARBOUR },
      );
      const id = ((await created.json()) as { data: { id: string } }).data.id;
      const got = (await (
        await rt.call('GET', `${NAME_VERIFICATIONS}/${id}`, undefined, { client: HARBOUR })
      ).json()) as any;
      // The answer's fields (reason and status_reason are words about it).
      const {
        reason: _r,
        status_reason: _s,
        ...submission
      } = got.data.relationships.name_verification_submission.data[0].attributes;

      const same = JSON.stringify(submission) === JSON.stringify(inForm3Terms(report));
      const expected = owner !== corpus.participant || JSON.stringify(report) === JSON.stringify(c.expected);
      if (ob.status !== 200 || !same || !expected)
        mismatches.push(
          `${c.id}: endpoint ${ob.status} ${JSON.stringify(report)}, requester API ${JSON.stringify(submission)}`,
        );
    }
    expect(mismatches).toEqual([]);
    await rt.close();
  });
});
