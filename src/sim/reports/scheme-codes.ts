// The scheme's published code tables, as the report files carry them. Sources (docs/reports.md,
// "Codes"): Bacs reason codes as Numeral, Slimpay and pt-x publish them; ARUCS codes as RBS's pt-x
// guide and ClearBank list them; AWACS codes as Access PaySuite lists them; DDICA reason codes as
// Numeral lists them; AUDDIS 7 as RBS's pt-x guide lists it; FPS return reasons as Pismo (which
// drives Form3) lists them.

export interface SchemeCode {
  code: string;
  description: string;
}

const table = (rows: Array<[string, string]>): readonly SchemeCode[] =>
  rows.map(([code, description]) => ({ code, description }));

/** ARUDD: why a Direct Debit was returned unpaid. */
export const ARUDD_REASONS = table([
  ['0', 'Refer to payer'],
  ['1', 'Instruction cancelled'],
  ['2', 'Payer deceased'],
  ['3', 'Account transferred'],
  ['4', 'Advance notice disputed'],
  ['5', 'No account (or wrong account type)'],
  ['6', 'No instruction'],
  ['7', 'Amount differs'],
  ['8', 'Amount not yet due'],
  ['9', 'Presentation overdue'],
  ['A', 'Service user differs'],
  ['B', 'Account closed'],
]);

/**
 * The 4-character `returnCode` of a ReturnedDebitItem. Real files show `0128` (refer to payer) and
 * `1012` (instruction cancelled): the first character is the ARUDD reason. The other three are not
 * public; for the other reasons they are inferred (`<reason>000`), as docs/reports.md says.
 */
export function aruddReturnCode(reason: string): string {
  if (reason === '0') return '0128';
  if (reason === '1') return '1012';
  return `${reason}000`;
}

/** ADDACS: why a Direct Debit Instruction was amended or cancelled. */
export const ADDACS_REASONS = table([
  ['0', 'Instruction cancelled - refer to payer'],
  ['1', 'Instruction cancelled by payer'],
  ['2', 'Payer deceased'],
  ['3', 'Account transferred to a new bank or building society'],
  ['B', 'Account closed'],
  ['C', 'Account transferred to a different branch of bank or building society'],
  ['D', 'Advance notice disputed'],
  ['E', 'Instruction amended'],
  ['R', 'Instruction reinstated'],
]);

/** ADDACS reasons whose advice carries the payer's new sort code and account number. */
export const ADDACS_MOVES = new Set(['3', 'C', 'E']);

/** AUDDIS (advice of bank returned DDIs): why a paying bank returned an instruction. */
export const AUDDIS_REASONS = table([
  ['1', 'Instruction cancelled by payer'],
  ['2', 'Payer deceased'],
  ['3', 'Account transferred'],
  ['5', 'No account'],
  ['6', 'No instruction'],
  ['7', 'DDI amount not zero'],
  ['B', 'Account closed'],
  ['C', 'Account transferred to a different branch of bank or building society'],
  ['F', 'Invalid account type'],
  ['G', 'Bank will not accept Direct Debits on account'],
  ['H', 'Instruction has expired'],
  ['I', 'Payer reference is not unique'],
  ['K', 'Instruction cancelled by bank'],
  ['L', "Incorrect payer's account details"],
  ['M', 'Transaction code / user status incompatible'],
  ['N', "Transaction disallowed at payer's branch"],
  ['O', 'Invalid reference'],
  ['P', "Payer's name not present"],
  ['Q', 'Service user name is blank'],
]);

/** AUDDIS record types of a returned instruction, by the transaction code it returns. */
export const AUDDIS_RECORD_TYPES: Record<string, string> = { '0N': 'N', '0C': 'D', '0S': 'S' };

/** ARUCS: why a Direct Credit was not applied. */
export const ARUCS_REASONS = table([
  ['0', 'Invalid details'],
  ['2', 'Beneficiary deceased'],
  ['3', 'Account transferred'],
  ['5', 'No account'],
  ['B', 'Account closed'],
  ['C', 'Requested by remitter'],
]);

/** AWACS: why a credit was applied to an account other than the one it named. */
export const AWACS_REASONS = table([
  ['0', 'Invalid details'],
  ['3', 'Account transferred'],
]);

/** DDICA: the reason of an indemnity claim. */
export const DDIC_REASONS = table([
  ['1', 'Amount and/or date of Direct Debit differs from advance notice'],
  ['2', 'No advance notice received by payer, or the amount is disputed'],
  ['3', 'DDI cancelled by paying bank'],
  ['4', 'Payer cancelled DDI direct with the service user'],
  ['5', 'No instruction held / payer disputes having given authority'],
  ['6', 'Signature is fraudulent or not in accordance with authorised signatory'],
  ['7', "Claim raised at service user's request after DD applied to payer's account"],
  ['8', 'Service user name disputed / payer does not recognise service user'],
]);

/** AUDDIS file rejection: the one error code public samples show, with its text. */
export const AUDDIS_FILE_ERRORS = table([['30264', 'User Status is TEST on Arrival Day']]);

/** Faster Payments return reasons (Form3, as Pismo lists them). */
export const FPS_RETURN_REASONS = table([
  ['00000001', 'Beneficiary sort code / account number unknown'],
  ['00000002', 'Beneficiary account closed'],
  ['00000003', 'Beneficiary account stopped'],
  ['00000004', 'Beneficiary deceased'],
  ['00000005', 'Reference information required to identify beneficiary account'],
  ['00000006', 'Beneficiary name does not match account'],
  ['00000007', 'Returned at the request of the sender'],
  ['00000008', 'Beneficiary account not in the currency quoted'],
  ['00000009', 'Beneficiary not expecting the funds'],
]);

/** Standard 18 transaction codes a report item may carry. */
export const DEBIT_TRANSACTION_CODES = ['01', '17', '18', '19'] as const;
export const CREDIT_TRANSACTION_CODES = ['99', 'Z4', 'Z5'] as const;
export const DDI_TRANSACTION_CODES = ['0N', '0C', '0S'] as const;

/** Faster Payments payment types: single immediate, standing order, forward dated, return. */
export const FPS_PAYMENT_TYPES = ['SIP', 'SOP', 'FDP', 'RTN'] as const;

/** The description of a code of a table; the code itself when the table does not hold it. */
export function describeCode(codes: readonly SchemeCode[], code: string): string {
  return codes.find((c) => c.code === code)?.description ?? code;
}
