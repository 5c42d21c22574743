// Lexicons as CSV and as W3C PLS: read and written back unchanged (quotes, commas, line breaks, every script), PLS's
// multiple graphemes, prefer and per-phoneme alphabets; a file that is not XML, names an unknown alphabet or language,
// or a CSV with a bad header or row, refused naming the problem and the line or lexeme.

import { describe, expect, it } from 'vitest';
import { parseLexiconCsv, writeLexiconCsv } from '../../../../src/core/lexicons/lexicon-csv.js';
import { parsePls, writePls } from '../../../../src/core/lexicons/lexicon-pls.js';
import { checkLexiconEntries } from '../../../../src/core/lexicons/lexicon-rules.js';
import type { LexiconEntry } from '../../../../src/store/lexicon.js';

const ENTRIES: LexiconEntry[] = [
  { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' },
  { language: 'hi-IN', grapheme: 'Zomato', phoneme: 'zoʊˈmɑːtoʊ', alphabet: 'ipa' },
  { language: 'hi-IN', grapheme: 'AT&T', alias: 'ए टी एंड टी, "ग्लोबल"' },
  { language: 'hi-IN', grapheme: 'Nykaa', phoneme: 'n{j"ka:', alphabet: 'x-sampa' },
];

describe('CSV', () => {
  it('writes and reads back every entry exactly', () => {
    const csv = writeLexiconCsv([...ENTRIES, { language: 'ta-IN', grapheme: 'Chennai', alias: 'சென்னை' }]);
    expect(csv.split('\r\n')[0]).toBe('language,grapheme,alias,phoneme,alphabet');
    expect(csv).toContain('hi-IN,AT&T,"ए टी एंड टी, ""ग्लोबल""",,');
    const read = parseLexiconCsv(csv);
    expect(checkLexiconEntries(read.entries, read.label)).toEqual([...ENTRIES, { language: 'ta-IN', grapheme: 'Chennai', alias: 'சென்னை' }]);
  });

  it('takes the columns in any order, fewer of them, a BOM, LF line ends and quoted line breaks', () => {
    const read = parseLexiconCsv('\ufeffgrapheme,language,alias\nHDFC,hi-IN,"एच डी\nएफ सी"\n\nSBI,en-IN,S B I\n');
    expect(read.entries).toEqual([
      { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी\nएफ सी' },
      { language: 'en-IN', grapheme: 'SBI', alias: 'S B I' },
    ]);
    expect(read.label(1)).toBe('line 5');
  });

  it('refuses a bad header or row naming the line, and entries naming theirs', () => {
    expect(() => parseLexiconCsv('')).toThrow(/The CSV file is empty; its first line names the columns: language,grapheme,alias,phoneme,alphabet/);
    expect(() => parseLexiconCsv('lang,grapheme,alias\n')).toThrow(/names the column 'lang' on line 1/);
    expect(() => parseLexiconCsv('grapheme,alias\n')).toThrow(/has no 'language' column on line 1/);
    expect(() => parseLexiconCsv('language,grapheme,alias\nhi-IN,HDFC\n')).toThrow(/has 2 fields on line 2, where the header has 3/);
    expect(() => parseLexiconCsv('language,grapheme,alias\nhi-IN,"HDFC,x\n')).toThrow(/a quoted field that never ends \(from line 2\)/);
    const read = parseLexiconCsv('language,grapheme,alias\nhi-IN,HDFC,x\nhi-IN,சென்னை,y\n');
    expect(() => checkLexiconEntries(read.entries, read.label)).toThrow(/Lexicon line 3: 'grapheme' has 'ச'/);
  });
});

describe('PLS', () => {
  it('writes one language per document and reads it back exactly', () => {
    const pls = writePls([...ENTRIES, { language: 'ta-IN', grapheme: 'Chennai', alias: 'சென்னை' }], 'hi-IN');
    expect(pls).toContain('<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="hi-IN">');
    expect(pls).toContain('<lexeme><grapheme>AT&amp;T</grapheme><alias>ए टी एंड टी, &quot;ग्लोबल&quot;</alias></lexeme>');
    expect(pls).toContain('<phoneme alphabet="x-sampa">n{j&quot;ka:</phoneme>');
    expect(pls).not.toContain('Chennai');
    const read = parsePls(pls);
    expect(read.language).toBe('hi-IN');
    expect(checkLexiconEntries(read.entries, read.label)).toEqual(ENTRIES);
  });

  it("reads Azure's and Google's shape: several graphemes a lexeme, prefer, metadata, a prefixed namespace", () => {
    const read = parsePls(`<?xml version="1.0" encoding="UTF-8"?>
<pls:lexicon version="1.0" xmlns:pls="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="x-sampa" xml:lang="en-in">
  <pls:meta name="author" content="ops"/>
  <pls:lexeme>
    <pls:grapheme>BTW</pls:grapheme>
    <pls:grapheme>btw</pls:grapheme>
    <pls:alias>by the way</pls:alias>
    <pls:alias prefer="true">by the way, friend</pls:alias>
  </pls:lexeme>
  <pls:lexeme><pls:grapheme>tomato</pls:grapheme><pls:phoneme>t@"mA:t@U</pls:phoneme><pls:example>a tomato</pls:example></pls:lexeme>
</pls:lexicon>`);
    expect(read.language).toBe('en-IN');
    expect(read.entries).toEqual([
      { language: 'en-IN', grapheme: 'BTW', alias: 'by the way, friend' },
      { language: 'en-IN', grapheme: 'btw', alias: 'by the way, friend' },
      { language: 'en-IN', grapheme: 'tomato', phoneme: 't@"mA:t@U', alphabet: 'x-sampa' },
    ]);
    // The two spellings of one lexeme are one entry to Raaga (Latin in any case): refused naming the lexeme.
    expect(() => checkLexiconEntries(read.entries, read.label)).toThrow("Lexicon lexeme 1 (en-IN 'btw') repeats lexeme 1; keep one of them.");
  });

  it('refuses a file that is not XML, an unknown alphabet or language, and a lexeme without what it needs', () => {
    expect(() => parsePls('HDFC,एच डी एफ सी')).toThrow(/The PLS file is not well-formed XML: text outside the root element \(line 1, column 1\)/);
    expect(() => parsePls('<lexicon xml:lang="hi-IN" alphabet="sapi"></lexicon>')).toThrow(/names the alphabet 'sapi' on <lexicon>, which Raaga does not know \(use ipa or x-sampa\)/);
    expect(() => parsePls('<lexicon xml:lang="hi-IN"><lexeme><grapheme>a</grapheme><phoneme alphabet="ups">x</phoneme></lexeme></lexicon>')).toThrow(
      /names the alphabet 'ups' in lexeme 1 \(line 1\)/,
    );
    expect(() => parsePls('<lexicon xml:lang="ur-IN"></lexicon>')).toThrow(/is in xml:lang="ur-IN", which Raaga does not speak/);
    expect(() => parsePls('<lexicon></lexicon>')).toThrow(/has no xml:lang on <lexicon>/);
    expect(() => parsePls('<speak xml:lang="hi-IN"></speak>')).toThrow(/has <speak> as its root; a PLS document is a <lexicon>/);
    expect(() => parsePls('<lexicon xmlns="urn:other" xml:lang="hi-IN"></lexicon>')).toThrow(/is in the namespace 'urn:other'/);
    expect(() => parsePls('<lexicon xml:lang="hi-IN"><lexeme><alias>x</alias></lexeme></lexicon>')).toThrow(/has no <grapheme> in lexeme 1/);
    expect(() => parsePls('<lexicon xml:lang="hi-IN"><lexeme><grapheme>x</grapheme></lexeme></lexicon>')).toThrow(/has no <alias> or <phoneme> in lexeme 1/);
    expect(() => parsePls('<lexicon xml:lang="hi-IN"><lexeme><grapheme>x</grapheme><phoneme>a</phoneme></lexeme></lexicon>')).toThrow(/without an alphabet/);
  });
});
