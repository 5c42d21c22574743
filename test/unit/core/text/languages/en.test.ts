// Indian English (en-IN). Sources, cited per group:
// [CLDR-IN] CLDR common/rbnf/en_IN.xml %spellout-cardinal: lakh and crore, `twenty-one`, no "and".
// [CLDR-en] CLDR common/rbnf/en.xml %spellout-ordinal and %spellout-numbering-year (nineteen ninety-eight,
//   two thousand five, twenty twenty-six, nineteen oh-five) and the x.x rule (point, then digits).
// [RBI] Reserve Bank of India cheque and bank style: amounts in rupees and paise ("rupees … and … paise").
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91, toll-free 1800.
// [Raaga] digit grouping rules in docs/api.md; clock readings as in the Oxford English Dictionary's "o'clock".
// [IndiaPost] India Post, Postal Index Number: six digits, the first (1-8) the postal region, 9 the Army Postal Service.
// [IR] Indian Railways (IRCTC): the PNR has 10 digits; train numbers 5 digits, announced digit by digit.
// [IATA] IATA Resolution 762: a flight designator is the 2-character airline code and up to 4 digits (6E 2134, AI 101).
// [RBI] RBI: the IFSC has 11 characters (bank code, 0, branch code); card numbers are shown masked to the last 4 digits.
// [NPCI] NPCI UPI: a virtual payment address is handle@psp (ramesh@okaxis).
// [MoRTH] Central Motor Vehicles Rules 1989, rule 50 / MoRTH notification: registration mark MH 12 AB 1234.
// [Oxford] Oxford Guide to Plain English / OED: fractions read as `three quarters`, `two and a half`; `+` plus, `=` equals.
// [ICC] ICC scorecards: 287/4 is read "287 for 4"; Indian commentary says the hundreds in pairs (two eighty-seven),
//   ten wickets all out. [Raaga] the slash rules in docs/api.md: a score needs a cricket word or a team right before
//   it; a zero-padded day/month is a date; 24/7 is its idiom; any other pair says its slash.
// [IEC] IEC 80000-13: GB gigabyte, MB megabyte, Mbit/s (Mbps) megabits per second.

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
  // PIN codes: six digits, read 3 + 3 after a PIN cue or at the end of an address [IndiaPost]; a quantity stays one.
  ['Deliver to Andheri East, Mumbai 400069.', 'Deliver to Andheri East, Mumbai four zero zero, zero six nine.'],
  ['Pincode 110001', 'Pincode one one zero, zero zero one'],
  ['PIN code: 600001', 'PIN code: six zero zero, zero zero one'],
  ['Flat 4, Kothrud, Pune 411038.', 'Flat four, Kothrud, Pune four one one, zero three eight.'],
  ['We sold 250001 units.', 'We sold two lakh fifty thousand one units.'],
  // Railway and airline identifiers digit by digit: PNR (10 digits), train numbers (5) [IR]; flight designators [IATA].
  ['PNR 4521873690', 'PNR four five two one eight, seven three six nine zero'],
  ['Train 12951 leaves at 5 PM', 'Train one two nine, five one leaves at five PM'],
  ['Flight 6E-2134', 'Flight six E, two one three four'],
  ['Flight AI 101', 'Flight AI one zero one'],
  // Order, booking and ticket numbers: a marker (No., ID, #) makes the number an identifier; the bare verb does not [Raaga].
  ['Booking ID: 4521', 'Booking ID: four five two one'],
  ['Order No. 4521', 'Order number four five two one'],
  ['order 100 pieces', 'order one hundred pieces'],
  ['Booking ref 4521-873', 'Booking ref four five two one, eight seven three'],
  ['Ticket 1234-5678-9012', 'Ticket one two three four, five six seven eight, nine zero one two'],
  // Bank and payment identifiers: IFSC (4 letters, 0, 6 characters) [RBI]; UPI ids (handle@psp) [NPCI]; masked cards [RBI].
  ['IFSC HDFC0001234', 'IFSC H D F C zero zero zero one, two three four'],
  ['Pay to ramesh.k@okhdfcbank', 'Pay to ramesh dot k at okhdfcbank'],
  ['Card ending 4321', 'Card ending four three two one'],
  ['Card XXXX1234', 'Card one two three four'],
  // Vehicle registration marks: state, RTO, series, number [MoRTH]; letter-digit codes spelled, a word keeps its number [Raaga].
  ['MH 12 AB 1234', 'M H, one two, A B, one two three four'],
  ['MH12AB1234', 'M H one two A B one two three four'],
  ['COVID-19 cases', 'COVID nineteen cases'],
  ['AB12CD34', 'A B one two C D three four'],
  // Fractions [Oxford]: half, quarters, thirds, eighths; mixed numbers with `and`. A house number (`H.No. 1/2`) is no fraction [Raaga].
  // Before a measure noun or unit, `half a`, `of a` [Oxford]; alone, `one half`; `3/4th` is three quarters.
  ['1/2 cup', 'half a cup'],
  ['3/4 cup', 'three quarters of a cup'],
  ['1/2', 'one half'],
  ['1/2 kg', 'half a kilogram'],
  ['2 1/2 kg', 'two and a half kilograms'],
  ['1/3 hour', 'one third of an hour'],
  ['3/4th of the class', 'three quarters of the class'],
  ['3/4 of the work', 'three quarters of the work'],
  ['1½ hours', 'one and a half hours'],
  ['2 1/2 hours', 'two and a half hours'],
  ['2/3 of voters', 'two thirds of voters'],
  ['5/8 inch', 'five eighths of an inch'],
  ['H.No. 1/2, MG Road', 'H. number one slash two, MG Road'],
  // A cricket score is runs `for` wickets [ICC]; arithmetic as read aloud [Oxford]; data and speed units [IEC]; ordinals [CLDR-en].
  ['India 287/4 after 50 overs', 'India two eighty-seven for four after fifty overs'],
  ['Match on 12/05: 287/4 in 50 overs', 'Match on twelfth May: two eighty-seven for four in fifty overs'],
  ['IND 287/4', 'IND two eighty-seven for four'],
  ['India were 287/4 at stumps', 'India were two eighty-seven for four at stumps'],
  ['Score: 305/3', 'Score: three hundred five for three'],
  ['AUS 287/10', 'AUS two eighty-seven all out'],
  // Other slash pairs [Raaga]: no context, the slash is said; dates stay dates; 24/7; a ratio; words and longer runs as written.
  ['287/4', 'two hundred eighty-seven slash four'],
  ['15/08', 'fifteenth August'],
  ['15/08/2024', 'fifteenth August twenty twenty-four'],
  ['24/7 support', 'twenty-four seven support'],
  ['in the ratio 3/2', 'in the ratio three to two'],
  ['and/or', 'and/or'],
  ['2023/045', 'two thousand twenty-three slash zero four five'],
  ['5 + 3 = 8', 'five plus three equals eight'],
  ['12 × 4 = 48', 'twelve times four equals forty-eight'],
  ['2 GB data', 'two gigabytes data'],
  ['100 Mbps', 'one hundred megabits per second'],
  ['He finished 21st', 'He finished twenty-first'],
]);
