// The engine contract: text of one clause in, PCM out, in worker threads. Engines know nothing of
// accounts, formats or HTTP; the synthesis service in core/ drives them clause by clause.

import type { LanguageCode } from '../languages.js';
import type { JobLane } from './job-queue.js';

export interface SynthesisJob {
  /** One clause or sentence, already normalised by the text front end. */
  readonly text: string;
  readonly language: LanguageCode;
  /** The catalog voice that speaks (a custom voice's base voice): each engine knows what it sounds like. */
  readonly voiceName: string;
  /** Tempo multiplier 0.5..2.0 applied natively by the engine. */
  readonly speed: number;
  /** Semitone pitch shift for custom voices; 0 for presets. */
  readonly pitchShiftSemitones: number;
  /**
   * When set, an engine that can shapes the clause and resamples it to this rate in its worker (clause-delivery.ts)
   * and says so with `shaped`, keeping that work off the event loop; an engine that cannot ignores it.
   */
  readonly deliverAtRateHz?: number;
  /** Whose clause it is, for the order in which waiting clauses get a worker (job-queue.ts). */
  readonly lane?: JobLane;
}

/** A word boundary in a clip: the words before code point `textEnd` of the job's text were spoken by `atMs`. */
export interface WordBoundary {
  readonly textEnd: number;
  readonly atMs: number;
}

export interface PcmClip {
  /** Mono samples in [-1, 1] at `sampleRateHz`. */
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  /** True when the clause was shaped and resampled to the job's `deliverAtRateHz` (nothing left but pauses). */
  readonly shaped?: boolean;
  /**
   * Where each word after the first starts, in order, on the clip as delivered (after any trim): from an engine
   * that knows its word timings (eSpeak does; a neural pack does not, and leaves it undefined). Empty for a clause of
   * several words means the engine could not place them (Flite, at times): no word is then timed. It tells a phone call
   * which words a caller heard before a barge-in, and the dialects that report timings where each word starts.
   */
  readonly words?: readonly WordBoundary[];
  /** The engine kind that spoke it (set by the engine registry): what the usage ledger records. */
  readonly engine?: string;
}

export interface TtsEngine {
  /** Name for logs and `/readyz` (e.g. `espeak-ng-wasm`). */
  readonly name: string;
  /** Resolves when every worker is loaded and has run a warm-up synthesis. */
  start(): Promise<void>;
  /** True once `start` resolved and at least one worker is alive. */
  isReady(): boolean;
  /**
   * Synthesizes one clause. Rejects with EngineBusyError when the bounded queue is full, with
   * EngineUnavailableError when no worker can serve, and with the signal's reason when aborted
   * (a queued job leaves the queue at once; a running clause finishes in its worker and is dropped).
   */
  synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip>;
  /**
   * What makes this voice + language's audio, as one string that changes whenever the audio could: the engine and
   * its version, the voice's own parameters, and for a pack its files' identity (sha256 when recorded). The prompt
   * cache keys on it.
   */
  audioSource(voiceName: string, language: LanguageCode): string;
  /** The engine kind that speaks this voice + language now (`espeak`, `piper`, …): what the usage ledger records. */
  kindFor(voiceName: string, language: LanguageCode): string;
  /**
   * The engine one utterance speaks with, taken at its start: each voice + language pair keeps the engine that served
   * it first, so every clause and the prompt cache key (`audioSource`) name the same engine, and a pack that dies
   * mid-utterance fails it (EngineUnavailableError) instead of another voice finishing it (bound-engine.ts). Absent:
   * the engine is one engine, its own binding.
   */
  bind?(voiceName: string, language: LanguageCode): TtsEngine;
  /** Jobs waiting plus jobs running, for metrics and tests. */
  load(): { readonly queued: number; readonly running: number; readonly workers: number };
  close(): Promise<void>;
}

export class EngineBusyError extends Error {
  constructor(message = 'synthesis queue is full') {
    super(message);
    this.name = 'EngineBusyError';
  }
}

export class EngineUnavailableError extends Error {
  constructor(message = 'no synthesis worker is available') {
    super(message);
    this.name = 'EngineUnavailableError';
  }
}
