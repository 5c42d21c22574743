// What the Flite engine and its worker threads exchange beyond what every pack kind does (pack-messages.ts): the voices
// to open (with the language each must declare), one clause's job, and the worker's voice bank figures with each
// clause. Plain structured-cloneable data.

import type { LanguageCode } from '../../languages.js';
import type { PackWorkerData, PackWorkerFile, SpokenClause } from '../pack-messages.js';
import type { WordBoundary } from '../tts-engine.js';
import type { FliteBankStats } from './flite-voice-bank.js';

export interface FliteVoiceFile extends PackWorkerFile {
  /** The language the pack serves: the voice must declare it (a .flitevox for another language is refused). */
  readonly language: LanguageCode;
}

export interface FliteWorkerSettings {
  /** RAAGA_MODELS_DIR: every voice file's real path must lie inside it. */
  readonly modelsDir: string;
  /** Heap one worker may give to loaded voices (FLITE_VOICE_BUDGET_BYTES unless a test or bench sets it). */
  readonly voiceBudgetBytes?: number | undefined;
}

export type FliteWorkerData = PackWorkerData<FliteVoiceFile, FliteWorkerSettings>;

export interface FliteJob {
  readonly voicePath: string;
  readonly language: LanguageCode;
  readonly text: string;
  readonly speed: number;
  readonly pitchShiftSemitones: number;
  /** Tests only (FliteEngine.trapInstanceForTest): make the worker's instance trap for real instead of speaking. */
  readonly trapForTest?: true;
}

/** A worker's voice bank figures after a job, with the worker's thread id. */
export interface FliteWorkerStats extends FliteBankStats {
  readonly threadId: number;
}

export interface FliteSpokenClause extends SpokenClause {
  /** Empty when the utterance's tokens did not place the words reliably (flite-words.ts). */
  readonly words: readonly WordBoundary[];
  readonly stats: FliteWorkerStats;
}

/** What the worker's report (PackWorkerReport) names: a voice file checked for one language (the same file may be
 * refused for another). */
export function fliteVoiceKey(path: string, language: string): string {
  return `${path}\u0000${language}`;
}
