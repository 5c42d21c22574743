// A call's barge-in settings, and the contract between its barge-in (call-barge-in.ts) and voice activity detection:
// barge-in feeds the caller's 20 ms frames in (decoded once, shared with the echo gate) and reacts to the events.
// Implemented by src/session/barge-in/barge-in-detector.ts on top of a speech-probability model (Silero VAD, src/engine/vad/).

import type { BargeInPolicy } from './barge-in-controller.js';

export type BargeInMode = 'speech' | 'dtmf' | 'any' | 'none';

export interface BargeInSettings {
  /** What may interrupt the bot: caller speech, a DTMF key, either, or nothing. */
  readonly mode: BargeInMode;
  /** Speech must last this long before it counts as a barge-in (fillers such as "hmm" are shorter). */
  readonly minSpeechMs: number;
  /** When true, speech only interrupts while bot audio is still outstanding (sent and not yet played). */
  readonly onlyWhileBotSpeaking: boolean;
  /**
   * `vad`: pause fast, decide slow (barge-in-controller.ts): a suspect holds the bot, the policy commits or
   * resumes. `off`: one decision, as before holds existed: minSpeechMs of speech cuts the bot for good.
   */
  readonly suspect: BargeInSuspect;
  readonly policy: BargeInPolicy;
  /** HOLD_EVENTS (2): the agent gets `interruption_suspected` and `resumed` and may answer with `barge_in_verdict`. */
  readonly events: BargeInEvents;
}

export type BargeInSuspect = 'vad' | 'off';

/** What an agent may change mid-call (`config.barge_in`). */
export type BargeInOverrides = Partial<Pick<BargeInSettings, 'suspect' | 'events'>> & Partial<BargeInPolicy>;
/** What the agent hears of barge-in: 1, `interrupted` only; HOLD_EVENTS, also the holds and what decided them. */
export type BargeInEvents = 1 | 2;
/** barge_in_events=2: the agent hears every hold and its outcome, and may judge a hold (`barge_in_verdict`). */
export const HOLD_EVENTS = 2 satisfies BargeInEvents;

export type VoiceActivityEvent =
  /** Speech onset confirmed (after minSpeechMs); `onsetMs` is when the first speech window began, on the call clock. */
  | { readonly type: 'speech_started'; readonly onsetMs: number; readonly atMs: number }
  | { readonly type: 'speech_stopped'; readonly atMs: number; readonly durationMs: number }
  // The fast, reversible layer (only with `longSpeechMs`): one window of either staggered stream at the suspect
  // threshold opens a span; it ends after a short silence and reports its extent (first speech to last speech).
  /** Caller speech is likely: the first window at the suspect threshold; nothing is confirmed yet. */
  | { readonly type: 'suspect_started'; readonly onsetMs: number; readonly atMs: number }
  /** The span has held speech for `longSpeechMs` (it is still going on): no filler lasts that long. */
  | { readonly type: 'suspect_long'; readonly atMs: number; readonly extentMs: number }
  /** The span is over: `extentMs` from its onset to the end of its last speech window. */
  | { readonly type: 'suspect_ended'; readonly atMs: number; readonly extentMs: number };

export interface DetectorSettings {
  readonly minSpeechMs: number;
  /** Set: the suspect layer runs (a second Silero stream staggered by half a window, the suspect_* events). */
  readonly longSpeechMs?: number | undefined;
  /**
   * With the suspect layer: whether a suspect would do anything now (hold the bot, or go on with a hold). While it
   * would not, the staggered stream does not run the model (barge-in-detector.ts, huntThreshold). Absent: always.
   */
  readonly onsetMatters?: (() => boolean) | undefined;
}

export interface VoiceActivityDetector {
  /**
   * One inbound frame, decoded to 16-bit PCM at 8 kHz (normally 160 samples = 20 ms), received at `atMs` on the call
   * clock. Its events go to the listener given at creation: at once, or within the same turn of the event loop when
   * the model batches the windows of many calls (src/engine/vad/silero-batcher.ts).
   */
  pushPcm(pcm: Int16Array, atMs: number): void;
  /** The span length that raises `suspect_long` from now on (the call's long_min_ms changed). */
  setLongSpeechMs(ms: number): void;
  reset(): void;
  close(): void;
}

/** Creates one detector per call; the model session behind it is shared and loaded once. */
export interface VoiceActivityDetectorFactory {
  /**
   * `onJudged(atMs)`: every window of the audio up to the frame received at `atMs` has been judged and its events
   * given, so nothing more will be said about that audio. Called between events, in the audio's order, whatever
   * order the frames arrived and the model answered in: barge-in's timers run on it (caller-audio-clock.ts).
   */
  create(settings: DetectorSettings, onEvent: (event: VoiceActivityEvent) => void, onJudged?: (atMs: number) => void): VoiceActivityDetector;
  /** Resolves when the model is loaded and warmed (readiness). */
  ready(): Promise<void>;
}
