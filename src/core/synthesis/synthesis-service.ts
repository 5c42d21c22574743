// Entry point the API uses to synthesize: binds the engine, the chunking rules, the prompt cache and the accounts'
// lexicons once, makes utterances. Every path (HTTP, the dialects, the WebSocket, calls, streamed contexts) resolves the
// lexicons an utterance applies here, then hands them to `utterance()`, where the text front end applies them.

import type { AudioPipelineFactory } from '../../audio/audio-pipeline.js';
import type { TtsEngine } from '../../engine/tts-engine.js';
import { ApiError } from '../../errors.js';
import type { LanguageCode } from '../../languages.js';
import { NO_LEXICONS, type AppliedLexicons } from '../lexicons/applied-lexicons.js';
import type { LexiconLibrary } from '../lexicons/lexicon-library.js';
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
    /** The accounts' lexicons (the server's); absent: none apply, and naming one is refused (tools, tests). */
    private readonly library?: LexiconLibrary,
  ) {}

  /**
   * The lexicons an utterance of the account in `language` applies: its `default` and the `requested` ones, first
   * named first. A name the account lacks is a `validation_error` naming it and `field` (the request's own field).
   */
  async lexicons(accountId: string, requested: readonly string[] | undefined, language: LanguageCode, field = 'lexicons'): Promise<AppliedLexicons> {
    if (this.library) return this.library.resolve(accountId, requested, language, field);
    if (requested && requested.length > 0) throw new ApiError('validation_error', `Field '${field}' names lexicons, but this server keeps none.`, { field });
    return NO_LEXICONS;
  }

  /** The accounts' lexicons as this instance holds them (the lexicon routes refresh them after a change). */
  get lexiconLibrary(): LexiconLibrary | undefined {
    return this.library;
  }

  utterance(request: UtteranceRequest): Utterance {
    // Bound at its start: every clause of the utterance and its cache key name the engine that serves its pair now.
    const engine = this.engine.bind?.(request.voice.voiceName, request.language) ?? this.engine;
    return new Utterance(engine, request, this.chunking, this.promptCache, this.pipelines);
  }

  isReady(): boolean {
    return this.engine.isReady();
  }
}
