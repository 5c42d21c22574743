// The lexicon matcher: whole words in every script (Devanagari, Tamil, Bengali words are not `\b` words), Latin case
// folded, the longest entry at the leftmost place, phrases across any whitespace, Hinglish, and what the author
// already fixed (an SSML <sub>) left alone. Then a lexicon through the whole split: billing and sourceAt stay exact.

import { describe, expect, it } from 'vitest';
import { LexiconMatcher } from '../../../../src/core/text/lexicon-matcher.js';
import { splitUtterance } from '../../../../src/core/text/split-utterance.js';
import { normalizeText } from '../../../../src/core/text/normalize-text.js';
import { compileLexiconsNow } from '../../../../src/core/lexicons/applied-lexicons.js';
import type { LexiconEntry } from '../../../../src/store/lexicon.js';
import type { LanguageCode } from '../../../../src/languages.js';
import { countCodePoints } from '../../../../src/util/code-points.js';

function matcher(graphemes: readonly string[]): LexiconMatcher<string> {
  const builder = LexiconMatcher.builder<string>();
  for (const grapheme of graphemes) builder.add(grapheme, grapheme);
  return builder.build();
}

/** The text of each match, and which entry it was. */
function found(graphemes: readonly string[], text: string): [string, string][] {
  const chars = [...text];
  return matcher(graphemes)
    .find(chars)
    .map((match) => [chars.slice(match.start, match.end).join(''), match.value]);
}

function lexicon(language: LanguageCode, entries: readonly (readonly [string, string])[]) {
  const list: LexiconEntry[] = entries.map(([grapheme, alias]) => ({ language, grapheme, alias }));
  return compileLexiconsNow([{ name: 'test', entries: list }], language);
}

describe('lexicon matcher: words', () => {
  it('matches Latin words whole and case-insensitively, never inside a longer word', () => {
    expect(found(['HDFC'], 'Call hdfc, or Hdfc Bank; HDFCBANK and XHDFC are other words.')).toEqual([
      ['hdfc', 'HDFC'],
      ['Hdfc', 'HDFC'],
    ]);
    expect(found(['HDFC'], 'HDFC1 and 1HDFC are codes, HDFC.')).toEqual([['HDFC', 'HDFC']]);
  });

  it('takes Devanagari words whole: a vowel sign or a virama after the grapheme keeps it inside a word', () => {
    // कम is a word in "कम पैसे" but not in "कमल" (lotus), "कमी" (a vowel sign) or "कम्प" (a virama).
    expect(found(['कम'], 'कम पैसे, कमल, कमी, कम्पनी; बहुत कम।')).toEqual([
      ['कम', 'कम'],
      ['कम', 'कम'],
    ]);
    // \b would have split these words after every letter: no match at an inner "boundary".
    expect(found(['मल'], 'कमल')).toEqual([]);
  });

  it('takes Tamil and Bengali words whole, pulli and vowel signs included', () => {
    expect(found(['திருவனந்தபுரம்'], 'திருவனந்தபுரம் விமான நிலையம், திருவனந்தபுரம்க்கு')).toEqual([['திருவனந்தபுரம்', 'திருவனந்தபுரம்']]);
    expect(found(['কলকাতা'], 'কলকাতায় নয়, কলকাতা শহরে')).toEqual([['কলকাতা', 'কলকাতা']]);
  });

  it('compares canonically: a precomposed nukta letter is the letter and its nukta', () => {
    // U+0958 (क़) is canonically U+0915 U+093C.
    expect(found(['\u0915\u093c\u093e\u0930'], '\u0958\u093e\u0930 चलाई')).toEqual([['\u0958\u093e\u0930', '\u0915\u093c\u093e\u0930']]);
    expect(found(['café'], 'Cafe\u0301 Coffee Day, CAFÉ')).toEqual([
      ['Cafe\u0301', 'café'],
      ['CAFÉ', 'café'],
    ]);
  });

  it('prefers the longest entry at the leftmost place, and goes on after it', () => {
    expect(found(['HDFC', 'HDFC Bank', 'Bank'], 'HDFC Bank and HDFC and the Bank')).toEqual([
      ['HDFC Bank', 'HDFC Bank'],
      ['HDFC', 'HDFC'],
      ['Bank', 'Bank'],
    ]);
    // The longest whose end is a word end: "HDFC Bank" does not end inside "Banking", so "HDFC" wins there.
    expect(found(['HDFC', 'HDFC Bank'], 'HDFC Banking')).toEqual([['HDFC', 'HDFC']]);
    // Leftmost first: "New Delhi" starts before "Delhi Metro" and takes "Delhi".
    expect(found(['New Delhi', 'Delhi Metro'], 'New Delhi Metro')).toEqual([['New Delhi', 'New Delhi']]);
  });

  it('matches a phrase across any run of whitespace, line breaks included', () => {
    expect(found(['credit card'], 'your credit\n  card and creditcard')).toEqual([['credit\n  card', 'credit card']]);
    expect(found(['  State   Bank  '], 'State Bank of India')).toEqual([['State Bank', '  State   Bank  ']]);
  });

  it('finds Latin words in Hindi text (Hinglish), also where a postposition is attached', () => {
    expect(found(['HDFC', 'Zomato'], 'आपका HDFC खाता और Zomatoपर ऑर्डर; HDFCबैंक')).toEqual([
      ['HDFC', 'HDFC'],
      ['Zomato', 'Zomato'],
      ['HDFC', 'HDFC'],
    ]);
    // A Devanagari entry after Latin letters, the other way round.
    expect(found(['का'], 'HDFCका')).toEqual([['का', 'का']]);
    // Digits belong to the word on either side: no boundary between a letter and a digit.
    expect(found(['HDFC'], 'HDFC२ और २HDFC')).toEqual([]);
  });

  it('ignores ZWJ and ZWNJ inside a word when comparing, and never matches next to one', () => {
    expect(found(['क्ष'], 'क्\u200dष')).toEqual([['क्\u200dष', 'क्ष']]);
    expect(found(['क'], 'क\u200d')).toEqual([]);
  });

  it('leaves blocked characters (what the author fixed) alone', () => {
    const chars = [...'HDFC and HDFC'];
    const blocked = new Uint8Array(chars.length);
    blocked.fill(1, 0, 4);
    expect(matcher(['HDFC']).find(chars, blocked).map((m) => m.start)).toEqual([9]);
    expect(matcher(['HDFC and']).find(chars, blocked)).toEqual([]);
  });

  it('keeps the first of two equal graphemes (the lexicon named first wins)', () => {
    const builder = LexiconMatcher.builder<string>();
    expect(builder.add('HDFC', 'first')).toBe(true);
    expect(builder.add('hdfc', 'second')).toBe(false);
    expect(builder.add('  ', 'blank')).toBe(false);
    const built = builder.build();
    expect(built.size).toBe(1);
    expect(built.find([...'HDFC']).map((m) => m.value)).toEqual(['first']);
  });
});

describe('a lexicon through the text front end', () => {
  it('reads an entry as a hand-written <sub alias> would, in the engine text of the language', () => {
    const brands = lexicon('hi-IN', [['HDFC', 'एच डी एफ सी'], ['Zomato', 'ज़ोमैटो']]);
    const text = 'आपका HDFC खाता, Zomato से ₹500 का ऑर्डर।';
    const bySub = '<speak>आपका <sub alias="एच डी एफ सी">HDFC</sub> खाता, <sub alias="ज़ोमैटो">Zomato</sub> से ₹500 का ऑर्डर।</speak>';
    expect(normalizeText(text, 'hi-IN', brands.text)).toBe(normalizeText(bySub, 'hi-IN'));
    expect(normalizeText(text, 'hi-IN', brands.text)).toContain('एच डी एफ सी');
    expect(normalizeText(text, 'hi-IN', brands.text)).not.toContain('HDFC');
  });

  it('bills the input as written and maps the engine text back onto it (sourceAt)', () => {
    const brands = lexicon('en-IN', [['Nykaa', 'nye kaa'], ['Thiruvananthapuram', 'thiru vanantha puram']]);
    const text = 'Order from Nykaa, delivered to Thiruvananthapuram.';
    const [chunk, ...rest] = splitUtterance(text, { firstChunkMaxChars: 300, maxChunkChars: 300, language: 'en-IN', lexicon: brands.text });
    expect(rest).toEqual([]);
    expect(chunk?.text).toBe('Order from nye kaa, delivered to thiru vanantha puram.');
    expect(chunk?.codePoints).toBe(countCodePoints(text));
    // Input code points fully spoken after "Order from nye" (the replacement counts once its last letter is spoken)…
    const at = (prefix: string) => chunk?.sourceAt[prefix.length];
    expect(at('Order from nye')).toBe('Order from '.length);
    expect(at('Order from nye kaa')).toBe('Order from Nykaa'.length);
    expect(at('Order from nye kaa, delivered to thiru vanantha puram')).toBe('Order from Nykaa, delivered to Thiruvananthapuram'.length);
    expect(chunk?.sourceAt.at(-1)).toBe(countCodePoints(text));
  });

  it('leaves the author\'s own <sub> and <say-as> alone, and never matches across a <break>', () => {
    const brands = lexicon('en-IN', [['HDFC', 'H D F C'], ['credit card', 'kredit kard']]);
    const ssml = '<speak><sub alias="Housing Finance">HDFC</sub> and HDFC, your credit<break time="300ms"/>card.</speak>';
    const spoken = normalizeText(ssml, 'en-IN', brands.text);
    expect(spoken).toBe('Housing Finance and H D F C, your credit card.');
  });

  it('applies entries of the utterance\'s language only, and an alias is never searched again', () => {
    const entries: LexiconEntry[] = [
      { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' },
      { language: 'en-IN', grapheme: 'SBI', alias: 'HDFC' },
      { language: 'en-IN', grapheme: 'HDFC', alias: 'SBI' },
    ];
    const english = compileLexiconsNow([{ name: 'x', entries }], 'en-IN');
    // One pass: SBI → "HDFC" is not read again as HDFC → "SBI".
    expect(normalizeText('SBI and HDFC', 'en-IN', english.text)).toBe('HDFC and SBI');
    expect(english.entries).toBe(2);
    expect(compileLexiconsNow([{ name: 'x', entries }], 'ta-IN').text).toBeUndefined();
  });

  it('speaks a phoneme entry as written (no engine takes phonemes yet), and it still shadows shorter entries', () => {
    const entries: LexiconEntry[] = [
      { language: 'en-IN', grapheme: 'Zomato Gold', phoneme: 'zoʊˈmɑːtoʊ ɡoʊld', alphabet: 'ipa' },
      { language: 'en-IN', grapheme: 'Zomato', alias: 'zo mato' },
    ];
    const applied = compileLexiconsNow([{ name: 'x', entries }], 'en-IN');
    expect(applied.phonemeEntries).toBe(1);
    expect(normalizeText('Zomato Gold and Zomato', 'en-IN', applied.text)).toBe('Zomato Gold and zo mato');
  });

  it('gives the prompt cache a digest that changes with what an entry says, not with entries of other languages', () => {
    const base: LexiconEntry[] = [{ language: 'en-IN', grapheme: 'HDFC', alias: 'H D F C' }];
    const key = (entries: LexiconEntry[]) => compileLexiconsNow([{ name: 'x', entries }], 'en-IN').cacheKey;
    expect(key(base)).toBe(key([...base, { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' }]));
    expect(key(base)).not.toBe(key([{ ...base[0]!, alias: 'HDFC Bank' } as LexiconEntry]));
    expect(key([])).toBeUndefined();
  });
});
