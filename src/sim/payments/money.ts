// Exact money arithmetic for GBP amounts given as decimal strings. Amounts become integer pence
// held in a BigInt, so sums of any number of claims carry no floating-point error and no overflow.

const AMOUNT_RE = /^(\d+)(?:\.(\d{1,2}))?$/;

/** True for a decimal string with at most two decimal places ("10", "10.5", "10.50"). */
export function isDecimalAmount(amount: string): boolean {
  return AMOUNT_RE.test(amount);
}

/** "12.3" → 1230n. Throws a RangeError for anything that is not a decimal with ≤ 2 places. */
export function toPence(amount: string): bigint {
  const m = AMOUNT_RE.exec(amount);
  if (!m) throw new RangeError(`amount ${JSON.stringify(amount)} is not a decimal with at most 2 decimal places`);
  const pounds = BigInt(m[1]!);
  const fraction = BigInt((m[2] ?? '').padEnd(2, '0') || '0');
  return pounds * 100n + fraction;
}

/** 1230n → "12.30": always two decimal places, no leading zeros beyond one. */
export function formatPence(pence: bigint): string {
  const negative = pence < 0n;
  const abs = negative ? -pence : pence;
  const pounds = abs / 100n;
  const rest = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${pounds.toString()}.${rest}`;
}

/** The exact sum of decimal amounts, formatted with two places. */
export function sumAmounts(amounts: Iterable<string>): string {
  let total = 0n;
  for (const a of amounts) total += toPence(a);
  return formatPence(total);
}
