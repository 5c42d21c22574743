// Where an SSML <mark> stands in an utterance's audio: where the first word after it starts, from the chunk's timed
// words (word-timings.ts), or where the chunk's audio ends when no word follows it there. A mark's place in the input
// (code points, as the words' are) is what ties it to them; the engine text is reached through the same `sourceAt`.

import type { TextChunk } from '../text/split-utterance.js';
import type { TimedWord } from './word-timings.js';

export interface TimedMark {
  readonly name: string;
  readonly atMs: number;
}

/**
 * The marks of `chunk`, whose input starts `before` code points into the text and whose audio starts at `startMs`
 * and lasts `audioMs`, placed by its `words` (in order, as chunkWords gives them).
 */
export function chunkMarks(chunk: TextChunk, before: number, words: readonly TimedWord[], startMs: number, audioMs: number | undefined): TimedMark[] {
  const marks = chunk.marks ?? [];
  const endMs = audioMs === undefined ? (words.at(-1)?.endMs ?? words.at(-1)?.startMs ?? startMs) : startMs + audioMs;
  const timed: TimedMark[] = [];
  let next = 0;
  for (const mark of marks) {
    const at = before + mark.at;
    // Marks come in order: the word that follows one is never before the word that follows the mark before it.
    while (next < words.length && (words[next] as TimedWord).sourceEnd <= at) next++;
    timed.push({ name: mark.name, atMs: next < words.length ? (words[next] as TimedWord).startMs : endMs });
  }
  return timed;
}
