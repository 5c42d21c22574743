// W3C Pronunciation Lexicon Specification (PLS 1.0) documents, the format Azure and Google take: one language per
// document (`xml:lang`), a default `alphabet`, and lexemes of one or more graphemes and their pronunciation, an
// `<alias>` or a `<phoneme>` (the one marked prefer="true", else the first). Read strictly: a file that is not XML,
// names a language Raaga does not speak or an alphabet it does not know is refused naming the problem.

import { ApiError } from '../../errors.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../languages.js';
import { isAliasEntry, PHONEME_ALPHABETS, type LexiconEntry } from '../../store/lexicon.js';
import { elementsOf, localName, parseXml, textOf, XmlError, type XmlElement } from '../../util/strict-xml.js';
import { escapeXml } from '../../util/xml-entities.js';
import type { EntryLabel, LexiconEntryInput } from './lexicon-rules.js';

export const PLS_NAMESPACE = 'http://www.w3.org/2005/01/pronunciation-lexicon';

/** A PLS document's entries, each with the lexeme it came from (for refusals: `lexeme 3`). */
export interface PlsLexicon {
  readonly language: LanguageCode;
  readonly entries: readonly LexiconEntryInput[];
  readonly label: EntryLabel;
}

function refused(problem: string): ApiError {
  return new ApiError('validation_error', `The PLS file ${problem}.`);
}

function alphabetOf(value: string | undefined, where: string): (typeof PHONEME_ALPHABETS)[number] | undefined {
  if (value === undefined) return undefined;
  const alphabet = value.trim().toLowerCase();
  if ((PHONEME_ALPHABETS as readonly string[]).includes(alphabet)) return alphabet as (typeof PHONEME_ALPHABETS)[number];
  throw refused(`names the alphabet '${value}' ${where}, which Raaga does not know (use ipa or x-sampa)`);
}

export function parsePls(text: string): PlsLexicon {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (error) {
    if (error instanceof XmlError) throw refused(`is not well-formed XML: ${error.message}`);
    throw error;
  }
  if (localName(root.name) !== 'lexicon') throw refused(`has <${root.name}> as its root; a PLS document is a <lexicon>`);
  const namespace = root.attributes.get('xmlns');
  if (namespace !== undefined && namespace !== PLS_NAMESPACE) throw refused(`is in the namespace '${namespace}', not PLS's (${PLS_NAMESPACE})`);
  const lang = root.attributes.get('xml:lang');
  if (lang === undefined) throw refused(`has no xml:lang on <lexicon>; name its language (one of ${LANGUAGE_CODES.join(', ')})`);
  const language = LANGUAGE_CODES.find((code) => code.toLowerCase() === lang.trim().toLowerCase());
  if (!language) throw refused(`is in xml:lang="${lang}", which Raaga does not speak (use one of ${LANGUAGE_CODES.join(', ')})`);
  const defaultAlphabet = alphabetOf(root.attributes.get('alphabet'), 'on <lexicon>');
  const entries: LexiconEntryInput[] = [];
  const lexemes: number[] = [];
  elementsOf(root)
    .filter((child) => localName(child.name) === 'lexeme')
    .forEach((lexeme, index) => {
      const where = `lexeme ${index + 1} (line ${lexeme.line})`;
      const children = elementsOf(lexeme);
      const graphemes = children.filter((child) => localName(child.name) === 'grapheme').map(textOf);
      if (graphemes.length === 0) throw refused(`has no <grapheme> in ${where}`);
      const readings = children.filter((child) => localName(child.name) === 'alias' || localName(child.name) === 'phoneme');
      const reading = readings.find((child) => child.attributes.get('prefer') === 'true') ?? readings[0];
      if (!reading) throw refused(`has no <alias> or <phoneme> in ${where}`);
      let said: Pick<LexiconEntryInput, 'alias' | 'phoneme' | 'alphabet'>;
      if (localName(reading.name) === 'alias') said = { alias: textOf(reading) };
      else {
        const alphabet = alphabetOf(reading.attributes.get('alphabet'), `in ${where}`) ?? defaultAlphabet;
        if (!alphabet) throw refused(`has a <phoneme> in ${where} without an alphabet (set alphabet="ipa" on <lexicon> or the <phoneme>)`);
        said = { phoneme: textOf(reading), alphabet };
      }
      for (const grapheme of graphemes) {
        entries.push({ language, grapheme, ...said });
        lexemes.push(index);
      }
    });
  return { language, entries, label: (index) => `lexeme ${(lexemes[index] ?? 0) + 1}` };
}

/** A PLS document of the entries of one language (those of others are left out). */
export function writePls(entries: readonly LexiconEntry[], language: LanguageCode): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<lexicon version="1.0" xmlns="${PLS_NAMESPACE}" alphabet="ipa" xml:lang="${language}">`,
  ];
  for (const entry of entries) {
    if (entry.language !== language) continue;
    const reading = isAliasEntry(entry)
      ? `<alias>${escapeXml(entry.alias)}</alias>`
      : `<phoneme${entry.alphabet === 'ipa' ? '' : ` alphabet="${entry.alphabet}"`}>${escapeXml(entry.phoneme)}</phoneme>`;
    lines.push(`  <lexeme><grapheme>${escapeXml(entry.grapheme)}</grapheme>${reading}</lexeme>`);
  }
  lines.push('</lexicon>', '');
  return lines.join('\n');
}
