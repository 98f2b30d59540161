import { describe, expect, it } from 'vitest';
import { gbIban, hasValidCheckDigits, ibanOf } from './iban.ts';

describe('IBANs', () => {
  it('give the check digits of published examples', () => {
    // The ECBS examples: GB29 NWBK 6016 1331 9268 19, DE89 3704 0044 0532 0130 00.
    expect(gbIban('NWBK', '601613', '31926819')).toBe('GB29NWBK60161331926819');
    expect(ibanOf('DE', '370400440532013000')).toBe('DE89370400440532013000');
    expect(gbIban('WEST', '123456', '98765432')).toBe('GB82WEST12345698765432');
  });

  it('check digits: valid ones pass, a changed digit fails', () => {
    expect(hasValidCheckDigits('GB29NWBK60161331926819')).toBe(true);
    expect(hasValidCheckDigits('GB29NWBK60161331926818')).toBe(false);
    expect(hasValidCheckDigits('GB95NWBK40030012345678')).toBe(false);
  });
});
