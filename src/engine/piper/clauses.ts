// Splits one engine job's text into sentences of clauses the way eSpeak NG reports them to Piper: a clause ends
// at , : ; (the sentence goes on) or at . ? ! । ॥ (the sentence ends). Each sentence is one session.run.

export type Terminator = '.' | '?' | '!' | ',' | ':' | ';' | '';

export interface Clause {
  readonly text: string;
  /** The punctuation Piper appends to the clause's phonemes ('' when the text simply ends). */
  readonly terminator: Terminator;
}

const SENTENCE_END: Readonly<Record<string, Terminator>> = { '.': '.', '?': '?', '!': '!', '।': '.', '॥': '.', '…': '.' };
const CLAUSE_END: Readonly<Record<string, Terminator>> = { ',': ',', ':': ':', ';': ';' };

/**
 * Sentences, each a list of non-empty clauses. A . , : ; counts only before whitespace, a quote or the end, so
 * 3.14, 10:30 and example.com stay whole (the text front end has usually spelled them out already).
 */
export function splitSentences(text: string): Clause[][] {
  const chars = [...text];
  const sentences: Clause[][] = [];
  let clauses: Clause[] = [];
  let current = '';
  const endClause = (terminator: Terminator, endsSentence: boolean): void => {
    const trimmed = current.replace(/\s+/gu, ' ').trim();
    current = '';
    if (trimmed !== '' && /[\p{L}\p{N}]/u.test(trimmed)) clauses.push({ text: trimmed, terminator });
    else if (clauses.length > 0 && terminator !== '') {
      // Punctuation with nothing speakable before it ("?!", "...") upgrades the previous clause's mark.
      const last = clauses[clauses.length - 1] as Clause;
      if (endsSentence || last.terminator === '') clauses[clauses.length - 1] = { text: last.text, terminator };
    }
    if (endsSentence && clauses.length > 0) {
      sentences.push(clauses);
      clauses = [];
    }
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const next = chars[i + 1];
    const atBoundary = next === undefined || /[\s"'”’)\]]/u.test(next) || SENTENCE_END[next] !== undefined || CLAUSE_END[next] !== undefined;
    const sentenceMark = SENTENCE_END[ch];
    const clauseMark = CLAUSE_END[ch];
    // । and ॥ never sit inside a number or a word, so they always end the sentence.
    if (sentenceMark !== undefined && (atBoundary || ch === '।' || ch === '॥')) endClause(sentenceMark, true);
    else if (clauseMark !== undefined && atBoundary) endClause(clauseMark, false);
    else current += ch;
  }
  endClause('', true);
  return sentences;
}
