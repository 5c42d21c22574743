// Word boundaries from the utterance flite spoke: its Token relation in text order, each token's byte lengths (the
// whitespace before it, prepunctuation, name, punctuation) and the start of its first word (flite-wasm.ts). The tokens
// are laid back over the clause's UTF-8 bytes; flite's own file_pos must agree with where each one ends, or the
// layout is not known and no boundaries are returned rather than wrong ones.

import type { WordBoundary } from '../tts-engine.js';
import type { FliteToken } from './flite-wasm.js';

/** Code-point index of every UTF-8 byte offset of `text` (and of its end). */
function codePointAtByte(text: string): Int32Array {
  const bytes = Buffer.byteLength(text, 'utf8');
  const map = new Int32Array(bytes + 1).fill(-1);
  let byte = 0;
  let codePoint = 0;
  for (const char of text) {
    map[byte] = codePoint;
    byte += Buffer.byteLength(char, 'utf8');
    codePoint++;
  }
  map[byte] = codePoint;
  return map;
}

/**
 * One boundary per token after the first timed one: the text up to the end of the timed token before it (code points
 * of `text`, the text flite was given) was spoken by its start. `timeScale` maps flite's times to the clip's (pitch by
 * resampling), `clipMs` bounds them. Undefined when the tokens do not lay over the text.
 */
export function wordBoundaries(text: string, tokens: readonly FliteToken[], timeScale: number, clipMs: number): WordBoundary[] | undefined {
  const codePoints = codePointAtByte(text);
  const totalBytes = codePoints.length - 1;
  const boundaries: WordBoundary[] = [];
  let byte = 0;
  let previousEnd: number | undefined;
  let previousMs = 0;
  for (const token of tokens) {
    byte += token.whitespaceBytes;
    byte += token.prepunctuationBytes + token.nameBytes + token.punctuationBytes;
    // file_pos is one past the character after the token, or the end of the text when nothing follows it.
    if (byte > totalBytes || !(token.filePos === byte + 1 || (token.filePos === byte && byte === totalBytes))) return undefined;
    const end = codePoints[byte] as number;
    if (end < 0) return undefined;
    if (token.startUs === undefined) continue;
    const atMs = Math.min(Math.round(clipMs), Math.round((token.startUs / 1000) * timeScale));
    if (atMs < previousMs) return undefined;
    if (previousEnd !== undefined) boundaries.push({ textEnd: previousEnd, atMs });
    previousEnd = end;
    previousMs = atMs;
  }
  return boundaries;
}
