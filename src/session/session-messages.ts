// The session's vocabulary: parsed client events in, spec-shaped server messages out. Transports parse
// their own wire format into ClientEvent (JSON over /v1/tts/websocket, call events for phone bridges).

import type { OutputFormat, SampleRateHz } from '../audio/formats.js';
import type { LanguageCode } from '../languages.js';

export type SessionAudioFormat = OutputFormat;
export type SessionSampleRate = SampleRateHz;

/** A validated session config (model id already checked; the voice is resolved by the session). */
export interface SessionConfig {
  readonly modelId: 'raaga-v1';
  /** A preset voice name or a `vc_` custom voice id, as the client sent it. */
  readonly voice: string;
  readonly language: LanguageCode;
  readonly outputFormat: SessionAudioFormat;
  readonly sampleRateHz: SessionSampleRate;
  readonly speed: number;
  /** The WebSocket's opt-in extension: `word_timings` messages with each word's place in the audio. */
  readonly wordTimings?: boolean;
  /** Lexicons to apply besides the account's default (the WebSocket's `lexicons`, a call's `lexicons` parameter). */
  readonly lexicons?: readonly string[];
  /** The WebSocket's extension: texts are checked in SSML's strict mode (an element Raaga does not apply is refused). */
  readonly ssmlStrict?: boolean;
}

export type ClientEvent =
  | { readonly type: 'config'; readonly config: SessionConfig }
  /**
   * One sentence; length and emptiness are checked by the session (after the state rules). Phone calls add an
   * optional id echoed in the turn's reply, and `interruptible: false` for text barge-in must not cut.
   */
  | {
      readonly type: 'text';
      readonly text: string;
      readonly utteranceId?: string;
      readonly interruptible?: boolean;
      /**
       * Phone calls' streamed text (call-streamed-text.ts): a segment of a text that arrives in pieces, spoken with
       * the silence its sentence or clause would have had inside one text, and not counted against the call's
       * queue of texts (the streamed utterance bounds its own text).
       */
      readonly segment?: { readonly trailingPauseMs: number };
    }
  | { readonly type: 'cancel' }
  | { readonly type: 'ping' }
  | { readonly type: 'disconnect' };

/** One word of the input and where it is spoken: milliseconds from the start of its utterance's audio. */
export interface WordTiming {
  readonly text: string;
  readonly start_ms: number;
  readonly end_ms: number;
}

/** An SSML `<mark>` and where it stands in the audio: where the word after it starts (or the clause ends). */
export interface MarkTiming {
  readonly name: string;
  readonly at_ms: number;
}

export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  /** Only for `rate_limit_exceeded`. */
  readonly retry_after_seconds?: number;
}

/**
 * Server messages exactly as the spec's "Messages the server sends" table (plus `sample_rate` in the echo), and the
 * opt-in `word_timings` extension (sent only when the config asked for it).
 */
export type ServerMessage =
  | { readonly type: 'connected'; readonly user_id: string }
  | {
      readonly type: 'configured';
      readonly model_id: string;
      readonly voice: string;
      readonly language: string;
      readonly output_format: SessionAudioFormat;
      readonly sample_rate: SessionSampleRate;
      readonly speed: number;
      /** Only when the config asked for word timings (an extension). */
      readonly word_timings?: true;
      /** Only when the config asked for SSML's strict mode (an extension). */
      readonly ssml_strict?: true;
    }
  | { readonly type: 'word_timings'; readonly words: readonly WordTiming[]; readonly marks?: readonly MarkTiming[] }
  | {
      readonly type: 'end_of_utterance';
      readonly characters_used: number;
      readonly duration_seconds: number;
      readonly truncated: boolean;
      readonly reason?: 'step_budget_exceeded';
      /** The WebSocket's extension: SSML elements of the text that were dropped (lenient mode), only when there were any. */
      readonly ssml_ignored?: readonly string[];
      /** Only when the text carried an `utteranceId` (phone calls). */
      readonly utterance_id?: string;
    }
  | { readonly type: 'cancellation'; readonly characters_used: number; readonly duration_seconds: number; readonly utterance_id?: string }
  | { readonly type: 'pong' }
  | { readonly type: 'error'; readonly error: ErrorBody; readonly utterance_id?: string };
