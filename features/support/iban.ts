/** A GB IBAN: GB, ISO 7064 mod 97-10 check digits, the BIC's bank code, sort code and account number. */
export function gbIban(bankCode: string, sortCode: string, accountNumber: string): string {
  const bban = `${bankCode}${sortCode}${accountNumber}`;
  const digits = `${bban}GB00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `GB${String(98 - rest).padStart(2, '0')}${bban}`;
}
