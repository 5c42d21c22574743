// Text of one engine job to model ids, sentence by sentence, as Piper builds them: eSpeak IPA per clause (or the
// characters themselves for `phoneme_type: text` voices), the clause's punctuation appended, then ids.

import { splitSentences, type Clause } from './clauses.js';
import type { EspeakPhonemizer } from '../espeak/espeak-phonemizer.js';
import { phonemesToIds, toPhonemes } from './phoneme-ids.js';
import type { PiperSidecar } from './piper-sidecar.js';

export interface PhonemizedText {
  /** One id sequence per sentence, in order; sentences with no known phoneme are left out. */
  readonly sentences: number[][];
  /** Phonemes the voice's map lacks, dropped, with counts. */
  readonly unknown: Map<string, number>;
}

/** Needs `espeak` unless the voice is `phoneme_type: text`. */
export function phonemizeText(text: string, sidecar: PiperSidecar, espeak: EspeakPhonemizer | undefined): PhonemizedText {
  const unknown = new Map<string, number>();
  const sentences: number[][] = [];
  for (const clauses of splitSentences(text)) {
    const phonemes = toPhonemes(sentencePhonemes(clauses, sidecar, espeak));
    if (phonemes.length === 0) continue;
    const { ids } = phonemesToIds(phonemes, sidecar.phoneme_id_map, unknown);
    // BOS, PAD and EOS alone would be a sentence of silence.
    if (ids.length > 3) sentences.push(ids);
  }
  return { sentences, unknown };
}

function sentencePhonemes(clauses: readonly Clause[], sidecar: PiperSidecar, espeak: EspeakPhonemizer | undefined): string {
  let out = '';
  for (const clause of clauses) {
    const phonemes = clausePhonemes(clause.text, sidecar, espeak);
    if (phonemes === '') continue;
    // piper-phonemize: `, : ;` are followed by a space because the sentence goes on.
    out += phonemes + clause.terminator + (clause.terminator === ',' || clause.terminator === ':' || clause.terminator === ';' ? ' ' : '');
  }
  return out.trimEnd();
}

function clausePhonemes(text: string, sidecar: PiperSidecar, espeak: EspeakPhonemizer | undefined): string {
  if (sidecar.phoneme_type === 'text') return text.toLowerCase();
  if (espeak === undefined || sidecar.espeak === undefined) throw new Error('an eSpeak phonemizer is required for phoneme_type espeak');
  return espeak.phonemize(text, sidecar.espeak.voice);
}
