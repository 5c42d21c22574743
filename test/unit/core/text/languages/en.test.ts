// Indian English (en-IN). Sources, cited per group:
// [CLDR-IN] CLDR common/rbnf/en_IN.xml %spellout-cardinal: lakh and crore, `twenty-one`, no "and".
// [CLDR-en] CLDR common/rbnf/en.xml %spellout-ordinal and %spellout-numbering-year (nineteen ninety-eight,
//   two thousand five, twenty twenty-six, nineteen oh-five) and the x.x rule (point, then digits).
// [RBI] Reserve Bank of India cheque and bank style: amounts in rupees and paise ("rupees … and … paise").
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91, toll-free 1800.
// [Raaga] digit grouping rules in docs/api.md; clock readings as in the Oxford English Dictionary's "o'clock".

import { describeTable } from './table.js';

describeTable('en-IN', [
  // Cardinals [CLDR-IN].
  ['0', 'zero'],
  ['15', 'fifteen'],
  ['21', 'twenty-one'],
  ['99', 'ninety-nine'],
  ['100', 'one hundred'],
  ['101', 'one hundred one'],
  ['1234', 'one thousand two hundred thirty-four'],
  ['1,25,000', 'one lakh twenty-five thousand'],
  ['125000', 'one lakh twenty-five thousand'],
  ['12,34,56,789', 'twelve crore thirty-four lakh fifty-six thousand seven hundred eighty-nine'],
  ['1,00,00,000', 'one crore'],
  ['1,000,000', 'ten lakh'],
  // Indian digits [CLDR-IN].
  ['१२३', 'one hundred twenty-three'],
  // Decimals, negatives, ranges, percentages [CLDR-en x.x and -x rules].
  ['3.14', 'three point one four'],
  ['-25', 'minus twenty-five'],
  ['10-15', 'ten to fifteen'],
  ['50%', 'fifty percent'],
  ['10-15%', 'ten to fifteen percent'],
  // Ordinals [CLDR-en].
  ['1st', 'first'],
  ['22nd', 'twenty-second'],
  ['100th', 'one hundredth'],
  // Money [CLDR-IN numbers; RBI order].
  ['₹1,250.50', 'one thousand two hundred fifty rupees and fifty paise'],
  ['Rs. 500', 'five hundred rupees'],
  ['INR 2 lakh', 'two lakh rupees'],
  ['500/-', 'five hundred rupees'],
  ['₹1', 'one rupee'],
  ['₹0.75', 'seventy-five paise'],
  ['Rs. 1.5 crore', 'one crore fifty lakh rupees'],
  // Dates: ordinal day, month, year [CLDR-en ordinals and years].
  ['21/11/2026', 'twenty-first November twenty twenty-six'],
  ['21-11-2026', 'twenty-first November twenty twenty-six'],
  ['21 Nov 2026', 'twenty-first November twenty twenty-six'],
  ['2026-11-21', 'twenty-first November twenty twenty-six'],
  ['Nov 21, 2026', 'twenty-first November twenty twenty-six'],
  ['15/08/1947', 'fifteenth August nineteen forty-seven'],
  ['in 2005', 'in two thousand five'],
  ['in 1905', 'in nineteen oh-five'],
  // Times [Raaga; AM/PM left for the engine to spell].
  ['10:30', 'ten thirty'],
  ['10:00', "ten o'clock"],
  ['10:30 AM', 'ten thirty AM'],
  ['5 PM', 'five PM'],
  ['7:05 pm', 'seven oh five PM'],
  // Phone numbers [TRAI; Raaga grouping].
  ['+91 98765 43210', 'plus nine one, nine eight seven six five, four three two one zero'],
  ['9876543210', 'nine eight seven six five, four three two one zero'],
  ['1800 123 4567', 'one eight zero zero, one two three, four five six seven'],
  // OTPs, PINs, account and order numbers [Raaga grouping].
  ['your OTP is 482913', 'your OTP is four eight two, nine one three'],
  ['482913 is your OTP', 'four eight two, nine one three is your OTP'],
  ['PIN 4821', 'PIN four eight two one'],
  ['order no. 123456', 'order number one two three, four five six'],
  // Abbreviations, units, symbols, addresses.
  ['Dr. Rao', 'Doctor Rao'],
  ['Mrs. Iyer', 'Missus Iyer'],
  ['1 km', 'one kilometre'],
  ['10 kg', 'ten kilograms'],
  ['A & B', 'A and B'],
  ['help@raaga.in', 'help at raaga dot in'],
  ['www.raaga.in/help', 'www dot raaga dot in slash help'],
]);
