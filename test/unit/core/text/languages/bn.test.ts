// Bengali (bn-IN). Sources, cited per group:
// [CLDR] CLDR common/rbnf/bn.xml (%spellout-cardinal with joined hundreds `<<শো`, %spellout-ordinal, x.x and -x).
// [CLDR-cal] CLDR 48 bn gregorian month names and dayPeriods (abbreviated: ভোর, সকাল, দুপুর, বিকাল, সন্ধ্যা,
//   রাত্রি) with bn dayPeriodRules, as served by Node's ICU.
// [Thompson] H.-R. Thompson, Bengali: A Comprehensive Grammar (Routledge 2010): the clock classifier -টা and
//   বেজে … মিনিট, years in hundreds (উনিশশো), টাকা and পয়সা, থেকে, শতাংশ.
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91.  [Raaga] digit grouping rules in docs/api.md.

// [WBBPE] West Bengal Board of Primary Education, গণিত: যোগ, বিয়োগ, গুণ, ভাগ, সমান; ভগ্নাংশ তিন ভাগের এক.
// [Chatterji] Suniti Kumar Chatterji, ভাষা-প্রকাশ বাঙ্গালা ব্যাকরণ: আধা, দেড়, আড়াই, সাড়ে, সোয়া, পৌনে, চতুর্থাংশ.
// [IndiaPost] India Post PIN codes (six digits). [IR] Indian Railways: 10-digit PNR, 5-digit train numbers read digit by digit.
// [IATA] flight designators (6E 2134). [RBI] IFSC and masked cards. [NPCI] UPI ids. [MoRTH] registration marks.
// [IEC] IEC 80000-13 units (GB, Mbps). [Raaga] letter-digit codes spelled, a word keeps its number (COVID-19).
// [Anandabazar] Bengali match reports: `৪ উইকেটে ২৮৭ রান` (wickets first).
import { describeTable } from './table.js';

describeTable('bn-IN', [
  // Cardinals [CLDR].
  ['0', 'শূন্য'],
  ['15', 'পনেরো'],
  ['21', 'একুশ'],
  ['45', 'পঁয়তাল্লিশ'],
  ['99', 'নিরানব্বই'],
  ['100', 'একশো'],
  ['101', 'একশো এক'],
  ['250', 'দুইশো পঞ্চাশ'],
  ['1234', 'এক হাজার দুইশো চৌত্রিশ'],
  ['1,25,000', 'এক লাখ পঁচিশ হাজার'],
  ['125000', 'এক লাখ পঁচিশ হাজার'],
  ['12,34,56,789', 'বারো কোটি চৌত্রিশ লাখ ছাপান্ন হাজার সাতশো উননব্বই'],
  ['1,00,00,000', 'এক কোটি'],
  // Indian digits [CLDR].
  ['১২৩', 'একশো তেইশ'],
  // Decimals, negatives, ranges, percentages [CLDR; থেকে, শতাংশ: Thompson].
  ['3.14', 'তিন দশমিক এক চার'],
  ['-25', 'ঋণ পঁচিশ'],
  ['10-15', 'দশ থেকে পনেরো'],
  ['50%', 'পঞ্চাশ শতাংশ'],
  // Ordinals [CLDR %spellout-ordinal: Sanskrit forms to 10, then -তম].
  ['১ম', 'প্রথম'],
  ['৪র্থ', 'চতুর্থ'],
  ['11th', 'এগারোতম'],
  // Money: টাকা then পয়সা [CLDR numbers; Thompson].
  ['₹1,250.50', 'এক হাজার দুইশো পঞ্চাশ টাকা পঞ্চাশ পয়সা'],
  ['Rs. 500', 'পাঁচশো টাকা'],
  ['INR 2 lakh', 'দুই লাখ টাকা'],
  ['500/-', 'পাঁচশো টাকা'],
  ['₹1', 'এক টাকা'],
  ['₹0.75', 'পঁচাত্তর পয়সা'],
  // Dates [CLDR-cal months; Thompson years in hundreds].
  ['21/11/2026', 'একুশ নভেম্বর দুই হাজার ছাব্বিশ'],
  ['21-11-2026', 'একুশ নভেম্বর দুই হাজার ছাব্বিশ'],
  ['21 Nov 2026', 'একুশ নভেম্বর দুই হাজার ছাব্বিশ'],
  ['2026-11-21', 'একুশ নভেম্বর দুই হাজার ছাব্বিশ'],
  ['15/08/1947', 'পনেরো আগস্ট উনিশশো সাতচল্লিশ'],
  // Times [Thompson -টা, বেজে; CLDR-cal day periods].
  ['10:30', 'দশটা বেজে ত্রিশ মিনিট'],
  ['10:30 AM', 'সকাল দশটা বেজে ত্রিশ মিনিট'],
  ['5 PM', 'বিকাল পাঁচটা'],
  ['7:05 PM', 'সন্ধ্যা সাতটা বেজে পাঁচ মিনিট'],
  ['12:00 PM', 'দুপুর বারোটা'],
  // Phone numbers [TRAI; Raaga grouping].
  ['+91 98765 43210', 'প্লাস নয় এক, নয় আট সাত ছয় পাঁচ, চার তিন দুই এক শূন্য'],
  ['9876543210', 'নয় আট সাত ছয় পাঁচ, চার তিন দুই এক শূন্য'],
  // OTPs and PINs [Raaga grouping; CLDR digit names].
  ['আপনার ওটিপি 482913', 'আপনার ওটিপি চার আট দুই, নয় এক তিন'],
  ['PIN 4821', 'PIN চার আট দুই এক'],
  // Abbreviations, units, symbols, addresses.
  ['Dr. Sen', 'ডক্টর Sen'],
  ['10 kg', 'দশ কিলোগ্রাম'],
  ['A & B', 'A এবং B'],
  ['help@raaga.in', 'help অ্যাট raaga ডট in'],
  // Identifiers digit by digit: PIN codes by cue or address, railway, airline, booking, bank, payment and vehicle ones [IndiaPost, IR, IATA, RBI, NPCI, MoRTH, Raaga]; a quantity stays one.
  ['PIN 560001', 'PIN পাঁচ ছয় শূন্য, শূন্য শূন্য এক'],
  ['পিন কোড 700001', 'পিন কোড সাত শূন্য শূন্য, শূন্য শূন্য এক'],
  ['পার্ক স্ট্রিট রোড, কলকাতা 700016', 'পার্ক স্ট্রিট রোড, কলকাতা সাত শূন্য শূন্য, শূন্য এক ছয়'],
  ['মোট 250001 জন।', 'মোট দুই লাখ পঞ্চাশ হাজার এক জন।'],
  ['PNR 4521873690', 'PNR চার পাঁচ দুই এক আট, সাত তিন ছয় নয় শূন্য'],
  ['ট্রেন 12951', 'ট্রেন এক দুই নয়, পাঁচ এক'],
  ['Flight 6E-2134', 'Flight ছয় E, দুই এক তিন চার'],
  ['Booking ID: 4521', 'Booking ID: চার পাঁচ দুই এক'],
  ['4521-873', 'চার পাঁচ দুই এক, আট সাত তিন'],
  ['IFSC HDFC0001234', 'IFSC H D F C শূন্য শূন্য শূন্য এক, দুই তিন চার'],
  ['ramesh@okaxis', 'ramesh অ্যাট okaxis'],
  ['XXXX4321', 'চার তিন দুই এক'],
  ['MH 12 AB 1234', 'M H, এক দুই, A B, এক দুই তিন চার'],
  ['AB12CD34', 'A B এক দুই C D তিন চার'],
  ['COVID-19', 'COVID উনিশ'],
  // Fractions and arithmetic as the language says them; data and speed units [IEC].
  ['½ কেজি', 'আধা কেজি'],
  ['¾', 'তিন চতুর্থাংশ'],
  ['1½', 'দেড়'],
  ['2½', 'আড়াই'],
  ['3½', 'সাড়ে তিন'],
  ['100 Mbps', 'একশো এমবিপিএস'],
  ['2 GB', 'দুই জিবি'],
  ['2¼', 'সোয়া দুই'],
  ['4¾', 'পৌনে পাঁচ'],
  ['5 + 3 = 8', 'পাঁচ যোগ তিন সমান আট'],
  ['12 × 4 = 48', 'বারো গুণ চার সমান আটচল্লিশ'],
  ['1/3', 'তিন ভাগের এক'],
  // A cricket score as the language's match reports write it.
  ['ভারত 50 ওভারে 287/4', 'ভারত পঞ্চাশ ওভারে চার উইকেটে দুইশো সাতাশি রান'],
  // Ordinals after a space; the days of the month (তারিখ): পয়লা, দোসরা, চৌঠা, cardinal + ই (5-18), + এ (19-31).
  ['১৫তম', 'পনেরোতম'],
  ['১৫ তম', 'পনেরোতম'],
  ['১লা বৈশাখ', 'পয়লা বৈশাখ'],
  ['২রা', 'দোসরা'],
  ['৪ঠা', 'চৌঠা'],
  ['১৫ই আগস্ট', 'পনেরোই আগস্ট'],
  ['২১শে ফেব্রুয়ারি', 'একুশে ফেব্রুয়ারি'],
  ['২০শে', 'বিশে'],
  // Case endings and classifiers written onto digits join the number word; two is দু before a classifier.
  ['২০২৪-এ', 'দুই হাজার চব্বিশে'],
  ['২০১৫-এ', 'দুই হাজার পনেরোতে'],
  ['৫টি বই', 'পাঁচটি বই'],
  ['২টি', 'দুটি'],
  ['২জন', 'দুজন'],
  ['১০টা', 'দশটা'],
  // Slash pairs [Raaga]: a team right before makes a score; otherwise the slash is said.
  ['ভারত 287/4', 'ভারত চার উইকেটে দুইশো সাতাশি রান'],
  ['287/4', 'দুইশো সাতাশি স্ল্যাশ চার'],
  ['24/7', 'চব্বিশ সাত'],
]);
