// What the Kokoro engine and its worker threads exchange beyond what every pack kind does (pack-messages.ts): the
// files (models and style files, each loaded once per worker), the phonemizer languages to warm, and one job.

import type { PackWorkerData, PackWorkerFile } from '../pack-messages.js';
import type { KokoroLanguage } from './kokoro-language.js';

/** A model (one session per worker; several packs share one) or a voice's style file (read once per worker). */
export interface KokoroFile extends PackWorkerFile {
  readonly role: 'model' | 'style';
}

export interface KokoroWorkerSettings {
  /** The phonemizer languages the routes use, each warmed once at start. */
  readonly languages: readonly KokoroLanguage[];
  readonly intraOpNumThreads: number;
}

export type KokoroWorkerData = PackWorkerData<KokoroFile, KokoroWorkerSettings>;

export interface KokoroJob {
  readonly modelPath: string;
  readonly stylePath: string;
  readonly language: KokoroLanguage;
  readonly text: string;
  /** Kokoro's own speed input (0.5..2). */
  readonly speed: number;
  readonly pitchShiftSemitones: number;
}
