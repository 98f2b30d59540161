import { describe, expect, it } from 'vitest';
import { formatPence, isDecimalAmount, sumAmounts, toPence } from './money.ts';

describe('money', () => {
  it('parses decimal strings to integer pence', () => {
    expect(toPence('0.01')).toBe(1n);
    expect(toPence('12.3')).toBe(1230n);
    expect(toPence('12')).toBe(1200n);
    expect(toPence('007.05')).toBe(705n);
  });

  it('refuses more than two places, signs and exponents', () => {
    for (const bad of ['1.234', '-1.00', '1e3', '1.', '.5', '', '1,00']) {
      expect(isDecimalAmount(bad)).toBe(false);
      expect(() => toPence(bad)).toThrow(RangeError);
    }
  });

  it('formats with two places', () => {
    expect(formatPence(0n)).toBe('0.00');
    expect(formatPence(5n)).toBe('0.05');
    expect(formatPence(123456n)).toBe('1234.56');
  });

  it('sums exactly where binary floating point does not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumAmounts(['0.10', '0.20'])).toBe('0.30');
    expect(sumAmounts(Array.from({ length: 10_000 }, () => '0.01'))).toBe('100.00');
    expect(sumAmounts(['999999999999.99', '999999999999.99', '0.02'])).toBe('2000000000000.00');
  });
});
