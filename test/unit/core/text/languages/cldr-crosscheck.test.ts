// Checks the hand-kept tables against CLDR as Node's ICU serves it (month names, day periods), and pins each place
// where we deliberately differ from CLDR's spellout data, so a change on either side is noticed.

import { describe, expect, it } from 'vitest';
import { languagePack } from '../../../../../src/core/text/languages/index.js';
import { LANGUAGE_CODES } from '../../../../../src/languages.js';

const intlLocale = (code: string) => (code === 'en-IN' ? 'en-IN' : code.slice(0, 2));

describe('tables against CLDR (Node ICU)', () => {
  it.each(LANGUAGE_CODES)('%s month names are CLDR format-wide months', (code) => {
    const format = new Intl.DateTimeFormat(intlLocale(code), { month: 'long', timeZone: 'UTC' });
    const cldr = Array.from({ length: 12 }, (_, month) => format.format(new Date(Date.UTC(2026, month, 1))));
    expect(languagePack(code).months).toEqual(cldr);
  });

  // Marathi times take the locative of CLDR's day periods; Bengali uses CLDR's abbreviated set.
  const MARATHI_LOCATIVE: Record<string, string> = { रात्र: 'रात्री', पहाट: 'पहाटे', सकाळ: 'सकाळी', मध्यान्ह: 'दुपारी', दुपार: 'दुपारी', संध्याकाळ: 'संध्याकाळी' };
  const cases = ['hi-IN', 'gu-IN', 'ta-IN', 'te-IN', 'kn-IN', 'mr-IN', 'bn-IN'] as const;
  it.each(cases)('%s day periods follow CLDR dayPeriodRules hour by hour', (code) => {
    const width = code === 'bn-IN' ? 'short' : 'long';
    const format = new Intl.DateTimeFormat(intlLocale(code), { hour: 'numeric', dayPeriod: width, timeZone: 'UTC' });
    for (let hour = 0; hour < 24; hour++) {
      const parts = format.formatToParts(new Date(Date.UTC(2026, 0, 1, hour, 30)));
      let period = parts.filter((part) => part.type === 'dayPeriod').map((part) => part.value).join('');
      if (code === 'mr-IN') period = MARATHI_LOCATIVE[period] ?? period;
      expect(languagePack(code).time(hour, 30, true).startsWith(`${period} `), `${code} ${hour}:30`).toBe(true);
    }
  });
});

describe('pinned departures from CLDR spellout data', () => {
  it('gu: crore is કરોડ (CLDR writes કરોડ઼ with a stray nukta) and the feminine first is પહેલી (CLDR: પેહલી)', () => {
    const gu = languagePack('gu-IN');
    expect(gu.cardinal(20_000_000)).toBe('બે કરોડ');
    expect(gu.cardinal(20_000_000)).not.toContain('઼');
    expect(gu.ordinal(1, 'લી')).toBe('પહેલી');
  });

  it('ta: compounds use combining forms, not CLDR word-by-word readings, and 400/800 are spelt right', () => {
    const ta = languagePack('ta-IN');
    expect(ta.cardinal(23)).not.toBe('இருபது மூன்று');
    expect(ta.cardinal(1000)).toBe('ஆயிரம்');
    expect(ta.cardinal(1234)).not.toContain('ஒன்று ஆயிரம்');
    expect(ta.cardinal(400)).toBe('நானூறு'); // CLDR: நாநூறூ
    expect(ta.cardinal(800)).toBe('எண்ணூறு'); // CLDR: எண்நூறு
    expect(ta.cardinal(123)).toBe('நூற்றிருபத்து மூன்று'); // not நூற்றுப் இருபத்துமூன்று (Kenpath/indic-text-normalization#1)
  });

  it('te: a standalone plural (రెండు వేలు), the oblique before nouns (రెండు వేల రూపాయలు)', () => {
    const te = languagePack('te-IN');
    expect(te.cardinal(2000)).toBe('రెండు వేలు'); // CLDR: రెండు వేల
    expect(te.attributive(2000)).toBe('రెండు వేల');
    expect(te.attributive(1)).toBe('ఒక');
  });

  it('hi: feminine ordinals end in -वीं (CLDR: -वी); years 1100-1999 are read in hundreds (CLDR: cardinal)', () => {
    const hi = languagePack('hi-IN');
    expect(hi.ordinal(7, 'वीं')).toBe('सातवीं');
    expect(hi.year(1998)).toBe('उन्नीस सौ अट्ठानबे');
    expect(hi.year(2026)).toBe('दो हज़ार छब्बीस');
  });

  it('kn: hundreds are the joined CLDR forms (npm to-words says ಎರಡು ನೂರು for 200)', () => {
    expect(languagePack('kn-IN').cardinal(200)).toBe('ಇನ್ನೂರು');
    expect(languagePack('kn-IN').cardinal(1234)).toBe('ಸಾವಿರದ ಇನ್ನೂರ ಮೂವತ್ತನಾಲ್ಕು');
  });
});
