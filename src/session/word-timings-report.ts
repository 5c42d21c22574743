// The `word_timings` messages of one utterance (the WebSocket's opt-in `config.word_timings`): once the frames of a
// chunk have been sent, the input's words of that chunk with where each starts and ends in the utterance's audio.
// Only chunks whose engine gave word timings are reported: an engine without them yields no message, never guesses.
// The SSML <mark>s of those chunks go in the same message, each where the word after it starts (mark-timings.ts).

import type { Utterance } from '../core/synthesis/utterance.js';
import { chunkMarks } from '../core/synthesis/mark-timings.js';
import { chunkWords, codePointsBefore, type WordSource } from '../core/synthesis/word-timings.js';
import type { MarkTiming, ServerMessage, WordTiming } from './session-messages.js';

export class WordTimingsReport {
  readonly #source: WordSource;
  /** The next of the utterance's timed chunks to report, and the next of its word boundaries to read. */
  #nextTimed = 0;
  #nextBoundary = 0;

  constructor(
    private readonly utterance: Utterance,
    text: string,
    private readonly send: (message: ServerMessage) => void,
  ) {
    this.#source = { codePoints: [...text], chunks: utterance.chunks };
  }

  /** Every chunk before `chunksDone` has had its frames sent: their words go out, in one message when there are any. */
  sent(chunksDone: number): void {
    const timed = this.utterance.timedChunks;
    const boundaries = this.utterance.wordBoundaries;
    const words: WordTiming[] = [];
    const marks: MarkTiming[] = [];
    for (let next = timed[this.#nextTimed]; next !== undefined && next.chunk < chunksDone; next = timed[++this.#nextTimed]) {
      while ((boundaries[this.#nextBoundary]?.chunk ?? Infinity) < next.chunk) this.#nextBoundary++;
      const from = this.#nextBoundary;
      while (boundaries[this.#nextBoundary]?.chunk === next.chunk) this.#nextBoundary++;
      const chunk = chunkWords(this.#source, next.chunk, boundaries.slice(from, this.#nextBoundary), next.startMs, next.audioMs);
      // Whole milliseconds rounded down: words still touch and never overlap, and none ends past the audio.
      for (const word of chunk) words.push({ text: word.text, start_ms: Math.floor(word.startMs), end_ms: Math.floor(word.endMs ?? word.startMs) });
      const text = this.#source.chunks[next.chunk];
      if (text?.marks === undefined) continue;
      const before = codePointsBefore(this.#source.chunks, next.chunk);
      for (const mark of chunkMarks(text, before, chunk, next.startMs, next.audioMs)) marks.push({ name: mark.name, at_ms: Math.floor(mark.atMs) });
    }
    if (words.length > 0) this.send({ type: 'word_timings', words, ...(marks.length > 0 ? { marks } : {}) });
  }
}
