// An engine that serves some voice x language pairs (an engine kind's installed packs), or every pair (the
// embedded engine), and says which kind it is: the registry asks each in order and the ledger records the kind.

import type { TtsEngine } from './tts-engine.js';

export interface PairEngine extends TtsEngine {
  /** The engine kind (`espeak`, `piper`, `flite`, `kokoro`): what the usage ledger records as having spoken. */
  readonly kind: string;
  /** True when this engine can speak the pair now (its pack loaded and a worker can run it). */
  serves(voiceName: string, language: string): boolean;
}
