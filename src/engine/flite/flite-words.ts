// Word boundaries from flite's phone timings. flite prints a clause's phones with end times but not which word each
// belongs to, so each token's own phones (flite-token-phones.ts) are laid over the clause's phones in order. Context
// changes a vowel now and then (`a` is ey alone, ax in a sentence; `the` before a vowel): one vowel-for-vowel
// substitution per token is accepted; any other disagreement means the layout is not known, and no boundaries are
// returned rather than wrong ones.

import type { WordBoundary } from '../tts-engine.js';
import { PAUSE, type Segment } from './flite-phones.js';

export interface TextToken {
  readonly text: string;
  /** Code-point offsets of the token in the clause's text: [start, end). */
  readonly start: number;
  readonly end: number;
}

const MAX_SUBSTITUTIONS_PER_TOKEN = 1;
const SPOKEN = /[\p{L}\p{N}]/u;
// Vowels in both of flite's phone sets: ARPAbet (aa ... uw, er) and CMU Indic (A, A:, i:, E, aI ...). No consonant in
// either starts with a vowel letter.
const VOWEL = /^[aeiouAEIOU]/;

/** The whitespace-separated tokens of `text` that flite can speak (a letter or a digit in them), in order. */
export function textTokens(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  const chars = [...text];
  let start = -1;
  for (let i = 0; i <= chars.length; i++) {
    const char = chars[i];
    const space = char === undefined || /\s/u.test(char);
    if (!space && start < 0) start = i;
    if (space && start >= 0) {
      const token = chars.slice(start, i).join('');
      if (SPOKEN.test(token)) tokens.push({ text: token, start, end: i });
      start = -1;
    }
  }
  return tokens;
}

/**
 * One boundary per token after the first that has phones: the text up to the end of the token before it was spoken
 * by the start of its first phone. `tokenPhones[k]` are token k's phones; `segments` the clause's, pauses included.
 */
export function alignWords(
  tokens: readonly TextToken[],
  tokenPhones: readonly (readonly string[])[],
  segments: readonly Segment[],
): WordBoundary[] | undefined {
  if (tokenPhones.length !== tokens.length) return undefined;
  const spoken: number[] = [];
  segments.forEach((segment, index) => {
    if (segment.phone !== PAUSE) spoken.push(index);
  });
  const expected = tokenPhones.reduce((sum, phones) => sum + phones.length, 0);
  if (expected !== spoken.length) return undefined;
  const boundaries: WordBoundary[] = [];
  let position = 0;
  let previousEnd: number | undefined;
  for (let k = 0; k < tokens.length; k++) {
    const phones = tokenPhones[k] as readonly string[];
    if (phones.length === 0) continue;
    let substitutions = 0;
    for (let i = 0; i < phones.length; i++) {
      const said = (segments[spoken[position + i] as number] as Segment).phone;
      const alone = phones[i] as string;
      if (said === alone) continue;
      // A consonant that differs is a layout shifted by a phone, not context.
      if (!VOWEL.test(said) || !VOWEL.test(alone) || ++substitutions > MAX_SUBSTITUTIONS_PER_TOKEN) return undefined;
    }
    const first = spoken[position] as number;
    const startMs = first === 0 ? 0 : (segments[first - 1] as Segment).endMs;
    if (previousEnd !== undefined) boundaries.push({ textEnd: previousEnd, atMs: Math.round(startMs) });
    previousEnd = (tokens[k] as TextToken).end;
    position += phones.length;
  }
  return boundaries;
}
