// What a lexicon entry may say: each refusal a validation_error naming the entry and the field, entries made canonical,
// scripts checked against the declared language (Latin everywhere), loops and duplicates refused, phonemes checked
// (IPA symbol by symbol, X-SAMPA by its table).

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/errors.js';
import { checkLexiconEntries, checkLexiconEntry, checkLexiconName, type LexiconEntryInput } from '../../../../src/core/lexicons/lexicon-rules.js';
import { phonemesAsIpa } from '../../../../src/core/lexicons/phonemes.js';

const aliasOf = (input: LexiconEntryInput): string | undefined => {
  const entry = checkLexiconEntry(input, 'e');
  return 'alias' in entry ? entry.alias : undefined;
};

function refusal(input: LexiconEntryInput): ApiError {
  try {
    checkLexiconEntry(input, 'entries[2]');
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('lexicon entries', () => {
  it('are made canonical: NFC, trimmed, one space between words', () => {
    expect(checkLexiconEntry({ language: 'hi-IN', grapheme: '  HDFC \n Bank ', alias: ' एच डी एफ सी   बैंक ' }, 'e')).toEqual({
      language: 'hi-IN',
      grapheme: 'HDFC Bank',
      alias: 'एच डी एफ सी बैंक',
    });
    expect(checkLexiconEntry({ language: 'hi-IN', grapheme: '\u0958\u093e\u0930', alias: 'कार' }, 'e').grapheme).toBe('\u0915\u093c\u093e\u0930');
  });

  it('refuse empty, too long and unspeakable text, naming the entry and the field', () => {
    const empty = refusal({ language: 'en-IN', grapheme: '   ', alias: 'x' });
    expect(empty.code).toBe('validation_error');
    expect(empty.message).toBe("Lexicon entries[2]: 'grapheme' must not be empty.");
    expect(empty.field).toBe('entries[2].grapheme');
    expect(refusal({ language: 'en-IN', grapheme: 'HDFC', alias: '' }).message).toMatch(/entries\[2\]: 'alias' must not be empty/);
    expect(refusal({ language: 'en-IN', grapheme: 'a'.repeat(101), alias: 'x' }).message).toMatch(/'grapheme' is 101 characters; the most is 100/);
    expect(refusal({ language: 'en-IN', grapheme: 'HDFC', alias: 'क'.repeat(201) }).message).toMatch(/'alias' is 201 characters; the most is 200/);
    expect(refusal({ language: 'en-IN', grapheme: 'HD\u0007FC', alias: 'x' }).message).toMatch(/control or unassigned character '\u0007' \(U\+0007\)/);
    expect(refusal({ language: 'en-IN', grapheme: '!!!', alias: 'x' }).message).toMatch(/'grapheme' has no letter or digit/);
    expect(refusal({ language: 'xx-IN', grapheme: 'HDFC', alias: 'x' }).message).toMatch(/'language' must be one of en-IN, hi-IN/);
  });

  it('take Latin graphemes in every language and Indic ones only in their own language', () => {
    for (const language of ['en-IN', 'hi-IN', 'ta-IN', 'bn-IN'] as const) {
      expect(checkLexiconEntry({ language, grapheme: 'Nykaa', alias: 'x' }, 'e').grapheme).toBe('Nykaa');
    }
    expect(checkLexiconEntry({ language: 'mr-IN', grapheme: 'पुणे', alias: 'पुणं' }, 'e').grapheme).toBe('पुणे');
    expect(checkLexiconEntry({ language: 'hi-IN', grapheme: 'HDFC बैंक', alias: 'एच डी एफ सी बैंक' }, 'e').grapheme).toBe('HDFC बैंक');
    const tamilInHindi = refusal({ language: 'hi-IN', grapheme: 'சென்னை', alias: 'चेन्नई' });
    expect(tamilInHindi.message).toMatch(/'grapheme' has 'ச' \(U\+0B9A\), a Tamil letter, but the entry is hi-IN \(Devanagari or Latin letters\)/);
    expect(tamilInHindi.field).toBe('entries[2].grapheme');
    expect(refusal({ language: 'en-IN', grapheme: 'दिल्ली', alias: 'Delhi' }).message).toMatch(/a Devanagari letter, but the entry is en-IN \(Latin letters\)/);
    expect(refusal({ language: 'ur-IN' as 'hi-IN', grapheme: 'x', alias: 'y' }).message).toMatch(/'language' must be one of/);
    expect(refusal({ language: 'hi-IN', grapheme: 'Москва', alias: 'मास्को' }).message).toMatch(/in a script none of Raaga's languages is written in/);
    // The alias may be in any script: it is what the voice says.
    expect(aliasOf({ language: 'ta-IN', grapheme: 'Chennai', alias: 'சென்னை' })).toBe('சென்னை');
  });

  it('refuse an alias that says its own grapheme again (a loop), as the matcher would find it', () => {
    expect(refusal({ language: 'en-IN', grapheme: 'HDFC', alias: 'hdfc bank' }).message).toMatch(/'alias' says 'HDFC' again, the word it replaces \(a loop\)/);
    expect(refusal({ language: 'hi-IN', grapheme: 'बैंक', alias: 'स्टेट बैंक' }).field).toBe('entries[2].alias');
    // Inside a longer word it is not the grapheme: allowed.
    expect(aliasOf({ language: 'en-IN', grapheme: 'SBI', alias: 'SBIcard people' })).toBe('SBIcard people');
    expect(aliasOf({ language: 'en-IN', grapheme: 'HDFC', alias: 'H D F C' })).toBe('H D F C');
  });

  it('take either an alias or phonemes with an alphabet, never both or neither', () => {
    expect(refusal({ language: 'en-IN', grapheme: 'Zomato' }).message).toMatch(/needs either 'alias' or 'phoneme' with 'alphabet', not neither/);
    expect(refusal({ language: 'en-IN', grapheme: 'Zomato', alias: 'z', phoneme: 'zo', alphabet: 'ipa' }).message).toMatch(/not both/);
    expect(refusal({ language: 'en-IN', grapheme: 'Zomato', phoneme: 'zo', alphabet: 'sapi' }).message).toMatch(/'alphabet' must be one of ipa, x-sampa, not 'sapi'/);
    expect(refusal({ language: 'en-IN', grapheme: 'Zomato', phoneme: 'zo' }).message).toMatch(/'alphabet' must be one of ipa, x-sampa/);
    expect(checkLexiconEntry({ language: 'en-IN', grapheme: 'Zomato', phoneme: 'zoʊˈmɑːtoʊ', alphabet: 'ipa' }, 'e')).toEqual({
      language: 'en-IN',
      grapheme: 'Zomato',
      phoneme: 'zoʊˈmɑːtoʊ',
      alphabet: 'ipa',
    });
  });

  it('refuse phonemes no engine could read, naming the symbol', () => {
    expect(refusal({ language: 'en-IN', grapheme: 'Zomato', phoneme: 'zo:mato', alphabet: 'ipa' }).message).toMatch(
      /'phoneme' has ':' \(U\+003A\) at symbol 3, which is not IPA: write ː \(U\+02D0\)/,
    );
    expect(refusal({ language: 'hi-IN', grapheme: 'HDFC', phoneme: 'एच', alphabet: 'ipa' }).message).toMatch(/'phoneme' has 'ए'.*which is not IPA/);
    expect(refusal({ language: 'en-IN', grapheme: 'Zomato', phoneme: 'zo*', alphabet: 'x-sampa' }).message).toMatch(/'\*' at character 3, which starts no X-SAMPA symbol/);
  });

  it('refuse the same entry twice in one lexicon (Latin in any case), naming both', () => {
    expect(() =>
      checkLexiconEntries([
        { language: 'en-IN', grapheme: 'HDFC', alias: 'a' },
        { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच' },
        { language: 'en-IN', grapheme: ' hdfc ', alias: 'b' },
      ]),
    ).toThrow("Lexicon entries[2] (en-IN 'hdfc') repeats entries[0]; keep one of them.");
  });

  it('names a lexicon only in lower case, digits, _ and -', () => {
    expect(checkLexiconName('brands_2026-q1')).toBe('brands_2026-q1');
    expect(() => checkLexiconName('Brands')).toThrow(/Lexicon name 'Brands' is not valid: use 1-64 of a-z, 0-9, _ and -/);
    expect(() => checkLexiconName('')).toThrow(ApiError);
    expect(() => checkLexiconName('a'.repeat(65))).toThrow(ApiError);
  });
});

describe('phonemes', () => {
  it('convert X-SAMPA to IPA, retroflexes, aspiration and stress included', () => {
    expect(phonemesAsIpa('"tS@_hAI', 'x-sampa')).toEqual({ ok: true, ipa: 'ˈtʃəʰɑɪ' });
    expect(phonemesAsIpa('t`_hA:n@', 'x-sampa')).toEqual({ ok: true, ipa: 'ʈʰɑːnə' });
    expect(phonemesAsIpa('z@U"mA:t@U', 'x-sampa')).toEqual({ ok: true, ipa: 'zəʊˈmɑːtəʊ' });
    expect(phonemesAsIpa('d`n`s`r\\', 'x-sampa')).toEqual({ ok: true, ipa: 'ɖɳʂɹ' });
  });

  it('take IPA as it is and refuse what is not IPA', () => {
    expect(phonemesAsIpa('ʈʰɑːnə', 'ipa')).toEqual({ ok: true, ipa: 'ʈʰɑːnə' });
    expect(phonemesAsIpa('ˈkʰɑː.nɑː', 'ipa')).toEqual({ ok: true, ipa: 'ˈkʰɑː.nɑː' });
    expect(phonemesAsIpa('ABC', 'ipa').ok).toBe(false);
    expect(phonemesAsIpa('  ', 'ipa')).toEqual({ ok: false, problem: 'is empty' });
  });
});
