// Hindi (hi-IN). Sources, cited per group:
// [CLDR] CLDR 48 common/rbnf/hi.xml (%spellout-cardinal, %spellout-ordinal-*; the x.x rule reads decimals digit by digit).
// [CLDR-cal] CLDR 48 hi gregorian month names (format, wide) and dayPeriods with hi dayPeriodRules, as served by Node's ICU.
// [McGregor] R. S. McGregor, Outline of Hindi Grammar, 3rd ed. (OUP 1995): बजे / बजकर … मिनट, years in hundreds
//   (सन् उन्नीस सौ सैंतालीस), ordinal -वाँ/-वीं/-वें, रुपया/रुपये and पैसा/पैसे.
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers (written 98765 43210), country code +91.
// [Raaga] our reading rules documented in docs/api.md (digit strings by digit with comma pauses: OTP 3+3, mobile 5+5).
// [IndiaPost] India Post, Postal Index Number: six digits, first digit the postal region.
// [IR] Indian Railways: 10-digit PNR; 5-digit train numbers announced digit by digit (गाड़ी संख्या एक दो नौ पाँच एक).
// [IATA] IATA Resolution 762 flight designators (6E 2134). [RBI] IFSC, masked cards. [NPCI] UPI ids.
// [MoRTH] Central Motor Vehicles Rules 1989: registration marks (MH 12 AB 1234).
// [McGregor] also §fractions: आधा, पौन, सवा, साढ़े, पौने, डेढ़, ढाई, चौथाई, तिहाई.
// [NCERT] NCERT Hindi-medium गणित (classes 1-5): धन (+), ऋण (−), गुणा (×), भाग (÷), बराबर (=), भिन्न read n बटा d.
// [Hindi commentary] Doordarshan/Akashvani cricket commentary: 287/4 read `दो सौ सत्तासी पर चार`.

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
  // PIN codes 3 + 3 after पिन/PIN or at the end of an address [IndiaPost]; a quantity stays one.
  ['पिन कोड 110001', 'पिन कोड एक एक शून्य, शून्य शून्य एक'],
  ['अंधेरी पूर्व, मुंबई 400069', 'अंधेरी पूर्व, मुंबई चार शून्य शून्य, शून्य छह नौ'],
  ['गांधी नगर, भोपाल 462001', 'गांधी नगर, भोपाल चार छह दो, शून्य शून्य एक'],
  ['कुल लोग 250001।', 'कुल लोग दो लाख पचास हज़ार एक।'],
  // Railway, airline and booking identifiers digit by digit [IR, IATA]; a code with a falling hyphen is no range [Raaga].
  ['पीएनआर 4521873690', 'पीएनआर चार पाँच दो एक आठ, सात तीन छह नौ शून्य'],
  ['गाड़ी संख्या 12951 प्लेटफॉर्म 3 पर आएगी', 'गाड़ी संख्या एक दो नौ, पाँच एक प्लेटफॉर्म तीन पर आएगी'],
  ['फ्लाइट 6E-2134', 'फ्लाइट छह E, दो एक तीन चार'],
  ['बुकिंग 4521-873', 'बुकिंग चार पाँच दो एक, आठ सात तीन'],
  // Bank and payment identifiers [RBI, NPCI]; vehicle registrations [MoRTH]; letter-digit codes spelled [Raaga].
  ['IFSC HDFC0001234', 'IFSC H D F C शून्य शून्य शून्य एक, दो तीन चार'],
  ['UPI ramesh@okaxis', 'UPI ramesh एट okaxis'],
  ['कार्ड XXXX4321', 'कार्ड चार तीन दो एक'],
  ['MH 12 AB 1234', 'M H, एक दो, A B, एक दो तीन चार'],
  ['बुकिंग आईडी AB12CD34', 'बुकिंग आईडी A B एक दो C D तीन चार'],
  // Fractions: आधा, पौन, चौथाई, तिहाई; डेढ़, ढाई, साढ़े, सवा, पौने; others n बटा d [McGregor, NCERT].
  ['1/2 किलो', 'आधा किलो'],
  ['½ लीटर', 'आधा लीटर'],
  ['1½ घंटे', 'डेढ़ घंटे'],
  ['2½ लाख', 'ढाई लाख'],
  ['3½ किलो', 'साढ़े तीन किलो'],
  ['1¼ घंटा', 'सवा घंटा'],
  ['2¼ किलो', 'सवा दो किलो'],
  ['3¾ किलो', 'पौने चार किलो'],
  ['1/3 हिस्सा', 'एक तिहाई हिस्सा'],
  ['3/8 इंच', 'तीन बटा आठ इंच'],
  // Cricket score runs पर wickets [Hindi commentary]; arithmetic धन ऋण गुणा भाग बराबर [NCERT]; units; ordinals [CLDR].
  ['भारत ने 50 ओवर में 287/4 रन बनाए', 'भारत ने पचास ओवर में दो सौ सत्तासी पर चार रन बनाए'],
  // Ordinal endings [CLDR hi]: after a space too (not the words वे, था, ला); ला, री, था belong to 1, 2-3, 4.
  ['15 वाँ', 'पन्द्रहवाँ'],
  ['21वीं सदी', 'इक्कीसवीं सदी'],
  ['1ला', 'पहला'],
  ['2री', 'दूसरी'],
  ['6ठा', 'छठा'],
  // Slash pairs [Raaga]: a team right before makes a score; otherwise बटा, as Hindi reads house numbers and fractions.
  ['भारत 287/4', 'भारत दो सौ सत्तासी पर चार'],
  ['IND 287/4', 'IND दो सौ सत्तासी पर चार'],
  ['287/4', 'दो सौ सत्तासी बटा चार'],
  ['मकान नंबर 12/4', 'मकान नंबर बारह बटा चार'],
  ['अनुपात 1/2', 'अनुपात एक बटा दो'],
  ['1/2 kg', 'आधा किलोग्राम'],
  ['15/08 को', 'पन्द्रह अगस्त को'],
  ['15/08/2024', 'पन्द्रह अगस्त दो हज़ार चौबीस'],
  ['24/7 सेवा', 'चौबीस सात सेवा'],
  ['5 + 3 = 8', 'पाँच धन तीन बराबर आठ'],
  ['12 × 4 = 48', 'बारह गुणा चार बराबर अड़तालीस'],
  ['2 GB डेटा', 'दो जीबी डेटा'],
  ['100 Mbps', 'एक सौ एमबीपीएस'],
  ['21वाँ जन्मदिन', 'इक्कीसवाँ जन्मदिन'],
]);
