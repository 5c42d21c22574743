// Gujarati (gu-IN). Sources, cited per group:
// [CLDR] CLDR 48 common/rbnf/gu.xml (%spellout-cardinal with `N સો` hundreds, %spellout-ordinal-*, x.x and -x).
//   Two CLDR slips are fixed and pinned here: crore is spelt કરોડ઼ (stray nukta) and feminine 1st પેહલી.
// [CLDR-cal] CLDR 48 gu gregorian month names and dayPeriods (સવારે, બપોરે, સાંજે, રાત્રે) with gu dayPeriodRules.
// [Cardona] G. Cardona & B. Suthar, "Gujarati", in The Indo-Aryan Languages (Routledge 2003): વાગ્યે / વાગીને,
//   રૂપિયો/રૂપિયા, પૈસો/પૈસા, ટકા, થી.
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91.  [Raaga] digit grouping rules in docs/api.md.

// [GSSTB] Gujarat State Board of School Textbooks, ગણિત: વત્તા, ઓછા, ગુણ્યા, ભાગ્યા, બરાબર.
// [GujLex] Gujarati Lexicon (Gujarat Vidyapith's Sarth Jodanikosh entries): પા, અડધું, પોણું, સવા, દોઢ, અઢી, સાડા, પોણા.
// [IndiaPost] India Post PIN codes (six digits). [IR] Indian Railways: 10-digit PNR, 5-digit train numbers read digit by digit.
// [IATA] flight designators (6E 2134). [RBI] IFSC and masked cards. [NPCI] UPI ids. [MoRTH] registration marks.
// [IEC] IEC 80000-13 units (GB, Mbps). [Raaga] letter-digit codes spelled, a word keeps its number (COVID-19).
// [Gujarat Samachar] Gujarati match reports: `4 વિકેટે 287 રન` (wickets first).
import { describeTable } from './table.js';

describeTable('gu-IN', [
  // Cardinals [CLDR].
  ['0', 'શૂન્ય'],
  ['15', 'પંદર'],
  ['21', 'એકવીસ'],
  ['45', 'પિસ્તાલીસ'],
  ['99', 'નવ્વાણું'],
  ['100', 'એક સો'],
  ['101', 'એક સો એક'],
  ['250', 'બે સો પચાસ'],
  ['1234', 'એક હજાર બે સો ચોત્રીસ'],
  ['1,25,000', 'એક લાખ પચ્ચીસ હજાર'],
  ['125000', 'એક લાખ પચ્ચીસ હજાર'],
  // Crore without CLDR's stray nukta (કરોડ઼ → કરોડ).
  ['12,34,56,789', 'બાર કરોડ ચોત્રીસ લાખ છપ્પન હજાર સાત સો નેવ્યાસી'],
  ['1,00,00,000', 'એક કરોડ'],
  // Indian digits [CLDR].
  ['૧૨૩', 'એક સો તેવીસ'],
  // Decimals, negatives, ranges, percentages [CLDR; થી, ટકા: Cardona].
  ['3.14', 'ત્રણ દશાંશ એક ચાર'],
  ['-25', 'નકારાત્મક પચ્ચીસ'],
  ['10-15', 'દસ થી પંદર'],
  ['50%', 'પચાસ ટકા'],
  // Ordinals [CLDR masculine -મું, feminine -મી; પહેલી for CLDR's પેહલી].
  ['2જું', 'બીજું'],
  ['1લી', 'પહેલી'],
  ['7મું', 'સાતમું'],
  // Money [CLDR numbers; Cardona nouns].
  ['₹1,250.50', 'એક હજાર બે સો પચાસ રૂપિયા પચાસ પૈસા'],
  ['Rs. 500', 'પાંચ સો રૂપિયા'],
  ['INR 2 lakh', 'બે લાખ રૂપિયા'],
  ['500/-', 'પાંચ સો રૂપિયા'],
  ['₹1', 'એક રૂપિયો'],
  ['₹0.75', 'પંચોતેર પૈસા'],
  // Dates [CLDR-cal months; years in hundreds as Gujarati reads them].
  ['21/11/2026', 'એકવીસ નવેમ્બર બે હજાર છવીસ'],
  ['21-11-2026', 'એકવીસ નવેમ્બર બે હજાર છવીસ'],
  ['21 Nov 2026', 'એકવીસ નવેમ્બર બે હજાર છવીસ'],
  ['2026-11-21', 'એકવીસ નવેમ્બર બે હજાર છવીસ'],
  ['15/08/1947', 'પંદર ઑગસ્ટ ઓગણીસ સો સુડતાલીસ'],
  // Times [Cardona; CLDR-cal day periods].
  ['10:30', 'દસ વાગીને ત્રીસ મિનિટ'],
  ['10:30 AM', 'સવારે દસ વાગીને ત્રીસ મિનિટ'],
  ['5 PM', 'સાંજે પાંચ વાગ્યે'],
  ['12:00 PM', 'બપોરે બાર વાગ્યે'],
  ['22:45', 'રાત્રે દસ વાગીને પિસ્તાલીસ મિનિટ'],
  // Phone numbers [TRAI; Raaga grouping].
  ['+91 98765 43210', 'પ્લસ નવ એક, નવ આઠ સાત છ પાંચ, ચાર ત્રણ બે એક શૂન્ય'],
  ['9876543210', 'નવ આઠ સાત છ પાંચ, ચાર ત્રણ બે એક શૂન્ય'],
  // OTPs and PINs [Raaga grouping; CLDR digit names].
  ['તમારો ઓટીપી 482913 છે', 'તમારો ઓટીપી ચાર આઠ બે, નવ એક ત્રણ છે'],
  ['PIN 4821', 'PIN ચાર આઠ બે એક'],
  // Abbreviations, units, symbols, addresses.
  ['Dr. Shah', 'ડૉક્ટર Shah'],
  ['5 km', 'પાંચ કિલોમીટર'],
  ['A & B', 'A અને B'],
  ['help@raaga.in', 'help એટ raaga ડોટ in'],
  // Identifiers digit by digit: PIN codes by cue or address, railway, airline, booking, bank, payment and vehicle ones [IndiaPost, IR, IATA, RBI, NPCI, MoRTH, Raaga]; a quantity stays one.
  ['PIN 560001', 'PIN પાંચ છ શૂન્ય, શૂન્ય શૂન્ય એક'],
  ['પિન કોડ 380001', 'પિન કોડ ત્રણ આઠ શૂન્ય, શૂન્ય શૂન્ય એક'],
  ['સી જી રોડ, અમદાવાદ 380009', 'સી જી રોડ, અમદાવાદ ત્રણ આઠ શૂન્ય, શૂન્ય શૂન્ય નવ'],
  ['કુલ 250001 લોકો.', 'કુલ બે લાખ પચાસ હજાર એક લોકો.'],
  ['PNR 4521873690', 'PNR ચાર પાંચ બે એક આઠ, સાત ત્રણ છ નવ શૂન્ય'],
  ['ગાડી નંબર 12951', 'ગાડી નંબર એક બે નવ, પાંચ એક'],
  ['Flight 6E-2134', 'Flight છ E, બે એક ત્રણ ચાર'],
  ['Booking ID: 4521', 'Booking ID: ચાર પાંચ બે એક'],
  ['4521-873', 'ચાર પાંચ બે એક, આઠ સાત ત્રણ'],
  ['IFSC HDFC0001234', 'IFSC H D F C શૂન્ય શૂન્ય શૂન્ય એક, બે ત્રણ ચાર'],
  ['ramesh@okaxis', 'ramesh એટ okaxis'],
  ['XXXX4321', 'ચાર ત્રણ બે એક'],
  ['MH 12 AB 1234', 'M H, એક બે, A B, એક બે ત્રણ ચાર'],
  ['AB12CD34', 'A B એક બે C D ત્રણ ચાર'],
  ['COVID-19', 'COVID ઓગણીસ'],
  ['Order No. 4521', 'Order નંબર ચાર પાંચ બે એક'],
  // Fractions and arithmetic as the language says them; data and speed units [IEC].
  ['½', 'અડધું'],
  ['¾', 'પોણું'],
  ['1½', 'દોઢ'],
  ['2½', 'અઢી'],
  ['3½', 'સાડા ત્રણ'],
  ['100 Mbps', 'એક સો એમબીપીએસ'],
  ['2 GB', 'બે જીબી'],
  ['2¼', 'સવા બે'],
  ['4¾', 'પોણા પાંચ'],
  ['5 + 3 = 8', 'પાંચ વત્તા ત્રણ બરાબર આઠ'],
  ['12 × 4 = 48', 'બાર ગુણ્યા ચાર બરાબર અડતાલીસ'],
  // A cricket score as the language's match reports write it.
  ['ભારત 50 ઓવરમાં 287/4', 'ભારત પચાસ ઓવરમાં ચાર વિકેટે બે સો સિત્યાસી રન'],
  // Ordinal endings keep their gender [CLDR gu, with the masculine -ો]: પંદરમો, પંદરમી; થી makes an ordinal of 4 only,
  // after other numbers it is "from" (દસથી); માં, ના are written onto the digits and join the number word.
  ['15મો', 'પંદરમો'],
  ['15 મો', 'પંદરમો'],
  ['15મી ઓગસ્ટ', 'પંદરમી ઓગસ્ટ'],
  ['1લો', 'પહેલો'],
  ['4થી', 'ચોથી'],
  ['10થી', 'દસથી'],
  ['2024માં', 'બે હજાર ચોવીસમાં'],
  ['10ના', 'દસના'],
  ['5 મી', 'પાંચ મી'],
  // Slash pairs [Raaga]: a team right before makes a score; otherwise the slash is said.
  ['ભારત 287/4', 'ભારત ચાર વિકેટે બે સો સિત્યાસી રન'],
  ['287/4', 'બે સો સિત્યાસી સ્લેશ ચાર'],
  ['24/7', 'ચોવીસ સાત'],
]);
