// Entry point the API uses to synthesize: binds the engine and the chunking rules once, makes utterances.

import type { TtsEngine } from '../../engine/tts-engine.js';
import { Utterance, type ChunkingOptions, type UtteranceRequest } from './utterance.js';

export class SynthesisService {
  constructor(
    readonly engine: TtsEngine,
    private readonly chunking: ChunkingOptions,
  ) {}

  utterance(request: UtteranceRequest): Utterance {
    return new Utterance(this.engine, request, this.chunking);
  }

  isReady(): boolean {
    return this.engine.isReady();
  }
}
