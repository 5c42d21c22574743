// Entry point the API uses to synthesize: binds the engine, the chunking rules and the prompt cache once, makes
// utterances.

import type { AudioPipelineFactory } from '../../audio/audio-pipeline.js';
import type { TtsEngine } from '../../engine/tts-engine.js';
import type { PromptCache } from './prompt-cache.js';
import { Utterance, type ChunkingOptions, type UtteranceRequest } from './utterance.js';

export class SynthesisService {
  constructor(
    readonly engine: TtsEngine,
    private readonly chunking: ChunkingOptions,
    /** Undefined: every utterance is synthesized. */
    readonly promptCache?: PromptCache,
    /** Where audio is encoded; absent: on the calling thread (tests of the text and billing paths). */
    private readonly pipelines?: AudioPipelineFactory,
  ) {}

  utterance(request: UtteranceRequest): Utterance {
    // Bound at its start: every clause of the utterance and its cache key name the engine that serves its pair now.
    const engine = this.engine.bind?.(request.voice.voiceName, request.language) ?? this.engine;
    return new Utterance(engine, request, this.chunking, this.promptCache, this.pipelines);
  }

  isReady(): boolean {
    return this.engine.isReady();
  }
}
