// Where each word of an utterance lies in its audio, in the words of the input text: an engine's word boundaries
// (each word after a chunk's first starts at `atMs` of that chunk's audio) placed on the utterance's audio and mapped
// back onto the input through the chunk's `sourceAt`. One home for the mapping, read by a call's playback ledger
// (what the caller heard) and by the WebSocket's `word_timings` messages.

import type { TextChunk } from '../text/split-utterance.js';
import type { ChunkWordBoundary } from './recorded-utterance.js';

/** A word of the input and where it is spoken, in milliseconds of the utterance's audio. */
export interface TimedWord {
  /** The input's own text of the word: trimmed, SSML markup removed ("₹500", never the engine's "five hundred rupees"). */
  readonly text: string;
  /** Input code points [sourceStart, sourceEnd) the word covers: the whitespace and punctuation around it included. */
  readonly sourceStart: number;
  readonly sourceEnd: number;
  readonly startMs: number;
  /** Undefined for a chunk's last word when the chunk's audio length is not known (a call's ledger: its mark says). */
  readonly endMs: number | undefined;
}

/** The utterance a chunk's words are read from. */
export interface WordSource {
  /** The input text as code points. */
  readonly codePoints: readonly string[];
  readonly chunks: readonly TextChunk[];
}

/** Input code points of chunks 0..chunk-1: chunks partition the input by code points. */
export function codePointsBefore(chunks: readonly TextChunk[], chunk: number): number {
  let codePoints = 0;
  for (let i = 0; i < chunk && i < chunks.length; i++) codePoints += chunks[i]?.codePoints ?? 0;
  return codePoints;
}

/**
 * The words of chunk `chunk`, whose audio starts at `startMs` of the utterance and is `audioMs` long (its pause after
 * excluded), from the engine's `boundaries` of that chunk (in order). An engine word whose input is not complete at
 * its end (the "five" and "hundred" of "₹500", whose reading counts only once its last word is spoken) is one word
 * with the words after it, up to the one that completes the input: "₹500" from the start of "five" to the end of
 * "rupees". A chunk's first word starts where its audio does; each word ends where the next starts.
 */
export function chunkWords(
  source: WordSource,
  chunk: number,
  boundaries: readonly ChunkWordBoundary[],
  startMs: number,
  audioMs: number | undefined,
): TimedWord[] {
  const text = source.chunks[chunk];
  if (!text) return [];
  const before = codePointsBefore(source.chunks, chunk);
  const last = text.sourceAt.length - 1;
  const chunkEnd = before + text.codePoints;
  const cuts = boundaries.map((boundary) => ({
    atMs: boundary.atMs,
    source: pastClosingMarks(source.codePoints, before + (text.sourceAt[Math.min(boundary.textEnd, last)] ?? 0), chunkEnd),
  }));
  cuts.push({ atMs: audioMs ?? Number.NaN, source: before + text.codePoints });
  const words: TimedWord[] = [];
  let wordStartMs = 0;
  let sourceStart = before;
  for (const cut of cuts) {
    if (cut.source <= sourceStart) continue;
    const word = wordText(source.codePoints, sourceStart, cut.source);
    // Only whitespace or markup so far: it belongs to the next word, which starts here.
    if (word === '') continue;
    const endMs = Number.isNaN(cut.atMs) ? undefined : startMs + clampTo(cut.atMs, wordStartMs, audioMs);
    words.push({ text: word, sourceStart, sourceEnd: cut.source, startMs: startMs + wordStartMs, endMs });
    if (endMs !== undefined) wordStartMs = endMs - startMs;
    sourceStart = cut.source;
  }
  return words;
}

/** The boundaries of each chunk, in order (an utterance's list is in chunk order already). */
export function boundariesByChunk(boundaries: readonly ChunkWordBoundary[]): Map<number, ChunkWordBoundary[]> {
  const byChunk = new Map<number, ChunkWordBoundary[]>();
  for (const boundary of boundaries) {
    const list = byChunk.get(boundary.chunk);
    if (list) list.push(boundary);
    else byChunk.set(boundary.chunk, [boundary]);
  }
  return byChunk;
}

const MARKUP = /<[^>]*>/gu;
const WORD_OR_SPACE = /[\s\p{L}\p{N}\p{M}<]/u;

/**
 * A cut moved past the marks glued to the word before it: an engine may place the next word's start before a comma
 * ("Priya|, your"), and the comma is the earlier word's ("Priya,").
 */
function pastClosingMarks(codePoints: readonly string[], cut: number, end: number): number {
  if (cut <= 0 || /\s/u.test(codePoints[cut - 1] ?? ' ')) return cut;
  let at = cut;
  while (at < end && !WORD_OR_SPACE.test(codePoints[at] ?? ' ')) at++;
  return at;
}

function wordText(codePoints: readonly string[], start: number, end: number): string {
  return codePoints.slice(start, end).join('').replace(MARKUP, ' ').trim().replace(/\s+/gu, ' ');
}

/** A boundary never before the word's start nor past the chunk's audio (engines round, trims shift). */
function clampTo(atMs: number, minMs: number, maxMs: number | undefined): number {
  const atLeast = Math.max(atMs, minMs);
  return maxMs === undefined ? atLeast : Math.min(atLeast, Math.max(maxMs, minMs));
}
