import { describe, expect, it } from 'vitest';
import { gbIban } from './iban.ts';

describe('gbIban', () => {
  it('gives the check digits of published examples', () => {
    expect(gbIban('NWBK', '601613', '31926819')).toBe('GB29NWBK60161331926819'); // ECBS, the UK example
    expect(gbIban('WEST', '123456', '98765432')).toBe('GB82WEST12345698765432'); // Wikipedia's example
  });
});
