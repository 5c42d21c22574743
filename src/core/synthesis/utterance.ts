// One utterance: splits the text into chunks, synthesizes them in order on the engine (the next chunk is
// already queued while the current one is encoded and sent), shapes, resamples and encodes the audio,
// and keeps the counts that billing and `duration_seconds` need. Cancellation is the caller's AbortSignal.
// With a prompt cache, a finished utterance is recorded and the same utterance later replays the recording,
// counters included, without waiting on the engine (prompt-cache.ts).
// Each chunk is spoken with its own voicing (SSML prosody, emphasis, lang: core/text/voicing.ts): its speed, pitch and
// language go to its engine job, its gain onto its audio.

import { EMPTY_BYTES } from '../../audio/bytes.js';
import { inlinePipeline, type AudioPipeline, type AudioPipelineFactory } from '../../audio/audio-pipeline.js';
import { afterTrim } from '../../audio/clause-delivery.js';
import { adjustClause } from '../../audio/clause-gain.js';
import { newOggSerial, withOggSerial } from '../../audio/ogg-page.js';
import type { PcmClip, TtsEngine } from '../../engine/tts-engine.js';
import { eventLoopTurn } from '../../util/event-loop-turn.js';
import type { LanguageCode } from '../../languages.js';
import { ignoredMarkup, isSpeakable, splitUtterance, type TextChunk } from '../text/split-utterance.js';
import { clamp, MAX_PITCH_SEMITONES, MAX_SPEED, MIN_SPEED } from '../text/voicing.js';
import type { ResolvedVoice } from '../voice-resolver.js';
import type { PromptCache, RecordedUtterance, UtteranceCounters } from './prompt-cache.js';
import type { ChunkWordBoundary, TimedChunk } from './recorded-utterance.js';
import { type CacheKeyRequest, promptCacheKey, SHARED_CACHE_SCOPE } from './prompt-cache-key.js';

export interface UtteranceRequest extends CacheKeyRequest {
  readonly text: string;
  /** False: neither served from nor stored in the prompt cache (the request's opt-out). */
  readonly cache?: boolean;
  /**
   * Whose audio this is: the prompt cache keeps each account's recordings apart, so no tenant can learn from a
   * fast answer what another one had spoken (PROMPT_CACHE_SHARED lets preset voices be shared). Absent: no cache.
   */
  readonly accountId?: string;
  /** True for a phone call's speech: its clauses get a worker before any API request's (engine/job-queue.ts). */
  readonly forCall?: boolean;
  /**
   * Silence after the last chunk. A text streamed in segments (streamed-text.ts) is spoken as one utterance per
   * segment, and each but the last needs the pause its sentence or clause would have had inside one text.
   */
  readonly trailingPauseMs?: number;
}

export interface ChunkingOptions {
  readonly firstChunkMaxChars: number;
  readonly maxChunkChars: number;
  /** Safety budget per code point at speed 1 (default MAX_AUDIO_MS_PER_CHAR); tests lower it to reach truncation. */
  readonly maxAudioMsPerChar?: number;
}

/**
 * The pipeline resamples from the rate of the engine's clips (22050 Hz embedded, 16000 or 22050 Hz for neural
 * packs), taken from the first clip with audio; this rate is used only when no chunk has any audio.
 */
const SILENT_UTTERANCE_RATE_HZ = 22050;
const NO_SAMPLES = new Float32Array(0);
/**
 * Safety budget: no sane reading of N characters lasts longer than this per character at speed 1
 * (slow Indic speech is ~12 characters/s; digits expand). Past it the utterance is truncated, not billed.
 */
const MAX_AUDIO_MS_PER_CHAR = 400;
const MIN_AUDIO_BUDGET_MS = 10_000;

export class Utterance {
  readonly chunks: readonly TextChunk[];
  #codePointsSpoken = 0;
  #chunksDone = 0;
  #durationMs = 0;
  #truncated = false;
  #fromCache = false;
  #spokenBy: string | undefined;
  readonly #budgetMs: number;
  readonly #words: ChunkWordBoundary[] = [];
  readonly #timedChunks: TimedChunk[] = [];
  /** The first chunk's engine job, started by prefetch() and not yet taken by the synthesis. */
  #early: { readonly job: Promise<PcmClip>; readonly controller: AbortController } | undefined;
  #prefetchUsed = false;
  #ignoredMarkup: readonly string[] | undefined;

  constructor(
    private readonly engine: TtsEngine,
    private readonly request: UtteranceRequest,
    private readonly chunking: ChunkingOptions,
    private readonly cache?: PromptCache,
    /** Where each utterance's audio is shaped, resampled and encoded (engine/encoder-threads.ts for MP3). */
    private readonly pipelines: AudioPipelineFactory = inlinePipeline,
  ) {
    // The text front end runs here: chunk text reaches every engine normalised for the request's language.
    // The account's lexicons apply first, each entry read as a hand-written <sub alias> (core/text/apply-lexicon.ts).
    this.chunks = withTrailingPause(
      splitUtterance(request.text, { ...chunking, language: request.language, speaks: speaksOf(request.voice), lexicon: request.lexicon?.text }),
      request.trailingPauseMs,
    );
    const totalCodePoints = this.chunks.reduce((sum, chunk) => sum + chunk.codePoints, 0);
    const msPerChar = chunking.maxAudioMsPerChar ?? MAX_AUDIO_MS_PER_CHAR;
    this.#budgetMs = Math.max(MIN_AUDIO_BUDGET_MS, (totalCodePoints * msPerChar) / request.speed);
  }

  /**
   * The SSML elements of the text that are not applied (lenient mode: dropped, their text spoken), each named once: what
   * the routes report (X-SSML-Ignored, the WebSocket's `ssml_ignored`). Empty for plain text.
   */
  get ssmlIgnored(): readonly string[] {
    this.#ignoredMarkup ??= ignoredMarkup(this.request.text, { language: this.request.language, speaks: speaksOf(this.request.voice) });
    return this.#ignoredMarkup;
  }

  /** Code points of the chunks whose audio has been produced: what a cancelled utterance bills. */
  get codePointsSpoken(): number {
    return this.#codePointsSpoken;
  }

  /** Chunks whose audio has been produced (yielded or about to be): phone calls mark playback per chunk. */
  get chunksDone(): number {
    return this.#chunksDone;
  }

  get durationMs(): number {
    return this.#durationMs;
  }

  /** The engine kind that spoke this utterance (its first clip with audio), else the one that speaks its pair now. */
  get engineKind(): string {
    return this.#spokenBy ?? this.engine.kindFor(this.request.voice.voiceName, this.request.language);
  }

  /** True when the audio budget stopped the utterance early (`step_budget_exceeded`). */
  get truncated(): boolean {
    return this.#truncated;
  }

  /**
   * Where the words of each chunk start in that chunk's audio, as far as the audio has been produced (a live list:
   * it grows with `audio()`); empty for an engine without word timings.
   */
  get wordBoundaries(): readonly ChunkWordBoundary[] {
    return this.#words;
  }

  /**
   * The chunks whose engine gave word timings, placed on the utterance's audio as far as it has been produced (a live
   * list, like `wordBoundaries`); empty for an engine without word timings.
   */
  get timedChunks(): readonly TimedChunk[] {
    return this.#timedChunks;
  }

  /** True once `audio()` has started replaying a cached recording. */
  get fromCache(): boolean {
    return this.#fromCache;
  }

  /**
   * Encoded audio, one piece per chunk (the first piece carries the WAV header when streaming WAV): replayed from
   * the prompt cache when this utterance is there, else synthesized (and, once finished whole, recorded).
   * Stops with the signal's reason when aborted.
   */
  async *audio(signal: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
    const cache = this.cache?.enabled && this.request.cache !== false ? this.cache : undefined;
    // A custom voice is its owner's alone; a preset voice is the asking account's unless the operator shares them.
    const scope = this.request.voice.ownerAccountId ?? (cache?.sharedAcrossAccounts ? SHARED_CACHE_SCOPE : this.request.accountId);
    if (!cache || scope === undefined) return yield* this.#synthesized(signal);
    const key = promptCacheKey({
      audioSource: this.#audioSource(),
      chunks: this.chunks,
      request: this.request,
      budgetMs: this.#budgetMs,
      scope,
    });
    const recorded = await cache.lookup(key);
    if (recorded) {
      this.abandon();
      return yield* this.#replay(recorded, signal);
    }
    const pieces: { bytes: Uint8Array; after: UtteranceCounters }[] = [];
    let sizeBytes = 0;
    let whole = false;
    try {
      for await (const bytes of this.#synthesized(signal)) {
        // A copy: the consumer may hold or reuse what it is given.
        pieces.push({ bytes: bytes.slice(), after: this.#counters() });
        sizeBytes += bytes.length;
        yield bytes;
      }
      whole = true;
    } finally {
      // A prompt callers cut short (a barge-in, a key press in a menu) would otherwise never be kept: it is
      // finished once, in the background, while the engine has nothing waiting.
      if (!whole) this.#fillInBackground(cache, key);
    }
    // Only a whole utterance is kept; a truncated one is an error to its caller.
    if (!this.#truncated) cache.put(key, { pieces, end: this.#counters(), sizeBytes, words: [...this.#words], timedChunks: [...this.#timedChunks] });
  }

  /** What makes the audio: the engine of the request's language, and of each other language a `<lang>` span is in. */
  #audioSource(): string {
    const { voiceName } = this.request.voice;
    const languages = new Set<LanguageCode>([this.request.language]);
    for (const chunk of this.chunks) if (chunk.voicing?.language !== undefined) languages.add(chunk.voicing.language);
    return [...languages].map((language) => this.engine.audioSource(voiceName, language)).join(' + ');
  }

  /**
   * The clip's word boundaries, on its audio as the pipeline delivered it (`clipMs` long, from `startMs`); the clause
   * lost `leadTrimmedMs` from its start where it was shaped (undefined: by the pipeline, which says how much).
   */
  #recordWords(chunk: number, clip: PcmClip, pipeline: AudioPipeline, startMs: number, clipMs: number, leadTrimmedMs: number | undefined): void {
    // No list: the engine has no word timings. An empty one is timed only for a chunk of one word (nothing to
    // place); for more words it means the engine could not place them (Flite, tts-engine.ts), and none are invented.
    if (!clip.words || clip.samples.length === 0) return;
    if (clip.words.length === 0 && !isOneWord((this.chunks[chunk] as TextChunk).text)) return;
    this.#timedChunks.push({ chunk, startMs, audioMs: clipMs });
    if (clip.words.length === 0) return;
    const trimmedMs = clip.shaped === true ? 0 : (leadTrimmedMs ?? pipeline.lastLeadTrimmedMs);
    const words = trimmedMs === 0 ? clip.words : afterTrim(clip.words, trimmedMs, clipMs);
    for (const word of words) this.#words.push({ chunk, atMs: word.atMs, textEnd: word.textEnd });
  }

  #fillInBackground(cache: PromptCache, key: string): void {
    if (this.engine.load().queued > 0) return;
    cache.fill(key, async () => {
      const filler = new Utterance(this.engine, this.request, this.chunking, cache, this.pipelines);
      for await (const _bytes of filler.audio(new AbortController().signal));
    });
  }

  #counters(): UtteranceCounters {
    return { codePointsSpoken: this.#codePointsSpoken, chunksDone: this.#chunksDone, durationMs: this.#durationMs };
  }

  #setCounters(counters: UtteranceCounters): void {
    this.#codePointsSpoken = counters.codePointsSpoken;
    this.#chunksDone = counters.chunksDone;
    this.#durationMs = counters.durationMs;
  }

  async *#replay(recorded: RecordedUtterance, signal: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
    this.#fromCache = true;
    this.#words.push(...recorded.words);
    this.#timedChunks.push(...(recorded.timedChunks ?? []));
    const serial = this.request.format === 'opus' ? newOggSerial() : undefined;
    for (const piece of recorded.pieces) {
      // A consumer that only collects (generate) would otherwise run through every piece in one block.
      await eventLoopTurn();
      signal.throwIfAborted();
      this.#setCounters(piece.after);
      // A copy per consumer, so nobody can change what the next caller hears; a replayed Ogg stream gets a serial of
      // its own, so one recording twice on a WebSocket still makes a valid chain (RFC 3533 §4: a serial per link).
      yield serial === undefined ? piece.bytes.slice() : withOggSerial(piece.bytes, serial);
    }
    signal.throwIfAborted();
    this.#setCounters(recorded.end);
  }

  /**
   * Starts the first chunk's engine job now, before `audio()` asks for it: a call's next streamed segment is
   * synthesized while the one before it plays. `abandon()` drops it when the utterance will not be spoken.
   */
  prefetch(): void {
    if (this.#early || this.#prefetchUsed) return;
    this.#prefetchUsed = true;
    const controller = new AbortController();
    const job = this.#engineJob(0, controller.signal);
    if (job) this.#early = { job, controller };
  }

  /** The prefetched job, if any, is dropped (the utterance was withdrawn before it started). */
  abandon(): void {
    this.#early?.controller.abort(new Error('utterance abandoned'));
    this.#early = undefined;
  }

  /** Chunk `index`'s engine job (undefined past the last chunk); a chunk with nothing to say needs none. */
  #engineJob(index: number, signal: AbortSignal): Promise<PcmClip> | undefined {
    const { request } = this;
    const chunk = this.chunks[index];
    if (!chunk) return undefined;
    // No audio, so its rate is never read.
    if (!isSpeakable(chunk.text)) return Promise.resolve({ samples: NO_SAMPLES, sampleRateHz: SILENT_UTTERANCE_RATE_HZ });
    const voicing = chunk.voicing;
    const job = this.engine.synthesize(
      {
        text: chunk.text,
        language: voicing?.language ?? request.language,
        voiceName: request.voice.voiceName,
        speed: clamp(request.speed * request.voice.rateMultiplier * (voicing?.rate ?? 1), MIN_SPEED, MAX_SPEED),
        pitchShiftSemitones: clamp(request.voice.pitchShiftSemitones + (voicing?.pitchSemitones ?? 0), -MAX_PITCH_SEMITONES, MAX_PITCH_SEMITONES),
        deliverAtRateHz: request.sampleRateHz,
        lane: { kind: request.forCall === true ? 'call' : 'request', owner: request.accountId ?? '' },
      },
      signal,
    );
    job.catch(() => undefined); // awaited by the synthesis; this only keeps an abandoned prefetch from being "unhandled"
    return job;
  }

  /** Synthesis proper: the engine job of the chunk in flight is abandoned when the signal aborts. */
  async *#synthesized(signal: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
    const { request } = this;
    // Created at the first clip with audio, at that clip's rate; one voice's clips all share it.
    let pipeline: AudioPipeline | undefined;
    // Pauses of chunks that came before any audio, pushed once the pipeline exists.
    let pendingPauseMs = 0;
    const openPipeline = (rateHz: number): AudioPipeline =>
      this.pipelines({ inputRateHz: rateHz, outputRateHz: request.sampleRateHz, format: request.format, mode: request.mode });
    /** The encoded silence of the pauses that came before the pipeline was opened. */
    const lead = (opened: AudioPipeline): Promise<Uint8Array> =>
      pendingPauseMs > 0 ? opened.pushClause(NO_SAMPLES, pendingPauseMs, false) : Promise.resolve(EMPTY_BYTES);
    // Our own controller so a prefetched job is dropped when the consumer stops early.
    const local = new AbortController();
    const onAbort = (): void => local.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const start = (index: number): Promise<PcmClip> | undefined => this.#engineJob(index, local.signal);
    // The first chunk's job, when prefetch() started it: it now stops with this synthesis.
    const early = this.#early;
    this.#early = undefined;
    if (early) local.signal.addEventListener('abort', () => early.controller.abort(local.signal.reason), { once: true });
    try {
      signal.throwIfAborted();
      let next = early ? early.job : start(0);
      for (let index = 0; next; index++) {
        const clip = await next;
        signal.throwIfAborted();
        if (clip.samples.length > 0) this.#spokenBy ??= clip.engine;
        next = start(index + 1);
        // A prefetched clip that is already here resolves without a macrotask: without this turn a long utterance
        // would encode clause after clause in one block while live calls wait for their frames. (The next clause is
        // already queued, so the turn costs it nothing.)
        await eventLoopTurn();
        signal.throwIfAborted();
        const chunk = this.chunks[index] as TextChunk;
        const isLast = index === this.chunks.length - 1;
        // An SSML <break> at the very end is still silence the author asked for.
        const pauseMs = isLast && !chunk.explicitPause ? 0 : chunk.pauseAfterMs;
        let bytes = EMPTY_BYTES;
        if (pipeline === undefined && clip.samples.length === 0) {
          pendingPauseMs += pauseMs;
        } else {
          if (pipeline === undefined) {
            pipeline = openPipeline(clip.sampleRateHz);
            const silence = await lead(pipeline);
            if (silence.length > 0) yield silence;
          }
          // A gain (SSML volume, emphasis) goes on the shaped clause; a clip of another engine's rate (a <lang> span
          // spoken by another engine) is brought to the pipeline's.
          const adjusted = clip.samples.length === 0 ? undefined : adjustClause(clip, pipeline.inputRateHz, chunk.voicing?.gainDb ?? 0);
          const clipStartMs = pipeline.durationMs;
          bytes = await pipeline.pushClause(adjusted?.samples ?? clip.samples, pauseMs, adjusted?.shaped ?? clip.shaped === true);
          const trimmedMs = adjusted !== undefined && adjusted.shaped && clip.shaped !== true ? adjusted.leadTrimmedMs : undefined;
          this.#recordWords(index, clip, pipeline, clipStartMs, pipeline.durationMs - clipStartMs - pauseMs, trimmedMs);
        }
        this.#codePointsSpoken += chunk.codePoints;
        this.#chunksDone++;
        this.#durationMs = pipeline?.durationMs ?? 0;
        // The chunk that crosses the budget still goes out: `durationMs` counts it, so the bytes sent and the
        // duration reported agree (dropping it would report audio the client never got).
        if (bytes.length > 0) yield bytes;
        if (this.#durationMs > this.#budgetMs) {
          this.#truncated = true;
          break;
        }
      }
      if (pipeline === undefined) {
        pipeline = openPipeline(SILENT_UTTERANCE_RATE_HZ);
        const silence = await lead(pipeline);
        if (silence.length > 0) yield silence;
      }
      const tail = await pipeline.end();
      this.#durationMs = pipeline.durationMs;
      for (const piece of tail) yield piece;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!local.signal.aborted) local.abort(new Error('utterance finished'));
      pipeline?.close();
    }
  }
}

function isOneWord(text: string): boolean {
  return text.trim().split(/\s+/u).length <= 1;
}

/** The last chunk ends with `pauseMs` of silence, kept like a `<break>`'s (and so part of the prompt cache key). */
function withTrailingPause(chunks: TextChunk[], pauseMs: number | undefined): TextChunk[] {
  const last = chunks.at(-1);
  if (pauseMs === undefined || pauseMs <= 0 || !last || last.explicitPause === true) return chunks;
  return [...chunks.slice(0, -1), { ...last, pauseAfterMs: pauseMs, explicitPause: true }];
}

/** The languages the voice speaks, for `<lang>` spans; every language unless the catalog lists fewer for it. */
function speaksOf(voice: ResolvedVoice): ((language: LanguageCode) => boolean) | undefined {
  const { languages } = voice;
  return languages === undefined ? undefined : (language) => languages.includes(language);
}
