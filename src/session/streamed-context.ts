// One context of a streamed-input socket: text arrives in pieces, is cut into segments as soon as a sentence or clause
// is whole (core/text/streamed-text.ts), and each segment is admitted, synthesized and sent while the next is being
// written, with the pause its boundary calls for (Utterance's `trailingPauseMs`). A flush releases what waits. Closing
// lets flushed text play out and drops the rest; an abort stops everything at once. Each segment is billed for the
// chunks whose audio was handed to the socket, so a closed context pays only for what was delivered.

import type { Account } from '../store/store.js';
import type { UsageSource } from '../core/admission.js';
import { chargeFor, type UtteranceOutcome } from '../core/synthesis/billing.js';
import { AlignmentTracker, type CharacterAlignment } from '../core/synthesis/character-alignment.js';
import type { Utterance } from '../core/synthesis/utterance.js';
import type { AppliedLexicons } from '../core/lexicons/applied-lexicons.js';
import { StreamedText, type StreamedSegment } from '../core/text/streamed-text.js';
import { checkText } from '../core/text/text-limits.js';
import type { ResolvedVoice } from '../core/voice-resolver.js';
import type { OutputFormat, SampleRateHz } from '../audio/formats.js';
import type { LanguageCode } from '../languages.js';
import { ApiError, isApiError } from '../errors.js';
import { sleep, type Clock } from './clock.js';
import { CLOSE_CODES } from './close-codes.js';
import { classifyTurnFailure } from './session-errors.js';
import type { SessionServices } from './session-services.js';

/** The field a refusal of a context's lexicons names (ElevenLabs' name for them). */
const LEXICONS_FIELD = 'pronunciation_dictionary_locators';

/** What a context says to its socket: the dialect renders it (api/elevenlabs/). */
export interface ContextOutput {
  /**
   * One piece of audio in the socket's format, with the characters it completes when the engine placed them; `span`
   * is where the piece lies on the context's audio (its times and the alignment's share that axis).
   */
  audio(contextId: string, bytes: Uint8Array, alignment: CharacterAlignment | undefined, span: AudioSpan): void;
  /** The context is over: every segment it was going to speak has been sent. */
  final(contextId: string): void;
  /** The context failed (a refusal or a synthesis error): it is gone, nothing more comes for it. */
  failed(contextId: string, error: ApiError): void;
  /** The socket must close (a client not reading, capacity lost): every context stops. */
  fatal(code: number, reason: string): void;
  /** Bytes the socket holds unsent: the backpressure signal. */
  bufferedBytes(): number;
  /** Nothing is being spoken or waits to be any more (until more text comes). */
  idle(): void;
}

/** Who speaks a segment: the socket's language, or one read from the segment's own script when none was given. */
export interface SegmentSpeaker {
  readonly language: LanguageCode;
  readonly voice: ResolvedVoice;
}

/** Where a piece of audio lies on its context's time axis, in milliseconds. */
export interface AudioSpan {
  readonly startMs: number;
  readonly endMs: number;
}

export interface ContextAudio {
  /** Resolves the voice for a segment's language; refuses (voice_language_not_found) a pair the voice cannot speak. */
  speaker(text: string): Promise<SegmentSpeaker>;
  /** The requested voice as the client named it, for the usage ledger. */
  readonly voiceName: string;
  readonly format: OutputFormat;
  readonly sampleRateHz: SampleRateHz;
  readonly speed: number;
  /** The account's lexicons the context applies besides its default (ElevenLabs' pronunciation dictionaries). */
  readonly lexicons?: readonly string[];
}

export interface StreamedContextLimits {
  readonly clauseCutChars: number;
  readonly maxPendingChars: number;
  /** Segments waiting behind the one being spoken beyond which the client is sending faster than speech. */
  readonly maxQueuedSegments: number;
  readonly highWaterBytes: number;
  readonly backpressurePollMs: number;
  readonly stallTimeoutMs: number;
}

export interface StreamedContextDeps {
  readonly account: Account;
  readonly services: SessionServices;
  readonly clock: Clock;
  readonly output: ContextOutput;
  readonly limits: StreamedContextLimits;
  readonly usage: Pick<UsageSource, 'keyId' | 'endpoint'>;
  readonly promptCache: boolean;
  readonly onError: (error: unknown) => void;
}

interface QueuedSegment extends StreamedSegment {
  readonly index: number;
}

type ContextState = 'open' | 'closing' | 'ended';

export class StreamedContext {
  readonly #text: StreamedText;
  readonly #queue: QueuedSegment[] = [];
  #released = 0;
  /** Segments released up to the last flush: what a close still speaks. */
  #flushedThrough = 0;
  #state: ContextState = 'open';
  #running: { readonly index: number; readonly controller: AbortController } | undefined;
  #runner: Promise<void> | undefined;
  /** Audio of this context so far: where the next segment's times start. */
  #audioMs = 0;

  constructor(
    readonly id: string,
    private readonly audio: ContextAudio,
    private readonly deps: StreamedContextDeps,
  ) {
    this.#text = new StreamedText({ clauseCutChars: deps.limits.clauseCutChars, maxPendingChars: deps.limits.maxPendingChars });
  }

  /** True while the context takes text (not closing, not over). */
  get open(): boolean {
    return this.#state === 'open';
  }

  get ended(): boolean {
    return this.#state === 'ended';
  }

  /** True while a segment is being spoken or waits to be. */
  get busy(): boolean {
    return this.#running !== undefined || this.#queue.length > 0;
  }

  append(piece: string): void {
    this.#requireOpen();
    for (const segment of this.#text.append(piece)) this.#enqueue(segment);
    this.#kick();
  }

  flush(): void {
    this.#requireOpen();
    const rest = this.#text.flush();
    if (rest) this.#enqueue(rest);
    this.#flushedThrough = this.#released;
    this.#kick();
  }

  /** Ends the context: flushed text plays out, then `final`; text not flushed is dropped, its synthesis stopped. */
  close(): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#text.discard();
    const keep = this.#flushedThrough;
    this.#queue.splice(0, this.#queue.length, ...this.#queue.filter((segment) => segment.index < keep));
    if (this.#running && this.#running.index >= keep) this.#running.controller.abort('context closed');
    this.#kick();
  }

  /** Stops at once (the socket is closing): nothing more is sent, no `final`. */
  abort(reason: string): Promise<void> {
    this.#state = 'ended';
    this.#text.discard();
    this.#queue.length = 0;
    this.#running?.controller.abort(reason);
    return this.#runner ?? Promise.resolve();
  }

  #requireOpen(): void {
    if (this.#state !== 'open') {
      throw new ApiError('validation_error', `Context '${this.id}' is closed; open a new context_id to speak again.`);
    }
  }

  #enqueue(segment: StreamedSegment): void {
    if (this.#queue.length >= this.deps.limits.maxQueuedSegments) {
      throw new ApiError(
        'validation_error',
        `Context '${this.id}' already has ${this.#queue.length} segments waiting to be spoken; send text no faster than it is spoken.`,
      );
    }
    this.#queue.push({ ...segment, index: this.#released++ });
  }

  #kick(): void {
    if (this.#runner) return;
    this.#runner = this.#run()
      .catch((error: unknown) => this.deps.onError(error))
      .finally(() => {
        this.#runner = undefined;
        // Text may have arrived while the last segment was being settled.
        if (this.#state !== 'ended' && (this.#queue.length > 0 || this.#state === 'closing')) this.#kick();
        else this.deps.output.idle();
      });
  }

  async #run(): Promise<void> {
    for (;;) {
      const segment = this.#queue.shift();
      if (!segment) break;
      const ok = await this.#speak(segment);
      if (!ok) return;
    }
    if (this.#state === 'closing') {
      this.#state = 'ended';
      this.deps.output.final(this.id);
    }
  }

  /** False when the context failed or was aborted: nothing more runs. */
  async #speak(segment: QueuedSegment): Promise<boolean> {
    const { account, services, output } = this.deps;
    const controller = new AbortController();
    this.#running = { index: segment.index, controller };
    let ticket;
    let speaker: SegmentSpeaker;
    let lexicon: AppliedLexicons;
    let codePoints = 0;
    try {
      codePoints = checkText(segment.text);
      speaker = await this.audio.speaker(segment.text);
      lexicon = await services.synthesis.lexicons(account.id, this.audio.lexicons, speaker.language, LEXICONS_FIELD);
      ticket = await services.admission.admit({
        account,
        countRate: true,
        takeSlot: false,
        credits: codePoints,
        usage: { ...this.deps.usage, voice: this.audio.voiceName, language: speaker.language },
      });
    } catch (error) {
      this.#running = undefined;
      return this.#fail(error);
    }
    if (controller.signal.aborted) {
      this.#running = undefined;
      await ticket.finish(0);
      return this.#state !== 'ended';
    }
    const utterance = services.synthesis.utterance({
      text: segment.text,
      language: speaker.language,
      voice: speaker.voice,
      format: this.audio.format,
      sampleRateHz: this.audio.sampleRateHz,
      speed: this.audio.speed,
      mode: 'streaming',
      cache: this.deps.promptCache,
      accountId: account.id,
      lexicon,
      trailingPauseMs: segment.pauseAfterMs,
    });
    let outcome: UtteranceOutcome = 'failed';
    let delivered = 0;
    let sentMs = 0;
    try {
      const result = await this.#pump(utterance, segment.text, controller.signal, (codePointsSoFar, ms) => {
        delivered = codePointsSoFar;
        sentMs = ms;
      });
      outcome = result === 'completed' ? (utterance.truncated ? 'truncated' : 'completed') : 'cancelled';
      if (result === 'stalled') output.fatal(CLOSE_CODES.policyViolation, 'client stopped reading audio');
      return result === 'completed' || this.#state === 'closing';
    } catch (error) {
      return this.#fail(error);
    } finally {
      this.#running = undefined;
      this.#audioMs += outcome === 'completed' || outcome === 'truncated' ? utterance.durationMs : sentMs;
      const { used, report } = chargeFor({
        outcome,
        totalCodePoints: codePoints,
        deliveredCodePoints: delivered,
        audioMs: outcome === 'cancelled' ? sentMs : utterance.durationMs,
        engine: utterance.engineKind,
      });
      await ticket.finish(used, report).catch((error: unknown) => this.deps.onError(error));
    }
  }

  /** Sends the utterance's pieces as they come, each with the characters it completes; stops on abort or a stall. */
  async #pump(
    utterance: Utterance,
    text: string,
    signal: AbortSignal,
    progress: (deliveredCodePoints: number, sentMs: number) => void,
  ): Promise<'completed' | 'aborted' | 'stalled'> {
    const offsetMs = this.#audioMs;
    const alignment = new AlignmentTracker(utterance, text, offsetMs);
    const pieces = utterance.audio(signal);
    let pieceStartMs = 0;
    try {
      for await (const bytes of pieces) {
        if (!(await this.#waitForRoom(signal))) return 'stalled';
        if (signal.aborted) return 'aborted';
        const timing = alignment.next();
        const span = { startMs: offsetMs + pieceStartMs, endMs: offsetMs + utterance.durationMs };
        pieceStartMs = utterance.durationMs;
        if (bytes.length > 0 || timing) this.deps.output.audio(this.id, bytes, timing, span);
        progress(utterance.codePointsSpoken, utterance.durationMs);
      }
      return signal.aborted ? 'aborted' : 'completed';
    } catch (error) {
      if (signal.aborted) return 'aborted';
      throw error;
    }
  }

  /** False when the client made no progress reading for the stall timeout; true otherwise (or when aborted). */
  async #waitForRoom(signal: AbortSignal): Promise<boolean> {
    const { highWaterBytes, backpressurePollMs, stallTimeoutMs } = this.deps.limits;
    const { output, clock } = this.deps;
    let lowest = output.bufferedBytes();
    if (lowest <= highWaterBytes) return true;
    let progressAtMs = clock.now();
    while (!signal.aborted) {
      await sleep(clock, backpressurePollMs, signal);
      const buffered = output.bufferedBytes();
      if (buffered <= highWaterBytes) return true;
      if (buffered < lowest) {
        lowest = buffered;
        progressAtMs = clock.now();
      } else if (clock.now() - progressAtMs >= stallTimeoutMs) {
        return false;
      }
    }
    return true;
  }

  /** A refusal or an engine error: the context is gone (the socket too when capacity is lost). */
  #fail(error: unknown): boolean {
    if (this.#state === 'ended') return false;
    this.#state = 'ended';
    this.#queue.length = 0;
    this.#text.discard();
    if (isApiError(error)) {
      this.deps.output.failed(this.id, error);
      return false;
    }
    const failure = classifyTurnFailure(error);
    if (failure.kind === 'error') this.deps.output.failed(this.id, failure.error);
    else this.deps.output.fatal(failure.code, failure.reason);
    return false;
  }
}
