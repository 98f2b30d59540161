/** ISO 7064 mod 97-10 of a string of digits and letters (A = 10 … Z = 35), as IBANs check. */
function mod97(text: string): number {
  let rest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A digit is itself; a letter two digits (A = 10): the same as spelling the letters out first.
    if (c >= 65 && c <= 90) rest = (rest * 100 + (c - 55)) % 97;
    else rest = (rest * 10 + (c - 48)) % 97;
  }
  return rest;
}

/** An IBAN of a country and its BBAN, with the check digits that make it valid. */
export function ibanOf(country: string, bban: string): string {
  return `${country}${String(98 - mod97(`${bban}${country}00`)).padStart(2, '0')}${bban}`;
}

/** A GB IBAN: GB, check digits, the BIC's bank code (its first four letters), sort code and account number. */
export function gbIban(bankCode: string, sortCode: string, accountNumber: string): string {
  return ibanOf('GB', `${bankCode}${sortCode}${accountNumber}`);
}

/** Whether an IBAN's check digits are right (the text of the IBAN pattern is assumed). */
export function hasValidCheckDigits(iban: string): boolean {
  return iban.length >= 5 && mod97(`${iban.slice(4)}${iban.slice(0, 4)}`) === 1;
}
