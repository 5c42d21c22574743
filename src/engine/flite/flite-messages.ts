// What the Flite engine and its worker threads exchange: the voices to open (with the language each must declare),
// one clause's job, its result, and the ready report. Plain structured-cloneable data.

import type { LanguageCode } from '../../languages.js';
import type { WordBoundary } from '../tts-engine.js';

export interface FliteVoiceSpec {
  readonly path: string;
  /** The language the pack serves: the voice must declare it (a .flitevox for another language is refused). */
  readonly language: LanguageCode;
}

export interface FliteWorkerData {
  readonly voices: readonly FliteVoiceSpec[];
  /** The engine's directory in which each worker makes its private one (flite-sandbox.ts). */
  readonly sandboxDir: string;
}

export interface FliteJob {
  readonly voicePath: string;
  readonly language: LanguageCode;
  readonly text: string;
  readonly speed: number;
  readonly pitchShiftSemitones: number;
  readonly deliverAtRateHz?: number | undefined;
}

export interface FliteResult {
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  readonly shaped: boolean;
  /** Empty when flite's output did not place the words reliably (flite-words.ts). */
  readonly words: readonly WordBoundary[];
}

/** What the worker's report (PackWorkerReport) names: a voice file checked for one language (the same file may be
 * refused for another). */
export function fliteVoiceKey(path: string, language: string): string {
  return `${path}\u0000${language}`;
}
