// Texts for timing the text front end (front-end-worst-case.test.ts and bench/text-front-end.ts): ordinary IVR
// prose of a given length in each language, and generated worst cases of the same length: chains of digits with
// every separator the rules know, repeated digit groups, long dotted names, unclosed constructs, mixed scripts, SSML.
// Seeded, so a run replays exactly.

import type { LanguageCode } from '../../../../src/languages.js';

export type Random = () => number;

/** Written forms ordinary notices contain, read by the rules (amounts, dates, times, phone numbers, codes). */
const FORMS = [
  '₹1,25,000', '₹2,45,678.50', 'Rs. 500', '500/-', '21/11/2026', '2026-11-21', '10:30 AM', '5 PM', '+91 98765 43210',
  '1800 123 4567', '482913', '2%', '10-15', '3.5 kg', '12 km', '4521-873', 'www.example.com', 'help@bank.in', 'AB12CD34',
  'MH 12 AB 1234', 'XXXX1234', '1/2', '5 + 3 = 8', '15 Jan 2027', '3rd', '-25', '1998', '1,00,000', '6E-2134',
];

/** Prose of each language (words only); ordinary text is these with written forms between them. */
const PROSE: Readonly<Record<LanguageCode, readonly string[]>> = {
  'en-IN': ['Thank you for calling.', 'Your account balance is', 'and your bill is due on', 'please call us at', 'your OTP is', 'the amount was credited on', 'Dear customer,', 'for any help'],
  'hi-IN': ['कॉल करने के लिए धन्यवाद।', 'आपके खाते में शेष राशि', 'और आपका बिल देय है', 'कृपया हमें कॉल करें', 'आपका ओटीपी है', 'दिनांक को राशि जमा की गई', 'प्रिय ग्राहक,', 'किसी भी सहायता के लिए'],
  'ta-IN': ['அழைத்தமைக்கு நன்றி.', 'உங்கள் கணக்கில் இருப்பு', 'உங்கள் கட்டணம் செலுத்த வேண்டும்', 'எங்களை அழைக்கவும்', 'உங்கள் ஓடிபி', 'அன்று தொகை வரவு வைக்கப்பட்டது', 'அன்புள்ள வாடிக்கையாளரே,', 'உதவிக்கு'],
  'te-IN': ['కాల్ చేసినందుకు ధన్యవాదాలు.', 'మీ ఖాతాలో నిల్వ', 'మీ బిల్లు చెల్లించాలి', 'మాకు కాల్ చేయండి', 'మీ ఓటీపీ', 'న మొత్తం జమ చేయబడింది', 'ప్రియమైన వినియోగదారుడా,', 'సహాయం కోసం'],
  'kn-IN': ['ಕರೆ ಮಾಡಿದ್ದಕ್ಕೆ ಧನ್ಯವಾದಗಳು.', 'ನಿಮ್ಮ ಖಾತೆಯಲ್ಲಿ ಬಾಕಿ', 'ನಿಮ್ಮ ಬಿಲ್ ಪಾವತಿಸಬೇಕು', 'ನಮಗೆ ಕರೆ ಮಾಡಿ', 'ನಿಮ್ಮ ಒಟಿಪಿ', 'ರಂದು ಮೊತ್ತ ಜಮೆಯಾಗಿದೆ', 'ಪ್ರಿಯ ಗ್ರಾಹಕರೇ,', 'ಸಹಾಯಕ್ಕಾಗಿ'],
  'mr-IN': ['कॉल केल्याबद्दल धन्यवाद.', 'तुमच्या खात्यात शिल्लक', 'आणि तुमचे बिल भरायचे आहे', 'कृपया आम्हाला कॉल करा', 'तुमचा ओटीपी आहे', 'रोजी रक्कम जमा झाली', 'प्रिय ग्राहक,', 'कोणत्याही मदतीसाठी'],
  'gu-IN': ['કૉલ કરવા બદલ આભાર.', 'તમારા ખાતામાં બાકી', 'અને તમારું બિલ ભરવાનું છે', 'કૃપા કરીને અમને કૉલ કરો', 'તમારો ઓટીપી છે', 'ના રોજ રકમ જમા થઈ', 'પ્રિય ગ્રાહક,', 'કોઈપણ મદદ માટે'],
  'bn-IN': ['কল করার জন্য ধন্যবাদ।', 'আপনার অ্যাকাউন্টে বাকি', 'এবং আপনার বিল দিতে হবে', 'আমাদের কল করুন', 'আপনার ওটিপি', 'তারিখে টাকা জমা হয়েছে', 'প্রিয় গ্রাহক,', 'যেকোনো সাহায্যের জন্য'],
};

/** Each language's own digits (zero first), for mixed-script chains; en-IN mixes in Devanagari. */
const NATIVE_ZERO: Readonly<Record<LanguageCode, number>> = {
  'en-IN': 0x0966, 'hi-IN': 0x0966, 'mr-IN': 0x0966, 'bn-IN': 0x09e6, 'gu-IN': 0x0ae6, 'ta-IN': 0x0be6, 'te-IN': 0x0c66, 'kn-IN': 0x0ce6,
};

/** Ordinal and case endings each language writes onto digits, joined, after a hyphen or a space. */
const ENDINGS: Readonly<Record<LanguageCode, readonly string[]>> = {
  'en-IN': ['st', 'th', 'rd', ' th'],
  'hi-IN': ['वाँ', ' वाँ', 'ला', 'वीं', ' थे'],
  'ta-IN': ['ஆம்', ' ஆம்', 'ம்', '-ம்', 'வது', '-இல்', ' இல்', 'ல்', 'க்கு', 'ஐ'],
  'te-IN': ['వ', ' వ', 'లో', 'న', 'కి', '-వ'],
  'kn-IN': ['ನೇ', ' ನೇ', 'ರಲ್ಲಿ', 'ಕ್ಕೆ', 'ರ', '-ನೇ'],
  'mr-IN': ['ला', 'वा', 'मध्ये', ' वा', 'चा'],
  'gu-IN': ['મો', ' મો', 'થી', 'માં', 'મી'],
  'bn-IN': ['ই', 'শে', '-এ', 'টি', ' তম', 'লা'],
};

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const digits = (random: Random, min: number, max: number): string => {
  const length = min + Math.floor(random() * (max - min + 1));
  let out = '';
  for (let k = 0; k < length; k++) out += String(Math.floor(random() * 10));
  return out;
};

/**
 * Exactly `length` code points: `prefix`, whole pieces while they fit, `suffix`, then spaces. Never a piece cut
 * short, so the same family at two lengths has the same shape (a chain still ends as its pieces do, markup stays
 * well-formed), and with the same seed the shorter text begins the longer one.
 */
function fill(length: number, piece: () => string, prefix = '', suffix = ''): string {
  let body = '';
  let size = [...prefix].length + [...suffix].length;
  for (;;) {
    const next = piece();
    const n = [...next].length;
    if (size + n > length) break;
    body += next;
    size += n;
  }
  return `${prefix}${body}${suffix}${' '.repeat(length - size)}`;
}

/** Ordinary notice text in `language`, exactly `length` code points. */
export function ordinaryText(random: Random, language: LanguageCode, length: number): string {
  const prose = PROSE[language];
  return fill(length, () => `${pick(random, prose)} ${random() < 0.5 ? `${pick(random, FORMS)} ` : ''}`);
}

export interface WorstCase {
  readonly name: string;
  /** Exactly `length` code points (SSML families: markup included, as the request limit counts it). */
  make(random: Random, language: LanguageCode, length: number): string;
}

/** Every separator a rule gives meaning to between digits (operators, dates, times, ranges, amounts, codes). */
export const SEPARATORS = ['-', '.', ',', '/', ':', '+', '×', 'x', '*', '÷', '−', '–', '=', '₹', '%', ' ', ' - ', ' x ', ' + ', ' = ', ', ', '. ', ': '] as const;

const chain = (separator: string, group: (random: Random) => string): WorstCase => ({
  name: `chain ${JSON.stringify(separator)}`,
  make: (random, _language, length) => fill(length, () => `${group(random)}${separator}`),
});

const nativeDigits = (language: LanguageCode, ascii: string): string =>
  [...ascii].map((ch) => (/\d/u.test(ch) ? String.fromCodePoint(NATIVE_ZERO[language] + Number(ch)) : ch)).join('');

export const WORST_CASES: readonly WorstCase[] = [
  { name: '"1-" repeated', make: (_random, _language, length) => fill(length, () => '1-') },
  // One digit and one separator, then 1-4 random digits per group, for every separator.
  ...SEPARATORS.map((separator) => chain(separator, () => '1')),
  ...SEPARATORS.map((separator) => ({ ...chain(separator, (random) => digits(random, 1, 4)), name: `chain ${JSON.stringify(separator)} random groups` })),
  {
    name: 'mixed separators',
    make: (random, _language, length) => fill(length, () => `${digits(random, 1, 3)}${pick(random, SEPARATORS)}`),
  },
  { name: 'operators then "="', make: (random, _language, length) => fill(length, () => `${digits(random, 1, 2)}${pick(random, ['+', '-', '×', '*', '÷', '−', ' x '])}`, '', '1 = 1') },
  { name: 'operators then "=" unfinished', make: (random, _language, length) => fill(length, () => `${digits(random, 1, 2)}${pick(random, ['+', '-', '×', '*', '÷', '−', ' x '])}`, '', '=') },
  { name: 'amount groups', make: (_random, _language, length) => fill(length, () => ',000', '1') },
  { name: 'decimal groups', make: (_random, _language, length) => fill(length, () => '1.5') },
  { name: 'dates repeated', make: (random, _language, length) => fill(length, () => `${pick(random, ['21/11/', '2026-11-', '21.11.', '1-1-'])}`) },
  { name: 'times repeated', make: (random, _language, length) => fill(length, () => `${pick(random, ['10:30', '10.30', '1:', '12:00 am'])}${pick(random, [':', '.', ' ', ''])}`) },
  { name: 'phone-like groups', make: (random, _language, length) => fill(length, () => `${pick(random, ['+91', '0', '1800', '98765'])}${pick(random, [' ', '-', ''])}${digits(random, 3, 5)}${pick(random, [' ', '-'])}`) },
  { name: 'currency unclosed', make: (random, _language, length) => fill(length, () => pick(random, ['₹', '₹1,', 'Rs.', 'Rs. 1,', 'INR ', '1 /', '₹ 1.'])) },
  { name: 'ranges and percents', make: (random, _language, length) => fill(length, () => `${digits(random, 1, 3)}${pick(random, ['-', '–', ' - '])}${digits(random, 1, 3)}${pick(random, ['%', ' %', '.', ','])}`) },
  { name: 'range then digit groups', make: (_random, _language, length) => fill(length, () => ',1', `1-${'1'.repeat(Math.floor(length / 2))}`) },
  { name: 'long digit run', make: (random, _language, length) => fill(length, () => digits(random, 1, 1)) },
  { name: 'digits and spaces', make: (random, _language, length) => fill(length, () => `${digits(random, 1, 5)}${pick(random, [' ', '  ', '\t'])}`) },
  { name: 'dotted name', make: (_random, _language, length) => fill(length, () => 'a.') },
  { name: 'dotted name random', make: (random, _language, length) => fill(length, () => `${pick(random, ['a', 'ab', 'a1', 'x-y', '1', 'co', 'in'])}${pick(random, ['.', '-', '.', '_'])}`) },
  { name: 'dotted name then "@"', make: (_random, _language, length) => fill(length, () => 'a.', '', '@') },
  { name: 'e-mail unclosed', make: (random, _language, length) => fill(length, () => pick(random, ['a@', 'a@b.', 'a.b@', '1@', '@a.'])) },
  { name: 'www unclosed', make: (_random, _language, length) => fill(length, () => 'www.a') },
  { name: 'web address of slashes', make: (_random, _language, length) => fill(length, () => '/', 'www.', 'a') },
  { name: 'web address of commas', make: (_random, _language, length) => fill(length, () => ',', 'www.a', 'a') },
  { name: 'domain then "@"', make: (_random, _language, length) => fill(length, () => 'b.', 'a@') },
  { name: 'hyphenated code', make: (random, _language, length) => fill(length, () => `${pick(random, ['A1', 'AB', '12', '6E', 'x'])}-`) },
  { name: 'letters and digits', make: (random, _language, length) => fill(length, () => `${pick(random, ['a', 'AB', 'x', 'X', 'st'])}${digits(random, 1, 3)}`) },
  { name: 'vehicle-like', make: (random, _language, length) => fill(length, () => `${pick(random, ['MH', 'KA', 'AB'])}${pick(random, [' ', '-'])}${digits(random, 1, 2)}${pick(random, [' ', '-'])}`) },
  { name: 'mask characters', make: (random, _language, length) => fill(length, () => pick(random, ['x*', 'X•', 'x•'])) },
  { name: 'masked digits', make: (random, _language, length) => fill(length, () => pick(random, ['XX', 'xx-', '**', '•• '])) },
  { name: 'months and days', make: (random, _language, length) => fill(length, () => `${digits(random, 1, 2)} ${pick(random, ['jan', 'of', 'Nov.', 'september,'])} `) },
  { name: 'ordinals', make: (random, _language, length) => fill(length, () => `${digits(random, 1, 3)}${pick(random, ['st', 'th', 'nd'])}`) },
  { name: 'fractions and scores', make: (random, _language, length) => fill(length, () => `${digits(random, 1, 2)}/${pick(random, ['', ' ', '½', '/'])}`) },
  {
    name: 'slash pairs in context',
    make: (random, _language, length) =>
      fill(length, () => `${pick(random, ['IND ', 'India were ', 'ratio ', '', 'H.No. ', '2 ', 'overs '])}${digits(random, 1, 3)}/${digits(random, 1, 2)}${pick(random, [' cup', ' kg', 'th', ' ', '', '/'])}`),
  },
  { name: 'digits and endings', make: (random, language, length) => fill(length, () => `${digits(random, 1, 4)}${pick(random, ENDINGS[language])}${pick(random, [' ', '', ','])}`) },
  { name: 'titles and numbers', make: (random, _language, length) => fill(length, () => pick(random, ['No.', 'Dr.', 'No. ', 'Mr '])) },
  { name: 'native digits "-"', make: (_random, language, length) => fill(length, () => nativeDigits(language, '1-')) },
  { name: 'native and Latin digits', make: (random, language, length) => fill(length, () => `${digits(random, 1, 2)}${nativeDigits(language, digits(random, 1, 2))}${pick(random, ['-', '.', ',', '/', ':'])}`) },
  { name: 'script and digits', make: (random, language, length) => fill(length, () => `${[...pick(random, PROSE[language])].slice(0, 2).join('')}${digits(random, 1, 2)}${pick(random, ['-', '.', ''])}`) },
  { name: 'SSML "1-"', make: (_random, _language, length) => fill(length, () => '1-', '<speak>', '</speak>') },
  {
    name: 'SSML say-as currency',
    make: (random, _language, length) =>
      fill(length, () => `<say-as interpret-as="currency">${pick(random, ['₹', 'Rs. ', ''])}${pick(random, [`${digits(random, 1, 12)}${pick(random, ['', ' rupees', '  /-'])}`, `${digits(random, 1, 5)} lakh`])}</say-as> `, '<speak>', '</speak>'),
  },
  // Refused by the SSML check (the amount is not one), which must not take longer to say so.
  { name: 'SSML say-as currency refused', make: (_random, _language, length) => `<speak><say-as interpret-as="currency">${'1'.repeat(Math.max(1, length - 62))} a   b</say-as></speak>` },
  {
    name: 'SSML say-as and breaks',
    make: (random, _language, length) =>
      fill(length, () => pick(random, ['<say-as interpret-as="digits">1-1-1</say-as>', '<break time="1ms"/>', '1-', '<s>1.</s>', '<sub alias="a">1</sub>']), '<speak>', '</speak>'),
  },
  // A voicing change every few characters: a chunk and a front-end stretch each (issue 41).
  {
    name: 'SSML prosody, lang, emphasis and marks',
    make: (random, _language, length) =>
      fill(
        length,
        () =>
          pick(random, [
            `<prosody rate="${pick(random, ['slow', '+10%', '80%'])}" volume="-3dB">1-</prosody>`,
            `<lang xml:lang="${pick(random, ['hi-IN', 'ta-IN', 'en-US', 'bn'])}">1,2</lang>`,
            '<emphasis>1.</emphasis>',
            '<mark name="m"/>1 ',
            '<prosody pitch="+2st"><emphasis level="strong">a</emphasis></prosody>',
            '1-',
          ]),
        '<speak>',
        '</speak>',
      ),
  },
  { name: 'SSML nested prosody', make: (_random, _language, length) => nested(length, '<prosody rate="+1%" pitch="+0.1st">', '1-', '</prosody>') },
  { name: 'SSML unknown elements (lenient)', make: (random, _language, length) => fill(length, () => pick(random, ['<foo>1-</foo>', '<mstts:x a="b">1,</mstts:x>', '<voice name="v">1</voice>', '<phoneme ph="a">1</phoneme>']), '<speak>', '</speak>') },
];

/** `open` nested as deep as fits around one `body`, inside <speak>: exactly `length` code points. */
function nested(length: number, open: string, body: string, close: string): string {
  const size = (depth: number) => [...'<speak></speak>'].length + [...body].length + depth * ([...open].length + [...close].length);
  let depth = 0;
  while (size(depth + 1) <= length) depth++;
  return `<speak>${open.repeat(depth)}${body}${close.repeat(depth)}</speak>${' '.repeat(length - size(depth))}`;
}
