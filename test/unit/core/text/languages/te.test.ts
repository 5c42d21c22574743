// Telugu (te-IN). Sources, cited per group:
// [CLDR] CLDR common/rbnf/te.xml: 0-19, tens (ఇరవై ఒకటి), 100 వంద, 101 నూట …, 200 రెండు వందలు, 201 రెండు వందల …,
//   1000 వెయ్యి, ఒక లక్ష, ఒక కోటి, దశాంశం, ఋణ, ordinal మొదటి / -వ / ఇరవయ్యవ.
// [KG] Bh. Krishnamurti & J. P. L. Gwynn, A Grammar of Modern Telugu (OUP 1985), numerals: the bare plural stands
//   alone (రెండు వేలు, which CLDR gives as వేల) and the oblique precedes a noun (రెండు వేల రూపాయలు, ఒక రూపాయి);
//   one o'clock is ఒంటి గంట; రూపాయల … పైసలు.
// [CLDR-cal] CLDR 48 te months and dayPeriods (ఉదయం 6-12, మధ్యాహ్నం 12-18, సాయంత్రం 18-21, రాత్రి).
// [TRAI] TRAI National Numbering Plan: 10-digit mobile numbers, +91.  [Raaga] digit grouping rules in docs/api.md.

// [Krishnamurti] Bh. Krishnamurti & J. P. L. Gwynn, A Grammar of Modern Telugu (1985): అర, పావు, ముప్పావు; ఒకటిన్నర.
// [IndiaPost] India Post PIN codes (six digits). [IR] Indian Railways: 10-digit PNR, 5-digit train numbers read digit by digit.
// [IATA] flight designators (6E 2134). [RBI] IFSC and masked cards. [NPCI] UPI ids. [MoRTH] registration marks.
// [IEC] IEC 80000-13 units (GB, Mbps). [Raaga] letter-digit codes spelled, a word keeps its number (COVID-19).
// [Vemuri] V. Vemuri, Telugu lessons, 'Reckoning the passage of time' (2020): మూడుంపావు (3:15), పావు తక్కువ నాలుగు.
// [te.wikipedia] తీసివేత: the minus sign is called మైనస్; the signs are read by their English names.
// [Telugu press] Telugu match reports (ap7am, Eenadu): `5 వికెట్ల నష్టానికి 420 పరుగులు` (wickets first).
import { describeTable } from './table.js';

describeTable('te-IN', [
  // Cardinals [CLDR].
  ['0', 'సున్నా'],
  ['15', 'పదిహేను'],
  ['21', 'ఇరవై ఒకటి'],
  ['45', 'నలభై ఐదు'],
  ['99', 'తొంభై తొమ్మిది'],
  ['100', 'వంద'],
  ['101', 'నూట ఒకటి'],
  ['200', 'రెండు వందలు'],
  ['250', 'రెండు వందల యాభై'],
  ['1000', 'వెయ్యి'],
  ['1234', 'వెయ్యి రెండు వందల ముప్పై నాలుగు'],
  ['1,00,000', 'ఒక లక్ష'],
  ['12,34,56,789', 'పన్నెండు కోట్ల ముప్పై నాలుగు లక్షల యాభై ఆరు వేల ఏడు వందల ఎనభై తొమ్మిది'],
  // Standalone plurals [KG] where CLDR writes the oblique.
  ['2000', 'రెండు వేలు'],
  ['1,25,000', 'ఒక లక్ష ఇరవై ఐదు వేలు'],
  ['125000', 'ఒక లక్ష ఇరవై ఐదు వేలు'],
  // Indian digits [CLDR].
  ['౧౨౩', 'నూట ఇరవై మూడు'],
  // Decimals, negatives, ranges, percentages [CLDR; నుండి, శాతం].
  ['3.14', 'మూడు దశాంశం ఒకటి నాలుగు'],
  ['-25', 'ఋణ ఇరవై ఐదు'],
  ['10-15', 'పది నుండి పదిహేను'],
  ['50%', 'యాభై శాతం'],
  // Ordinals [CLDR].
  ['1వ', 'మొదటి'],
  ['2వ', 'రెండవ'],
  ['20వ', 'ఇరవయ్యవ'],
  ['21వ', 'ఇరవై ఒకటవ'],
  // Money: the oblique before the noun, రూపాయల … పైసలు [KG].
  ['₹1,250.50', 'వెయ్యి రెండు వందల యాభై రూపాయల యాభై పైసలు'],
  ['Rs. 500', 'ఐదు వందల రూపాయలు'],
  ['INR 2 lakh', 'రెండు లక్షల రూపాయలు'],
  ['500/-', 'ఐదు వందల రూపాయలు'],
  ['₹1', 'ఒక రూపాయి'],
  ['₹0.75', 'డెబ్బై ఐదు పైసలు'],
  ['2000 రూపాయలు', 'రెండు వేల రూపాయలు'],
  // Dates [CLDR-cal months; CLDR numbers].
  ['21/11/2026', 'ఇరవై ఒకటి నవంబర్ రెండు వేల ఇరవై ఆరు'],
  ['21-11-2026', 'ఇరవై ఒకటి నవంబర్ రెండు వేల ఇరవై ఆరు'],
  ['21 Nov 2026', 'ఇరవై ఒకటి నవంబర్ రెండు వేల ఇరవై ఆరు'],
  ['2026-11-21', 'ఇరవై ఒకటి నవంబర్ రెండు వేల ఇరవై ఆరు'],
  // Times: N గంటలు / N గంటల M నిమిషాలు, ఒంటి గంట [KG; CLDR-cal day periods].
  ['10:30', 'పది గంటల ముప్పై నిమిషాలు'],
  ['10:30 AM', 'ఉదయం పది గంటల ముప్పై నిమిషాలు'],
  ['5 PM', 'మధ్యాహ్నం ఐదు గంటలు'],
  ['1:00 PM', 'మధ్యాహ్నం ఒంటి గంట'],
  ['7:05 PM', 'సాయంత్రం ఏడు గంటల ఐదు నిమిషాలు'],
  // Phone numbers [TRAI; Raaga grouping].
  ['+91 98765 43210', 'ప్లస్ తొమ్మిది ఒకటి, తొమ్మిది ఎనిమిది ఏడు ఆరు ఐదు, నాలుగు మూడు రెండు ఒకటి సున్నా'],
  ['9876543210', 'తొమ్మిది ఎనిమిది ఏడు ఆరు ఐదు, నాలుగు మూడు రెండు ఒకటి సున్నా'],
  // OTPs and PINs [Raaga grouping; CLDR digit names].
  ['మీ ఓటీపీ 482913', 'మీ ఓటీపీ నాలుగు ఎనిమిది రెండు, తొమ్మిది ఒకటి మూడు'],
  ['PIN 4821', 'PIN నాలుగు ఎనిమిది రెండు ఒకటి'],
  // Abbreviations, units, symbols, addresses.
  ['Dr. Reddy', 'డాక్టర్ Reddy'],
  ['5 km', 'ఐదు కిలోమీటర్లు'],
  ['A & B', 'A మరియు B'],
  ['help@raaga.in', 'help ఎట్ raaga డాట్ in'],
  // Identifiers digit by digit: PIN codes by cue or address, railway, airline, booking, bank, payment and vehicle ones [IndiaPost, IR, IATA, RBI, NPCI, MoRTH, Raaga]; a quantity stays one.
  ['PIN 560001', 'PIN ఐదు ఆరు సున్నా, సున్నా సున్నా ఒకటి'],
  ['పిన్ కోడ్ 500001', 'పిన్ కోడ్ ఐదు సున్నా సున్నా, సున్నా సున్నా ఒకటి'],
  ['ఎంజీ రోడ్డు, హైదరాబాద్ 500001', 'ఎంజీ రోడ్డు, హైదరాబాద్ ఐదు సున్నా సున్నా, సున్నా సున్నా ఒకటి'],
  ['మొత్తం 250001 మంది.', 'మొత్తం రెండు లక్షల యాభై వేల ఒక మంది.'],
  ['PNR 4521873690', 'PNR నాలుగు ఐదు రెండు ఒకటి ఎనిమిది, ఏడు మూడు ఆరు తొమ్మిది సున్నా'],
  ['రైలు నంబర్ 12951', 'రైలు నంబర్ ఒకటి రెండు తొమ్మిది, ఐదు ఒకటి'],
  ['Flight 6E-2134', 'Flight ఆరు E, రెండు ఒకటి మూడు నాలుగు'],
  ['Booking ID: 4521', 'Booking ID: నాలుగు ఐదు రెండు ఒకటి'],
  ['4521-873', 'నాలుగు ఐదు రెండు ఒకటి, ఎనిమిది ఏడు మూడు'],
  ['IFSC HDFC0001234', 'IFSC H D F C సున్నా సున్నా సున్నా ఒకటి, రెండు మూడు నాలుగు'],
  ['ramesh@okaxis', 'ramesh ఎట్ okaxis'],
  ['XXXX4321', 'నాలుగు మూడు రెండు ఒకటి'],
  ['MH 12 AB 1234', 'M H, ఒకటి రెండు, A B, ఒకటి రెండు మూడు నాలుగు'],
  ['AB12CD34', 'A B ఒకటి రెండు C D మూడు నాలుగు'],
  ['COVID-19', 'COVID పంతొమ్మిది'],
  ['Ticket 1234-5678-9012', 'Ticket ఒకటి రెండు మూడు నాలుగు, ఐదు ఆరు ఏడు ఎనిమిది, తొమ్మిది సున్నా ఒకటి రెండు'],
  ['Order No. 4521', 'Order నంబర్ నాలుగు ఐదు రెండు ఒకటి'],
  ['MH12AB1234', 'M H ఒకటి రెండు A B ఒకటి రెండు మూడు నాలుగు'],
  ['Card ending 4321', 'Card ending నాలుగు మూడు రెండు ఒకటి'],
  ['Pincode 500001', 'Pincode ఐదు సున్నా సున్నా, సున్నా సున్నా ఒకటి'],
  // Fractions and arithmetic as the language says them; data and speed units [IEC].
  ['½ కిలో', 'అర కిలో'],
  ['¾', 'ముప్పావు'],
  ['1½', 'ఒకటిన్నర'],
  ['2½', 'రెండున్నర'],
  ['3½', 'మూడున్నర'],
  ['3¼ కిలో', 'మూడుంపావు కిలో'], // [Vemuri]
  ['1 1/4', 'ఒకటింపావు'], // [Vemuri]
  ['3¾', 'పావు తక్కువ నాలుగు'], // [Vemuri]
  ['5 + 3 = 8', 'ఐదు ప్లస్ మూడు ఈక్వల్స్ ఎనిమిది'], // [te.wikipedia]
  ['10 - 4 = 6', 'పది మైనస్ నాలుగు ఈక్వల్స్ ఆరు'], // [te.wikipedia]
  ['100 Mbps', 'వంద ఎంబీపీఎస్'],
  ['2 GB', 'రెండు జీబీ'],
  // A cricket score as the language's match reports write it.
  ['భారత్ 50 ఓవర్లలో 287/4', 'భారత్ యాభై ఓవర్లలో నాలుగు వికెట్ల నష్టానికి రెండు వందల ఎనభై ఏడు పరుగులు'],
  // The ordinal వ after a space too; case endings written onto digits join the number word (the oblique stems of Krishnamurti & Gwynn): a plural in
  // -లు takes its oblique -ల (రెండు వేలలో), a noun in -ం takes -ానికి (శాతానికి); one is ఒకటి, not ఒక, before them.
  ['15 వ', 'పదిహేనవ'],
  ['2024లో', 'రెండు వేల ఇరవై నాలుగులో'],
  ['2000లో', 'రెండు వేలలో'],
  ['ఆగస్టు 15న', 'ఆగస్టు పదిహేనున'],
  ['1కి', 'ఒకటికి'],
  ['100కు', 'వందకు'],
  ['₹100కి', 'వంద రూపాయలకి'],
  ['30%కి', 'ముప్పై శాతానికి'],
  ['10వరకు', 'పదివరకు'],
  // Slash pairs [Raaga]: a team right before makes a score; otherwise the slash is said.
  ['భారత్ 287/4', 'భారత్ నాలుగు వికెట్ల నష్టానికి రెండు వందల ఎనభై ఏడు పరుగులు'],
  ['287/4', 'రెండు వందల ఎనభై ఏడు స్లాష్ నాలుగు'],
  ['24/7', 'ఇరవై నాలుగు ఏడు'],
]);
