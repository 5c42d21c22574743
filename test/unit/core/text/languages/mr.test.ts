// Marathi (mr-IN). Sources, cited per group:
// [CLDR] CLDR common/rbnf/mr.xml (%spellout-cardinal: शंभर, एकशे, दोनशे; %spellout-ordinal-*; x.x and -x rules).
// [CLDR-cal] CLDR 48 mr gregorian month names and dayPeriods with mr dayPeriodRules (Node's ICU), in the locative
//   (सकाळी, दुपारी, संध्याकाळी, रात्री) that Marathi times take.
// [Dhongde] R. V. Dhongde & K. Wali, Marathi (London Oriental and African Language Library 13, 2009): वाजता /
//   वाजून … मिनिटे, years in hundreds (एकोणीसशे), रुपया/रुपये, पैसा/पैसे, टक्के, ते.
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91.  [Raaga] digit grouping rules in docs/api.md.

// [Damle] मो. के. दामले, शास्त्रीय मराठी व्याकरण: अपूर्णांक पाव, अर्धा, पाऊण, सव्वा, दीड, अडीच, साडे, पावणे.
// [Balbharati] Maharashtra State Bureau of Textbook Production (Balbharati), गणित: अधिक, वजा, गुणिले, भागिले, बरोबर; एक बटे तीन.
// [IndiaPost] India Post PIN codes (six digits). [IR] Indian Railways: 10-digit PNR, 5-digit train numbers read digit by digit.
// [IATA] flight designators (6E 2134). [RBI] IFSC and masked cards. [NPCI] UPI ids. [MoRTH] registration marks.
// [IEC] IEC 80000-13 units (GB, Mbps). [Raaga] letter-digit codes spelled, a word keeps its number (COVID-19).
// [Marathi press] Zee 24 Taas / TV9 Marathi match reports: `७ बाद ६२२`, `बिनबाद 4 धावा` (wickets first).
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
  // Identifiers digit by digit: PIN codes by cue or address, railway, airline, booking, bank, payment and vehicle ones [IndiaPost, IR, IATA, RBI, NPCI, MoRTH, Raaga]; a quantity stays one.
  ['PIN 560001', 'PIN पाच सहा शून्य, शून्य शून्य एक'],
  ['पिन कोड 411001', 'पिन कोड चार एक एक, शून्य शून्य एक'],
  ['सदाशिव पेठ, पुणे 411030', 'सदाशिव पेठ, पुणे चार एक एक, शून्य तीन शून्य'],
  ['एकूण 250001 लोक.', 'एकूण दोन लाख पन्नास हजार एक लोक.'],
  ['PNR 4521873690', 'PNR चार पाच दोन एक आठ, सात तीन सहा नऊ शून्य'],
  ['गाडी क्रमांक 12951', 'गाडी क्रमांक एक दोन नऊ, पाच एक'],
  ['Flight 6E-2134', 'Flight सहा E, दोन एक तीन चार'],
  ['Booking ID: 4521', 'Booking ID: चार पाच दोन एक'],
  ['4521-873', 'चार पाच दोन एक, आठ सात तीन'],
  ['IFSC HDFC0001234', 'IFSC H D F C शून्य शून्य शून्य एक, दोन तीन चार'],
  ['ramesh@okaxis', 'ramesh ॲट okaxis'],
  ['XXXX4321', 'चार तीन दोन एक'],
  ['MH 12 AB 1234', 'M H, एक दोन, A B, एक दोन तीन चार'],
  ['AB12CD34', 'A B एक दोन C D तीन चार'],
  ['COVID-19', 'COVID एकोणीस'],
  // Fractions and arithmetic as the language says them; data and speed units [IEC].
  ['½ किलो', 'अर्धा किलो'],
  ['¾', 'पाऊण'],
  ['1½', 'दीड'],
  ['2½', 'अडीच'],
  ['3½', 'साडे तीन'],
  ['100 Mbps', 'शंभर एमबीपीएस'],
  ['2 GB', 'दोन जीबी'],
  ['2¼', 'सव्वा दोन'],
  ['4¾', 'पावणे पाच'],
  ['5 + 3 = 8', 'पाच अधिक तीन बरोबर आठ'],
  ['12 × 4 = 48', 'बारा गुणिले चार बरोबर अठ्ठेचाळीस'],
  ['1/3', 'एक बटे तीन'],
  // A cricket score as the language's match reports write it.
  ['भारत 50 षटकांत 287/4', 'भारत पन्नास षटकांत चार बाद दोनशे सत्त्याऐंशी'],
  ['भारत 287/0 धावा', 'भारत बिनबाद दोनशे सत्त्याऐंशी धावा'],
  // Ordinal endings belong to their numbers [CLDR mr]: पहिला, तिसरी; after another number ला, मध्ये, चा, पर्यंत are
  // case endings written onto the digits and join the number word (पाचला, चोवीसमध्ये).
  ['१ला', 'पहिला'],
  ['३री', 'तिसरी'],
  ['१५वा', 'पंधरावा'],
  ['५ला', 'पाचला'],
  ['२०२४मध्ये', 'दोन हजार चोवीसमध्ये'],
  ['१०चा', 'दहाचा'],
  ['१०पर्यंत', 'दहापर्यंत'],
  // Slash pairs [Raaga]: a team right before makes a score; otherwise बटे; a ratio is no fraction; dates stay dates.
  ['भारत 287/4', 'भारत चार बाद दोनशे सत्त्याऐंशी'],
  ['287/4', 'दोनशे सत्त्याऐंशी बटे चार'],
  ['गुणोत्तर 1/2', 'गुणोत्तर एक बटे दोन'],
  ['15/08/2024', 'पंधरा ऑगस्ट दोन हजार चोवीस'],
  ['24/7', 'चोवीस सात'],
]);
