// Hindi (hi-IN). Sources, cited per group:
// [CLDR] CLDR 48 common/rbnf/hi.xml (%spellout-cardinal, %spellout-ordinal-*; the x.x rule reads decimals digit by digit).
// [CLDR-cal] CLDR 48 hi gregorian month names (format, wide) and dayPeriods with hi dayPeriodRules, as served by Node's ICU.
// [McGregor] R. S. McGregor, Outline of Hindi Grammar, 3rd ed. (OUP 1995): बजे / बजकर … मिनट, years in hundreds
//   (सन् उन्नीस सौ सैंतालीस), ordinal -वाँ/-वीं/-वें, रुपया/रुपये and पैसा/पैसे.
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers (written 98765 43210), country code +91.
// [Raaga] our reading rules documented in docs/api.md (digit strings by digit with comma pauses: OTP 3+3, mobile 5+5).

import { describeTable } from './table.js';

describeTable('hi-IN', [
  // Cardinals in the Indian system [CLDR].
  ['0', 'शून्य'],
  ['15', 'पन्द्रह'],
  ['21', 'इक्कीस'],
  ['45', 'पैंतालीस'],
  ['79', 'उनासी'],
  ['99', 'निन्यानबे'],
  ['100', 'एक सौ'],
  ['101', 'एक सौ एक'],
  ['999', 'नौ सौ निन्यानबे'],
  ['1234', 'एक हज़ार दो सौ चौंतीस'],
  ['99999', 'निन्यानबे हज़ार नौ सौ निन्यानबे'],
  ['1,25,000', 'एक लाख पच्चीस हज़ार'],
  ['125000', 'एक लाख पच्चीस हज़ार'],
  ['12,34,56,789', 'बारह करोड़ चौंतीस लाख छप्पन हज़ार सात सौ नवासी'],
  ['1,00,00,000', 'एक करोड़'],
  // Indian digits read like Latin digits [CLDR].
  ['१२३', 'एक सौ तेईस'],
  ['₹१,२५०', 'एक हज़ार दो सौ पचास रुपये'],
  // Decimals, negatives, ranges, percentages [CLDR x.x and -x rules; प्रतिशत, से: McGregor].
  ['3.14', 'तीन दशमलव एक चार'],
  ['-25', 'ऋण पच्चीस'],
  ['10-15', 'दस से पन्द्रह'],
  ['50%', 'पचास प्रतिशत'],
  ['12.5%', 'बारह दशमलव पाँच प्रतिशत'],
  // Ordinals [CLDR %spellout-ordinal-masculine/-feminine/-oblique; -वीं spelling: McGregor].
  ['1ला', 'पहला'],
  ['3री', 'तीसरी'],
  ['5वीं कक्षा', 'पाँचवीं कक्षा'],
  ['21वें', 'इक्कीसवें'],
  // Money: rupees then paise, रुपया/रुपये, पैसा/पैसे [CLDR numbers, McGregor nouns].
  ['₹1,250.50', 'एक हज़ार दो सौ पचास रुपये पचास पैसे'],
  ['Rs. 500', 'पाँच सौ रुपये'],
  ['INR 2 lakh', 'दो लाख रुपये'],
  ['500/-', 'पाँच सौ रुपये'],
  ['₹1', 'एक रुपया'],
  ['₹0.75', 'पचहत्तर पैसे'],
  ['₹2.01', 'दो रुपये एक पैसा'],
  ['आपके खाते में 5000 रुपये हैं', 'आपके खाते में पाँच हज़ार रुपये हैं'],
  // Dates: day month year [CLDR-cal months, McGregor years].
  ['21/11/2026', 'इक्कीस नवंबर दो हज़ार छब्बीस'],
  ['21-11-2026', 'इक्कीस नवंबर दो हज़ार छब्बीस'],
  ['21 Nov 2026', 'इक्कीस नवंबर दो हज़ार छब्बीस'],
  ['2026-11-21', 'इक्कीस नवंबर दो हज़ार छब्बीस'],
  ['15/08/1947', 'पन्द्रह अगस्त उन्नीस सौ सैंतालीस'],
  ['सन् 1998 में', 'सन् उन्नीस सौ अट्ठानबे में'],
  // Times [McGregor बजे/बजकर; CLDR-cal day periods: सुबह 4-12, दोपहर 12-16, शाम 16-20, रात 20-4].
  ['10:30', 'दस बजकर तीस मिनट'],
  ['10:30 AM', 'सुबह दस बजकर तीस मिनट'],
  ['5 PM', 'शाम पाँच बजे'],
  ['12:00 PM', 'दोपहर बारह बजे'],
  ['21:15', 'रात नौ बजकर पन्द्रह मिनट'],
  // Phone numbers digit by digit [TRAI formats, Raaga grouping].
  ['+91 98765 43210', 'प्लस नौ एक, नौ आठ सात छह पाँच, चार तीन दो एक शून्य'],
  ['9876543210', 'नौ आठ सात छह पाँच, चार तीन दो एक शून्य'],
  // OTPs, PINs, account numbers [Raaga grouping, CLDR digit names].
  ['आपका ओटीपी 482913 है', 'आपका ओटीपी चार आठ दो, नौ एक तीन है'],
  ['your OTP is 482913', 'your OTP is चार आठ दो, नौ एक तीन'],
  ['खाता संख्या 123456789012', 'खाता संख्या एक दो तीन चार, पाँच छह सात आठ, नौ शून्य एक दो'],
  // Abbreviations, units, symbols, addresses; Latin words stay for the engine's language switch.
  ['Dr. Rao', 'डॉक्टर Rao'],
  ['5 km', 'पाँच किलोमीटर'],
  ['A & B', 'A और B'],
  ['support@raaga.in', 'support एट raaga डॉट in'],
]);
