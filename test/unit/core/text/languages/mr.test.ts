// Marathi (mr-IN). Sources, cited per group:
// [CLDR] CLDR common/rbnf/mr.xml (%spellout-cardinal: शंभर, एकशे, दोनशे; %spellout-ordinal-*; x.x and -x rules).
// [CLDR-cal] CLDR 48 mr gregorian month names and dayPeriods with mr dayPeriodRules (Node's ICU), in the locative
//   (सकाळी, दुपारी, संध्याकाळी, रात्री) that Marathi times take.
// [Dhongde] R. V. Dhongde & K. Wali, Marathi (London Oriental and African Language Library 13, 2009): वाजता /
//   वाजून … मिनिटे, years in hundreds (एकोणीसशे), रुपया/रुपये, पैसा/पैसे, टक्के, ते.
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91.  [Raaga] digit grouping rules in docs/api.md.

import { describeTable } from './table.js';

describeTable('mr-IN', [
  // Cardinals [CLDR].
  ['0', 'शून्य'],
  ['15', 'पंधरा'],
  ['21', 'एकवीस'],
  ['45', 'पंचेचाळीस'],
  ['99', 'नव्व्याण्णव'],
  ['100', 'शंभर'],
  ['101', 'एकशे एक'],
  ['250', 'दोनशे पन्नास'],
  ['1234', 'एक हजार दोनशे चौतीस'],
  ['1,25,000', 'एक लाख पंचवीस हजार'],
  ['125000', 'एक लाख पंचवीस हजार'],
  ['12,34,56,789', 'बारा कोटी चौतीस लाख छप्पन्न हजार सातशे एकोणनव्वद'],
  ['1,00,00,000', 'एक कोटी'],
  // Indian digits [CLDR].
  ['१२३', 'एकशे तेवीस'],
  // Decimals, negatives, ranges, percentages [CLDR; ते, टक्के: Dhongde].
  ['3.14', 'तीन दशांश एक चार'],
  ['-25', 'उणे पंचवीस'],
  ['10-15', 'दहा ते पंधरा'],
  ['50%', 'पन्नास टक्के'],
  ['12.5%', 'बारा दशांश पाच टक्के'],
  // Ordinals [CLDR: पहिला, दुसरी, cardinal + (ा)वा with the linking ा for 19-49].
  ['1ला', 'पहिला'],
  ['2री', 'दुसरी'],
  ['11वा', 'अकरावा'],
  ['21वा', 'एकवीसावा'],
  // Money [CLDR numbers; Dhongde nouns].
  ['₹1,250.50', 'एक हजार दोनशे पन्नास रुपये पन्नास पैसे'],
  ['Rs. 500', 'पाचशे रुपये'],
  ['INR 2 lakh', 'दोन लाख रुपये'],
  ['500/-', 'पाचशे रुपये'],
  ['₹1', 'एक रुपया'],
  ['₹0.75', 'पंच्याहत्तर पैसे'],
  ['₹10,00,000', 'दहा लाख रुपये'],
  // Dates [CLDR-cal months; Dhongde years].
  ['21/11/2026', 'एकवीस नोव्हेंबर दोन हजार सव्वीस'],
  ['21-11-2026', 'एकवीस नोव्हेंबर दोन हजार सव्वीस'],
  ['21 Nov 2026', 'एकवीस नोव्हेंबर दोन हजार सव्वीस'],
  ['2026-11-21', 'एकवीस नोव्हेंबर दोन हजार सव्वीस'],
  ['15/08/1947', 'पंधरा ऑगस्ट एकोणीसशे सत्तेचाळीस'],
  // Times [Dhongde; CLDR-cal day periods].
  ['10:30', 'दहा वाजून तीस मिनिटे'],
  ['10:30 AM', 'सकाळी दहा वाजून तीस मिनिटे'],
  ['5 PM', 'संध्याकाळी पाच वाजता'],
  ['7:05 PM', 'संध्याकाळी सात वाजून पाच मिनिटे'],
  ['12:00 PM', 'दुपारी बारा वाजता'],
  // Phone numbers [TRAI; Raaga grouping].
  ['+91 98765 43210', 'प्लस नऊ एक, नऊ आठ सात सहा पाच, चार तीन दोन एक शून्य'],
  ['9876543210', 'नऊ आठ सात सहा पाच, चार तीन दोन एक शून्य'],
  // OTPs and PINs [Raaga grouping; CLDR digit names].
  ['तुमचा ओटीपी 482913 आहे', 'तुमचा ओटीपी चार आठ दोन, नऊ एक तीन आहे'],
  ['PIN 4821', 'PIN चार आठ दोन एक'],
  // Abbreviations, units, symbols, addresses.
  ['डॉ. पाटील', 'डॉक्टर पाटील'],
  ['10 kg', 'दहा किलोग्रॅम'],
  ['A & B', 'A आणि B'],
  ['help@raaga.in', 'help ॲट raaga डॉट in'],
]);
