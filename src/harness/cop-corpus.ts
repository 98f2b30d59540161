// The case corpus of fixtures/cop/cases.json, shared by the table-driven unit test and the
// Scenario Outline of features/name_verification.feature.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VerificationReport } from '../sim/cop/decide.ts';

export interface CopCase {
  id: string;
  /** One line: why the expected outcome is right. */
  reason: string;
  /** Attributes of the account to register (sort code and number are added); null: none. */
  account: Record<string, unknown> | null;
  request: { AccountType: string; Name: string; Identification?: string; SecondaryIdentification?: string };
  expected: VerificationReport;
}

export interface CopCorpus {
  participant: string;
  organisation_id: string;
  /** Sort code the corpus accounts are registered under (served by the participant). */
  sort_code: string;
  cases: CopCase[];
}

export const CORPUS_FILE = join(import.meta.dirname, '..', '..', 'fixtures', 'cop', 'cases.json');

export function loadCorpus(file = CORPUS_FILE): CopCorpus {
  return JSON.parse(readFileSync(file, 'utf8')) as CopCorpus;
}

/** Where a case's account is registered: a sort code of the organisation and its BIC. */
export interface CaseBank {
  sort_code: string;
  bic: string;
}

/**
 * The account attributes and request body of a case, with the account registered as
 * `accountNumber` under `bank` (the corpus's own sort code unless a target names another).
 */
export function materialise(
  corpus: CopCorpus,
  c: CopCase,
  accountNumber: string,
  bank: CaseBank = { sort_code: corpus.sort_code, bic: 'NWBKGB22' },
) {
  const attributes = c.account && {
    country: 'GB',
    bank_id: bank.sort_code,
    bank_id_code: 'GBDSC',
    bic: bank.bic,
    account_number: accountNumber,
    ...c.account,
  };
  const body = {
    Data: {
      SchemeName: 'SortCodeAccountNumber',
      Identification: `${bank.sort_code}${accountNumber}`,
      ...c.request,
    },
  };
  return { attributes, body };
}
