// What the caller has heard: one mark per chunk sent (named with turn, chunk and generation) and a position mark
// every few frames (named with the playout-axis position), each confirmed when the provider echoes it after playing
// the audio before it. A `clear` makes the provider echo every pending mark too, indistinguishable from played
// ones, so a clear (or a hold) bumps the generation and moves the pending names aside: their echoes are ignored.
// The last position confirmed is where a held call resumes. Transport-agnostic; the call session owns one per call.

import { boundariesByChunk, chunkWords, codePointsBefore } from '../core/synthesis/word-timings.js';
import { isSpeakable } from '../core/text/split-utterance.js';
import type { TurnInfo } from './call-turns.js';

export interface SentMark {
  readonly name: string;
  readonly seq: number;
  readonly final: boolean;
}

/** An utterance the caller stopped hearing: the `interrupted` event's facts. */
export interface InterruptedUtterance {
  readonly utteranceId: string | undefined;
  /** Confirmed by marks, raised to the playout estimate, never past what was sent. */
  readonly playedMs: number;
  /**
   * The source text the caller heard: the chunks whose marks came back before the clear and, where the engine gave
   * word timings, the words of the next chunk that ended before the last position confirmed.
   */
  readonly heardText: string;
}

export type EchoResult =
  | { readonly kind: 'played'; readonly utteranceId: string | undefined; readonly final: boolean; readonly durationMs: number }
  | { readonly kind: 'position' }
  | { readonly kind: 'cleared' }
  | { readonly kind: 'unknown' };

interface Outstanding {
  readonly info: TurnInfo;
  /** Position of its first frame on the playout axis (PlayoutClock.sentMs at its start). */
  readonly startOffsetMs: number;
  sentMs: number;
  confirmedMs: number;
  /** Input code points of the chunks confirmed played. */
  heardCodePoints: number;
  /** Where each chunk's audio ends in the utterance's sent audio, by the mark that follows it (lastChunk → ms). */
  readonly chunkEndsMs: Map<number, number>;
}

type Pending =
  | { readonly kind: 'chunk'; readonly seq: number; readonly endMs: number; readonly axisMs: number; readonly heardCodePoints: number; readonly final: boolean }
  | { readonly kind: 'position'; readonly axisMs: number };

/** Where a playout-axis position falls: in which outstanding utterance, and how far into it. */
export interface UtterancePosition {
  readonly utteranceId: string | undefined;
  readonly offsetMs: number;
}

/** Cleared names kept for their late echoes; the provider sends them right after the clear, so this is ample. */
const MAX_CLEARED = 4096;

export class PlaybackLedger {
  #generation = 0;
  readonly #pending = new Map<string, Pending>();
  readonly #cleared = new Set<string>();
  /** Utterances with audio possibly still to play, in the current generation, in order. */
  readonly #outstanding = new Map<number, Outstanding>();
  /** The furthest playout-axis position the provider has confirmed played since the axis began. */
  #confirmedMs = 0;

  get generation(): number {
    return this.#generation;
  }

  /** Playout-axis position up to which the caller has certainly heard the audio (the last mark echoed). */
  get confirmedMs(): number {
    return this.#confirmedMs;
  }

  /** The outstanding utterance holding axis position `axisMs` (the first one when before all). */
  locate(axisMs: number): UtterancePosition | undefined {
    let found: Outstanding | undefined;
    for (const entry of this.#outstanding.values()) {
      if (found === undefined || entry.startOffsetMs <= axisMs) found = entry;
    }
    if (!found) return undefined;
    return { utteranceId: found.info.utteranceId, offsetMs: Math.round(Math.min(found.sentMs, Math.max(0, axisMs - found.startOffsetMs))) };
  }

  /** True while some bot audio may still be playing (sent, final mark not echoed). */
  outstanding(): boolean {
    return this.#outstanding.size > 0;
  }

  /** True when an outstanding utterance may not be cut by barge-in. */
  protectedOutstanding(): boolean {
    for (const entry of this.#outstanding.values()) if (!entry.info.interruptible) return true;
    return false;
  }

  begin(info: TurnInfo, startOffsetMs: number): void {
    this.#outstanding.set(info.seq, { info, startOffsetMs, sentMs: 0, confirmedMs: 0, heardCodePoints: 0, chunkEndsMs: new Map() });
  }

  audioSent(seq: number, ms: number): void {
    const entry = this.#outstanding.get(seq);
    if (entry) entry.sentMs += ms;
  }

  /**
   * Records the mark that follows chunk `lastChunk` of turn `seq` and returns its name; `utteranceMs` is the audio
   * of the turn before it (what was sent so far, unless the mark is issued again from the tape).
   */
  markSent(seq: number, lastChunk: number, final: boolean, utteranceMs?: number): SentMark {
    const name = `u${seq}.c${lastChunk}.g${this.#generation}`;
    const entry = this.#outstanding.get(seq);
    if (entry) {
      const endMs = utteranceMs ?? entry.sentMs;
      entry.chunkEndsMs.set(lastChunk, endMs);
      this.#pending.set(name, { kind: 'chunk', seq, endMs, axisMs: entry.startOffsetMs + endMs, heardCodePoints: codePointsBefore(entry.info.chunks, lastChunk + 1), final });
    }
    return { name, seq, final };
  }

  /** Names a position mark: the audio before playout-axis position `axisMs` has played when it comes back. */
  positionMark(axisMs: number): string {
    const name = `p${Math.round(axisMs)}.g${this.#generation}`;
    this.#pending.set(name, { kind: 'position', axisMs });
    return name;
  }

  /** The turn's audio before its mark: for the tape, so a replayed mark keeps its place. */
  utteranceSentMs(seq: number): number {
    return this.#outstanding.get(seq)?.sentMs ?? 0;
  }

  /** A mark came back from the provider. */
  echoed(name: string): EchoResult {
    if (this.#cleared.delete(name)) return { kind: 'cleared' };
    const mark = this.#pending.get(name);
    if (!mark) return { kind: 'unknown' };
    this.#pending.delete(name);
    this.#confirmedMs = Math.max(this.#confirmedMs, mark.axisMs);
    if (mark.kind === 'position') return { kind: 'position' };
    const entry = this.#outstanding.get(mark.seq);
    if (!entry) return { kind: 'unknown' };
    entry.confirmedMs = mark.endMs;
    entry.heardCodePoints = mark.heardCodePoints;
    if (mark.final) this.#outstanding.delete(mark.seq);
    return { kind: 'played', utteranceId: entry.info.utteranceId, final: mark.final, durationMs: mark.endMs };
  }

  /** A turn that ended without its final mark (engine failure): nothing more of it will play or be confirmed. */
  abandon(seq: number): void {
    this.#outstanding.delete(seq);
    for (const [name, mark] of this.#pending) if (mark.kind === 'chunk' && mark.seq === seq) this.#pending.delete(name);
  }

  /**
   * The provider's buffer was cleared to hold the call: the marks pending now will come back (or not) without
   * meaning anything, so a new generation starts; the utterances stay outstanding, to be replayed or committed.
   */
  hold(): void {
    this.#retirePending();
  }

  /**
   * The provider's buffer was cleared at `playedPositionMs` (PlayoutClock.playedMs()): returns what each
   * outstanding utterance got to play, and starts a new generation whose marks alone count.
   */
  clear(playedPositionMs: number): InterruptedUtterance[] {
    const interrupted: InterruptedUtterance[] = [];
    for (const entry of this.#outstanding.values()) {
      const estimate = playedPositionMs - entry.startOffsetMs;
      // Position marks confirm more finely than chunk marks: whichever came back further counts.
      const confirmedMs = Math.max(entry.confirmedMs, Math.min(entry.sentMs, this.#confirmedMs - entry.startOffsetMs));
      const playedMs = Math.max(confirmedMs, Math.min(entry.sentMs, Math.max(0, estimate)));
      const heard = Math.max(entry.heardCodePoints, heardBy(entry, confirmedMs));
      interrupted.push({ utteranceId: entry.info.utteranceId, playedMs: Math.round(playedMs), heardText: sourceText(entry.info, heard) });
    }
    this.#retirePending();
    this.#outstanding.clear();
    this.#confirmedMs = 0;
    return interrupted;
  }

  #retirePending(): void {
    for (const name of this.#pending.keys()) this.#cleared.add(name);
    while (this.#cleared.size > MAX_CLEARED) this.#cleared.delete(this.#cleared.values().next().value as string);
    this.#pending.clear();
    this.#generation++;
  }
}

function sourceText(info: TurnInfo, codePoints: number): string {
  return [...info.text].slice(0, codePoints).join('').trim();
}

/**
 * Input code points heard by `heardMs` of the utterance's audio: every chunk whose end (its mark's place) lies
 * before it, and the words that finished before it (a word ends where the next one starts, by the engine's
 * boundaries: word-timings.ts), each placed in its chunk by the mark that ended the chunk before.
 */
function heardBy(entry: Outstanding, heardMs: number): number {
  const { chunks } = entry.info;
  let heard = 0;
  for (const [lastChunk, endMs] of entry.chunkEndsMs) if (endMs <= heardMs) heard = Math.max(heard, codePointsBefore(chunks, lastChunk + 1));
  if (entry.info.words.length === 0) return heard;
  const source = { codePoints: [...entry.info.text], chunks };
  for (const [chunk, boundaries] of boundariesByChunk(entry.info.words)) {
    const startMs = chunkStartMs(entry, chunk);
    if (startMs === undefined) continue;
    // The chunk's last word ends at its mark, counted above: its audio length is not needed here.
    for (const word of chunkWords(source, chunk, boundaries, startMs, undefined)) {
      if (word.endMs !== undefined && word.endMs <= heardMs) heard = Math.max(heard, word.sourceEnd);
    }
  }
  return heard;
}

/**
 * Where chunk `chunk`'s audio starts: where the mark after the chunk before it was placed (0 for the first). Chunks
 * with nothing to say in between have no audio of their own; any other unmarked chunk means the start is not known.
 */
function chunkStartMs(entry: Outstanding, chunk: number): number | undefined {
  for (let before = chunk - 1; before >= 0; before--) {
    const endMs = entry.chunkEndsMs.get(before);
    if (endMs !== undefined) return endMs;
    if (isSpeakable(entry.info.chunks[before]?.text ?? '')) return undefined;
  }
  return 0;
}
