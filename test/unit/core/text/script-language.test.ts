// The language a text's script points to: the Indic script with the most letters, Devanagari as Hindi, en-IN for
// text without Indic letters; dandas count for no script.

import { describe, expect, it } from 'vitest';
import { languageOfScript } from '../../../../src/core/text/script-language.js';

describe('languageOfScript', () => {
  it.each([
    ['नमस्ते, आपका खाता सक्रिय है।', 'hi-IN'],
    ['तुमचे खाते सक्रिय आहे.', 'hi-IN'], // Marathi is Devanagari too: only the request can say so
    ['வணக்கம், உங்கள் கணக்கு செயலில் உள்ளது.', 'ta-IN'],
    ['నమస్కారం, మీ ఖాతా సక్రియంగా ఉంది.', 'te-IN'],
    ['ನಮಸ್ಕಾರ, ನಿಮ್ಮ ಖಾತೆ ಸಕ್ರಿಯವಾಗಿದೆ.', 'kn-IN'],
    ['નમસ્તે, તમારું ખાતું સક્રિય છે.', 'gu-IN'],
    ['নমস্কার, আপনার অ্যাকাউন্ট সক্রিয়।', 'bn-IN'],
    ['Hello, your account is active.', 'en-IN'],
    ['1234 5678 !?', 'en-IN'],
    ['', 'en-IN'],
  ] as const)('%s → %s', (text, language) => {
    expect(languageOfScript(text)).toBe(language);
  });

  it('an Indic script wins over more Latin letters: the Indic front ends read embedded English', () => {
    expect(languageOfScript('Your OTP for the HDFC netbanking login is 4821, कृपया')).toBe('hi-IN');
  });

  it('the most letters win between Indic scripts; a Bengali sentence ending in dandas stays Bengali', () => {
    expect(languageOfScript('நன்றி, धन्यवाद बहुत बहुत')).toBe('hi-IN');
    expect(languageOfScript('হ্যাঁ।।')).toBe('bn-IN');
  });
});
