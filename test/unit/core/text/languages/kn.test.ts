// Kannada (kn-IN). Sources, cited per group:
// [CLDR] CLDR common/rbnf/kn.xml, which has the joined forms: tens + %%unit-suffix (ಇಪ್ಪತ್ತೊಂದು, ಇಪ್ಪತ್ತಮೂರು),
//   ನೂರ[ >>|ು] hundreds, ಸಾವಿರ[ದ >>], ಒಂದು ಲಕ್ಷ[ದ >>], ಒಂದು ಕೋಟಿ[ಯ >>], ದಶಮಾಂಶ, ಋಣ, ordinal -ನೇ.
//   (npm to-words gets hundreds wrong, ಎರಡು ನೂರು for 200; CLDR's ಇನ್ನೂರು is pinned below.)
// [Sridhar] S. N. Sridhar, Kannada (Descriptive Grammars, Routledge 1990): ablative -ರಿಂದ with the -ar- augment
//   on numerals, ಶೇಕಡಾ before the number, ಗಂಟೆ / ನಿಮಿಷ, ರೂಪಾಯಿ and ಪೈಸೆ.
// [CLDR-cal] CLDR 48 kn months and dayPeriods (ಬೆಳಗ್ಗೆ 6-12, ಮಧ್ಯಾಹ್ನ 12-18, ಸಂಜೆ 18-21, ರಾತ್ರಿ).
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91.  [Raaga] digit grouping rules in docs/api.md.

// [Sridhar] S. N. Sridhar, Kannada (Routledge Descriptive Grammars, 1990): ಅರ್ಧ, ಕಾಲು, ಮುಕ್ಕಾಲು; ಒಂದೂವರೆ, ಎರಡೂವರೆ.
// [IndiaPost] India Post PIN codes (six digits). [IR] Indian Railways: 10-digit PNR, 5-digit train numbers read digit by digit.
// [IATA] flight designators (6E 2134). [RBI] IFSC and masked cards. [NPCI] UPI ids. [MoRTH] registration marks.
// [IEC] IEC 80000-13 units (GB, Mbps). [Raaga] letter-digit codes spelled, a word keeps its number (COVID-19).
// [Prajavani] Kannada match reports: `4 ವಿಕೆಟ್ ನಷ್ಟಕ್ಕೆ 287 ರನ್` (wickets first).
import { describeTable } from './table.js';

describeTable('kn-IN', [
  // Cardinals [CLDR].
  ['0', 'ಸೊನ್ನೆ'],
  ['15', 'ಹದಿನೈದು'],
  ['21', 'ಇಪ್ಪತ್ತೊಂದು'],
  ['23', 'ಇಪ್ಪತ್ತಮೂರು'],
  ['45', 'ನಲವತ್ತೈದು'],
  ['99', 'ತೊಂಬತ್ತೊಂಬತ್ತು'],
  ['100', 'ನೂರು'],
  ['101', 'ನೂರ ಒಂದು'],
  ['200', 'ಇನ್ನೂರು'],
  ['250', 'ಇನ್ನೂರ ಐವತ್ತು'],
  ['1000', 'ಸಾವಿರ'],
  ['1234', 'ಸಾವಿರದ ಇನ್ನೂರ ಮೂವತ್ತನಾಲ್ಕು'],
  ['2000', 'ಎರಡು ಸಾವಿರ'],
  ['1,25,000', 'ಒಂದು ಲಕ್ಷದ ಇಪ್ಪತ್ತೈದು ಸಾವಿರ'],
  ['125000', 'ಒಂದು ಲಕ್ಷದ ಇಪ್ಪತ್ತೈದು ಸಾವಿರ'],
  ['12,34,56,789', 'ಹನ್ನೆರಡು ಕೋಟಿಯ ಮೂವತ್ತನಾಲ್ಕು ಲಕ್ಷದ ಐವತ್ತಾರು ಸಾವಿರದ ಏಳುನೂರ ಎಂಬತ್ತೊಂಬತ್ತು'],
  ['1,00,00,000', 'ಒಂದು ಕೋಟಿ'],
  // Indian digits [CLDR].
  ['೧೨೩', 'ನೂರ ಇಪ್ಪತ್ತಮೂರು'],
  // Decimals, negatives, ranges, percentages [CLDR; Sridhar].
  ['3.14', 'ಮೂರು ದಶಮಾಂಶ ಒಂದು ನಾಲ್ಕು'],
  ['-25', 'ಋಣ ಇಪ್ಪತ್ತೈದು'],
  ['10-15', 'ಹತ್ತರಿಂದ ಹದಿನೈದು'],
  ['50%', 'ಶೇಕಡಾ ಐವತ್ತು'],
  // Ordinals [CLDR].
  ['1ನೇ', 'ಒಂದನೇ'],
  ['21ನೇ', 'ಇಪ್ಪತ್ತೊಂದನೇ'],
  ['100ನೇ', 'ನೂರನೇ'],
  // Money [CLDR numbers; Sridhar nouns].
  ['₹1,250.50', 'ಸಾವಿರದ ಇನ್ನೂರ ಐವತ್ತು ರೂಪಾಯಿ ಐವತ್ತು ಪೈಸೆ'],
  ['Rs. 500', 'ಐನೂರು ರೂಪಾಯಿ'],
  ['INR 2 lakh', 'ಎರಡು ಲಕ್ಷ ರೂಪಾಯಿ'],
  ['500/-', 'ಐನೂರು ರೂಪಾಯಿ'],
  ['₹1', 'ಒಂದು ರೂಪಾಯಿ'],
  ['₹0.75', 'ಎಪ್ಪತ್ತೈದು ಪೈಸೆ'],
  // Dates [CLDR-cal months; CLDR numbers].
  ['21/11/2026', 'ಇಪ್ಪತ್ತೊಂದು ನವೆಂಬರ್ ಎರಡು ಸಾವಿರದ ಇಪ್ಪತ್ತಾರು'],
  ['21-11-2026', 'ಇಪ್ಪತ್ತೊಂದು ನವೆಂಬರ್ ಎರಡು ಸಾವಿರದ ಇಪ್ಪತ್ತಾರು'],
  ['21 Nov 2026', 'ಇಪ್ಪತ್ತೊಂದು ನವೆಂಬರ್ ಎರಡು ಸಾವಿರದ ಇಪ್ಪತ್ತಾರು'],
  ['2026-11-21', 'ಇಪ್ಪತ್ತೊಂದು ನವೆಂಬರ್ ಎರಡು ಸಾವಿರದ ಇಪ್ಪತ್ತಾರು'],
  // Times [Sridhar; CLDR-cal day periods].
  ['10:30', 'ಹತ್ತು ಗಂಟೆ ಮೂವತ್ತು ನಿಮಿಷ'],
  ['10:30 AM', 'ಬೆಳಗ್ಗೆ ಹತ್ತು ಗಂಟೆ ಮೂವತ್ತು ನಿಮಿಷ'],
  ['5 PM', 'ಮಧ್ಯಾಹ್ನ ಐದು ಗಂಟೆ'],
  ['7:05 PM', 'ಸಂಜೆ ಏಳು ಗಂಟೆ ಐದು ನಿಮಿಷ'],
  ['22:00', 'ರಾತ್ರಿ ಹತ್ತು ಗಂಟೆ'],
  // Phone numbers [TRAI; Raaga grouping].
  ['+91 98765 43210', 'ಪ್ಲಸ್ ಒಂಬತ್ತು ಒಂದು, ಒಂಬತ್ತು ಎಂಟು ಏಳು ಆರು ಐದು, ನಾಲ್ಕು ಮೂರು ಎರಡು ಒಂದು ಸೊನ್ನೆ'],
  ['9876543210', 'ಒಂಬತ್ತು ಎಂಟು ಏಳು ಆರು ಐದು, ನಾಲ್ಕು ಮೂರು ಎರಡು ಒಂದು ಸೊನ್ನೆ'],
  // OTPs and PINs [Raaga grouping; CLDR digit names].
  ['ನಿಮ್ಮ ಒಟಿಪಿ 482913', 'ನಿಮ್ಮ ಒಟಿಪಿ ನಾಲ್ಕು ಎಂಟು ಎರಡು, ಒಂಬತ್ತು ಒಂದು ಮೂರು'],
  ['PIN 4821', 'PIN ನಾಲ್ಕು ಎಂಟು ಎರಡು ಒಂದು'],
  // Abbreviations, units, symbols, addresses.
  ['ಡಾ. ರಾವ್', 'ಡಾಕ್ಟರ್ ರಾವ್'],
  ['10 kg', 'ಹತ್ತು ಕಿಲೋಗ್ರಾಂ'],
  ['A & B', 'A ಮತ್ತು B'],
  ['help@raaga.in', 'help ಅಟ್ raaga ಡಾಟ್ in'],
  // Identifiers digit by digit: PIN codes by cue or address, railway, airline, booking, bank, payment and vehicle ones [IndiaPost, IR, IATA, RBI, NPCI, MoRTH, Raaga]; a quantity stays one.
  ['PIN 560001', 'PIN ಐದು ಆರು ಸೊನ್ನೆ, ಸೊನ್ನೆ ಸೊನ್ನೆ ಒಂದು'],
  ['ಪಿನ್ ಕೋಡ್ 560001', 'ಪಿನ್ ಕೋಡ್ ಐದು ಆರು ಸೊನ್ನೆ, ಸೊನ್ನೆ ಸೊನ್ನೆ ಒಂದು'],
  ['ಎಂಜಿ ರಸ್ತೆ, ಬೆಂಗಳೂರು 560001', 'ಎಂಜಿ ರಸ್ತೆ, ಬೆಂಗಳೂರು ಐದು ಆರು ಸೊನ್ನೆ, ಸೊನ್ನೆ ಸೊನ್ನೆ ಒಂದು'],
  ['ಒಟ್ಟು 250001 ಜನ.', 'ಒಟ್ಟು ಎರಡು ಲಕ್ಷದ ಐವತ್ತು ಸಾವಿರದ ಒಂದು ಜನ.'],
  ['PNR 4521873690', 'PNR ನಾಲ್ಕು ಐದು ಎರಡು ಒಂದು ಎಂಟು, ಏಳು ಮೂರು ಆರು ಒಂಬತ್ತು ಸೊನ್ನೆ'],
  ['ರೈಲು ಸಂಖ್ಯೆ 12951', 'ರೈಲು ಸಂಖ್ಯೆ ಒಂದು ಎರಡು ಒಂಬತ್ತು, ಐದು ಒಂದು'],
  ['Flight 6E-2134', 'Flight ಆರು E, ಎರಡು ಒಂದು ಮೂರು ನಾಲ್ಕು'],
  ['Booking ID: 4521', 'Booking ID: ನಾಲ್ಕು ಐದು ಎರಡು ಒಂದು'],
  ['4521-873', 'ನಾಲ್ಕು ಐದು ಎರಡು ಒಂದು, ಎಂಟು ಏಳು ಮೂರು'],
  ['IFSC HDFC0001234', 'IFSC H D F C ಸೊನ್ನೆ ಸೊನ್ನೆ ಸೊನ್ನೆ ಒಂದು, ಎರಡು ಮೂರು ನಾಲ್ಕು'],
  ['ramesh@okaxis', 'ramesh ಅಟ್ okaxis'],
  ['XXXX4321', 'ನಾಲ್ಕು ಮೂರು ಎರಡು ಒಂದು'],
  ['MH 12 AB 1234', 'M H, ಒಂದು ಎರಡು, A B, ಒಂದು ಎರಡು ಮೂರು ನಾಲ್ಕು'],
  ['AB12CD34', 'A B ಒಂದು ಎರಡು C D ಮೂರು ನಾಲ್ಕು'],
  ['COVID-19', 'COVID ಹತ್ತೊಂಬತ್ತು'],
  ['Ticket 1234-5678-9012', 'Ticket ಒಂದು ಎರಡು ಮೂರು ನಾಲ್ಕು, ಐದು ಆರು ಏಳು ಎಂಟು, ಒಂಬತ್ತು ಸೊನ್ನೆ ಒಂದು ಎರಡು'],
  ['Order No. 4521', 'Order ಸಂಖ್ಯೆ ನಾಲ್ಕು ಐದು ಎರಡು ಒಂದು'],
  ['MH12AB1234', 'M H ಒಂದು ಎರಡು A B ಒಂದು ಎರಡು ಮೂರು ನಾಲ್ಕು'],
  ['Card ending 4321', 'Card ending ನಾಲ್ಕು ಮೂರು ಎರಡು ಒಂದು'],
  ['Pincode 500001', 'Pincode ಐದು ಸೊನ್ನೆ ಸೊನ್ನೆ, ಸೊನ್ನೆ ಸೊನ್ನೆ ಒಂದು'],
  // Fractions and arithmetic as the language says them; data and speed units [IEC].
  ['½ ಕಿಲೋ', 'ಅರ್ಧ ಕಿಲೋ'],
  ['¾', 'ಮುಕ್ಕಾಲು'],
  ['1½', 'ಒಂದೂವರೆ'],
  ['2½', 'ಎರಡೂವರೆ'],
  ['3½', 'ಮೂರೂವರೆ'],
  // Arithmetic by the signs' English names, as `+91` is read ಪ್ಲಸ್ [Raaga].
  ['5 + 3 = 8', 'ಐದು ಪ್ಲಸ್ ಮೂರು ಈಕ್ವಲ್ಸ್ ಎಂಟು'],
  ['6 × 7 = 42', 'ಆರು ಇಂಟು ಏಳು ಈಕ್ವಲ್ಸ್ ನಲವತ್ತೆರಡು'],
  ['100 Mbps', 'ನೂರು ಎಂಬಿಪಿಎಸ್'],
  ['2 GB', 'ಎರಡು ಜಿಬಿ'],
  // A cricket score as the language's match reports write it.
  ['ಭಾರತ 50 ಓವರ್‌ಗಳಲ್ಲಿ 287/4', 'ಭಾರತ ಐವತ್ತು ಓವರ್‌ಗಳಲ್ಲಿ ನಾಲ್ಕು ವಿಕೆಟ್ ನಷ್ಟಕ್ಕೆ ಇನ್ನೂರ ಎಂಬತ್ತೇಳು ರನ್'],
  // The ordinal ನೇ after a space too, ನೆಯ as written; case endings written onto digits are the number's own case
  // forms: ು drops (ನಾಲ್ಕರಲ್ಲಿ, ಹತ್ತಕ್ಕೆ, ಹದಿನೈದರಂದು), ಸಾವಿರ takes ದ (ಸಾವಿರದಲ್ಲಿ), i takes ಯ / ಗೆ (ರೂಪಾಯಿಗೆ).
  ['15 ನೇ', 'ಹದಿನೈದನೇ'],
  ['15ನೆಯ', 'ಹದಿನೈದನೆಯ'],
  ['2024ರಲ್ಲಿ', 'ಎರಡು ಸಾವಿರದ ಇಪ್ಪತ್ತನಾಲ್ಕರಲ್ಲಿ'],
  ['2000ರಲ್ಲಿ', 'ಎರಡು ಸಾವಿರದಲ್ಲಿ'],
  ['10ಕ್ಕೆ', 'ಹತ್ತಕ್ಕೆ'],
  ['1000ಕ್ಕೆ', 'ಸಾವಿರಕ್ಕೆ'],
  ['ಆಗಸ್ಟ್ 15ರಂದು', 'ಆಗಸ್ಟ್ ಹದಿನೈದರಂದು'],
  ['2024ರ ಚುನಾವಣೆ', 'ಎರಡು ಸಾವಿರದ ಇಪ್ಪತ್ತನಾಲ್ಕರ ಚುನಾವಣೆ'],
  ['10ರಿಂದ', 'ಹತ್ತರಿಂದ'],
  ['₹100ಕ್ಕೆ', 'ನೂರು ರೂಪಾಯಿಗೆ'],
  ['30%ರಲ್ಲಿ', 'ಶೇಕಡಾ ಮೂವತ್ತರಲ್ಲಿ'],
  // Slash pairs [Raaga]: a team right before makes a score; otherwise the slash is said.
  ['ಭಾರತ 287/4', 'ಭಾರತ ನಾಲ್ಕು ವಿಕೆಟ್ ನಷ್ಟಕ್ಕೆ ಇನ್ನೂರ ಎಂಬತ್ತೇಳು ರನ್'],
  ['287/4', 'ಇನ್ನೂರ ಎಂಬತ್ತೇಳು ಸ್ಲ್ಯಾಶ್ ನಾಲ್ಕು'],
  ['24/7', 'ಇಪ್ಪತ್ತನಾಲ್ಕು ಏಳು'],
]);
