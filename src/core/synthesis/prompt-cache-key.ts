// The prompt cache's key: a sha256 over everything that determines an utterance's output, so two requests share
// audio only when synthesis would have produced the same bytes: the text as the front end left it (chunks, with
// their pauses, the code points they bill and the voicing SSML gave them: rate, pitch, gain, language), language, voice (pitch, rate, and the owner of a custom voice), speed,
// what makes the audio (engine, version, the voice's parameters or pack identity), output format, sample rate, mode;
// the lexicon entries in force for the language (a digest of what each says: a phoneme entry changes no chunk text
// today, and must still never replay audio made before it changed); and whose it is (an account, unless the operator shares preset voices), so one tenant never hears another's hit.

import { createHash } from 'node:crypto';
import type { OutputFormat, SampleRateHz } from '../../audio/formats.js';
import type { LanguageCode } from '../../languages.js';
import type { TextLexicon } from '../text/apply-lexicon.js';
import type { TextChunk } from '../text/split-utterance.js';
import type { ResolvedVoice } from '../voice-resolver.js';

/** The parts of an utterance request that shape its audio (an UtteranceRequest is one). */
export interface CacheKeyRequest {
  readonly language: LanguageCode;
  readonly voice: ResolvedVoice;
  readonly format: OutputFormat;
  readonly sampleRateHz: SampleRateHz;
  readonly speed: number;
  /** `complete` builds one file (exact WAV header); `streaming` emits bytes chunk by chunk. */
  readonly mode: 'complete' | 'streaming';
  /**
   * The account's lexicons for the language (core/lexicons/lexicon-library.ts resolves them on every path); absent:
   * none (tools and tests).
   */
  readonly lexicon?: { readonly text: TextLexicon | undefined; readonly cacheKey: string | undefined } | undefined;
}

/** Bumped when the recording's layout or the audio path changes in a way the other parts do not capture. */
const KEY_VERSION = 2;

/** The scope of preset-voice audio when the operator shares it across accounts (PROMPT_CACHE_SHARED). */
export const SHARED_CACHE_SCOPE = '*shared*';

export function promptCacheKey(parts: {
  readonly audioSource: string;
  readonly chunks: readonly TextChunk[];
  readonly request: CacheKeyRequest;
  readonly budgetMs: number;
  /** Whose recordings these are: an account id, or SHARED_CACHE_SCOPE. */
  readonly scope: string;
}): string {
  const { request } = parts;
  const material = {
    v: KEY_VERSION,
    scope: parts.scope,
    source: parts.audioSource,
    chunks: parts.chunks.map((chunk) => [chunk.text, chunk.codePoints, chunk.pauseAfterMs, chunk.explicitPause === true, ...voicingMaterial(chunk)]),
    language: request.language,
    // The voice's own sound is in `source` (each engine's audioSource names its voice's parameters or files).
    voice: [request.voice.voiceName, request.voice.pitchShiftSemitones, request.voice.rateMultiplier, request.voice.ownerAccountId ?? null],
    speed: request.speed,
    format: request.format,
    sampleRateHz: request.sampleRateHz,
    mode: request.mode,
    budgetMs: parts.budgetMs,
    // Only with entries in force, so the keys of accounts without lexicons (and recordings on disk) stay as they were.
    ...(request.lexicon?.cacheKey !== undefined ? { lexicon: request.lexicon.cacheKey } : {}),
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/** A chunk's voicing, only when it has one: the keys of text without prosody or lang stay what they were. */
function voicingMaterial({ voicing }: TextChunk): (string | number)[] {
  if (!voicing) return [];
  // -Infinity (silent) has no JSON form of its own.
  return [voicing.rate, voicing.pitchSemitones, Number.isFinite(voicing.gainDb) ? voicing.gainDb : 'silent', voicing.language ?? ''];
}
