import { describe, expect, it } from 'vitest';
import { foldDigits, moneyValue, parseDate, parseMoney, parseTime } from '../../../../src/core/text/parse-forms.js';
import { digitGroups, phoneWords } from '../../../../src/core/text/verbalize.js';
import { english } from '../../../../src/core/text/languages/en.js';

describe('written forms', () => {
  it('folds every Indian digit block to ASCII, one code point for one', () => {
    expect(foldDigits('०१२ ০১২ ૦૧૨ ௦௧௨ ౦౧౨ ೦೧೨ ൦൧൨')).toBe('012 012 012 012 012 012 012');
  });

  it('parses money with symbols, multipliers and paise rounding', () => {
    expect(parseMoney('₹1,250.50')).toEqual({ rupees: 1250, paise: 50 });
    expect(parseMoney('Rs. 500/-')).toEqual({ rupees: 500, paise: 0 });
    expect(parseMoney('INR 2.5 lakh')).toEqual({ rupees: 250000, paise: 0 });
    expect(parseMoney('रु. 3 करोड़')).toEqual({ rupees: 30000000, paise: 0 });
    expect(parseMoney('₹0.755')).toEqual({ rupees: 0, paise: 76 });
    expect(moneyValue('9', '999', undefined)).toEqual({ rupees: 10, paise: 0 });
    expect(parseMoney('₹ lots')).toBeNull();
  });

  it('parses dates in the given field order and rejects impossible ones', () => {
    expect(parseDate('21/11/2026')).toEqual({ day: 21, month: 11, year: 2026 });
    expect(parseDate('11-21-26', 'mdy')).toEqual({ day: 21, month: 11, year: 2026 });
    expect(parseDate('2026.11.21', 'ymd')).toEqual({ day: 21, month: 11, year: 2026 });
    expect(parseDate('21st Sept 2026')).toEqual({ day: 21, month: 9, year: 2026 });
    expect(parseDate('31/02/2026')).toBeNull();
    expect(parseDate('1/13/2026')).toBeNull();
  });

  it('parses 24-hour and AM/PM times', () => {
    expect(parseTime('10:30')).toEqual({ hour24: 10, minute: 30, withPeriod: false });
    expect(parseTime('12:05 am')).toEqual({ hour24: 0, minute: 5, withPeriod: true });
    expect(parseTime('5 P.M.')).toEqual({ hour24: 17, minute: 0, withPeriod: true });
    expect(parseTime('18:00')).toEqual({ hour24: 18, minute: 0, withPeriod: true });
    expect(parseTime('13 PM')).toBeNull();
    expect(parseTime('10:75')).toBeNull();
  });

  it('groups digit strings for pauses: OTP 3+3, mobile 5+5, long ids in fours', () => {
    expect(digitGroups('4821')).toEqual(['4821']);
    expect(digitGroups('482913')).toEqual(['482', '913']);
    expect(digitGroups('9876543210')).toEqual(['98765', '43210']);
    expect(digitGroups('123456789')).toEqual(['1234', '56789']);
    expect(phoneWords('+919876543210', english)).toBe('plus nine one, nine eight seven six five, four three two one zero');
    expect(phoneWords('022-2345 6789', english)).toBe('zero two two, two three four five, six seven eight nine');
  });
});
