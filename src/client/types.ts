// The client's vocabulary as plain types: the published client (@raaga/client) carries no server code and no zod.
// test/unit/client/types-match-server.test.ts checks at compile time that each equals what the server's zod
// schemas accept or send, so a field renamed on the server breaks the build, not the client's users.

export type LanguageCode = 'en-IN' | 'hi-IN' | 'ta-IN' | 'te-IN' | 'kn-IN' | 'mr-IN' | 'gu-IN' | 'bn-IN';
/** The spec's four formats, then Raaga's extensions: `alaw` (G.711 A-law) and `opus` (an Ogg/Opus stream, RFC 7845). */
export type OutputFormat = 'mp3' | 'wav' | 'pcm' | 'mulaw' | 'alaw' | 'opus';
export type SampleRate = 8000 | 16000 | 24000 | 48000;

/** Voice, language and audio settings shared by HTTP bodies and the WebSocket `config`. */
interface VoiceAndAudio {
  /** Must be 'raaga-v1'. */
  model_id: string;
  /** A preset voice name from GET /v1/voices, or a custom vc_ voice id. Required unless `voice_name` is sent. */
  voice?: string | undefined;
  /** Deprecated alias of `voice` (preset voices only). */
  voice_name?: string | undefined;
  language: LanguageCode;
  output_format?: OutputFormat | undefined;
  /** Hz; 24000 when absent. */
  sample_rate?: number | undefined;
  /** 0.5 to 2.0; 1 when absent. */
  speed?: number | undefined;
}

/** The body of POST /v1/tts/generate and /v1/tts/stream (`output_format` defaults to mp3). */
export interface SynthesisRequest extends VoiceAndAudio {
  text: string;
  /** Raaga's extension: the account's lexicons to apply besides its `default` (first named wins). */
  lexicons?: string[] | undefined;
  /** Raaga's extension: true refuses SSML elements Raaga does not apply (422) instead of dropping them. */
  ssml_strict?: boolean | undefined;
}

export interface SynthesisResult {
  /** Base64 of the audio bytes. */
  audio: string;
  format: OutputFormat;
  duration_seconds: number;
  characters_used: number;
}

export type VoiceGender = 'male' | 'female';
export type VoicesByLanguage = Record<LanguageCode, { voice_name: string; gender: VoiceGender }[]>;
export type VoicesByVoice = Record<string, { gender: VoiceGender; languages: LanguageCode[] }>;

/** A WebSocket `config` message without its `type` (`output_format` defaults to pcm there). */
export interface SessionConfig extends VoiceAndAudio {
  /** Raaga's extension: true asks for `word_timings` messages (each word's start and end in the utterance's audio). */
  word_timings?: boolean | undefined;
  /** Raaga's extension: the account's lexicons to apply besides its `default` (first named wins). */
  lexicons?: string[] | undefined;
  /** Raaga's extension: true refuses SSML elements Raaga does not apply (422) instead of dropping them. */
  ssml_strict?: boolean | undefined;
}

/** An SSML `<mark>` and where it stands in the utterance's audio (milliseconds from its start). */
export interface MarkTiming {
  name: string;
  at_ms: number;
}

/** A word of the text and where it is spoken: milliseconds from the start of its utterance's audio. */
export interface WordTiming {
  text: string;
  start_ms: number;
  end_ms: number;
}

export type ErrorCode =
  | 'invalid_api_key'
  | 'insufficient_credits'
  | 'not_found'
  | 'bad_request'
  | 'text_too_long'
  | 'voice_language_not_found'
  | 'invalid_model_id'
  | 'validation_error'
  | 'missing_websocket_config'
  | 'provider_not_configured'
  | 'provider_auth_failed'
  | 'invalid_phone_number'
  | 'caller_id_not_allowed'
  | 'provider_rejected'
  | 'idempotency_conflict'
  | 'outside_calling_hours'
  | 'do_not_call'
  | 'rate_limit_exceeded'
  | 'concurrency_limit_exceeded'
  | 'internal_error'
  | 'tts_workers_busy'
  | 'tts_workers_unconfigured'
  | 'store_unavailable'
  | 'server_shutting_down'
  | 'server_busy'
  | 'provider_unavailable'
  | 'dnc_check_unavailable';

export type ServerMessage =
  | { type: 'connected'; user_id: string }
  | {
      type: 'configured';
      model_id: string;
      voice: string;
      language: string;
      output_format: OutputFormat;
      sample_rate: SampleRate;
      speed: number;
      word_timings?: true | undefined;
      ssml_strict?: true | undefined;
    }
  | { type: 'word_timings'; words: WordTiming[]; marks?: MarkTiming[] | undefined }
  | {
      type: 'end_of_utterance';
      characters_used: number;
      duration_seconds: number;
      truncated: boolean;
      reason?: 'step_budget_exceeded' | undefined;
      /** Raaga's extension: the SSML elements of the text that were dropped, only when there were any. */
      ssml_ignored?: string[] | undefined;
    }
  | { type: 'cancellation'; characters_used: number; duration_seconds: number }
  | { type: 'pong' }
  | { type: 'error'; error: { code: ErrorCode; message: string; retry_after_seconds?: number | undefined } };

export type ServerMessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;
export type ConfiguredMessage = ServerMessageOf<'configured'>;
export type EndOfUtteranceMessage = ServerMessageOf<'end_of_utterance'>;
export type CancellationMessage = ServerMessageOf<'cancellation'>;
export type ErrorMessage = ServerMessageOf<'error'>;
export type WordTimingsMessage = ServerMessageOf<'word_timings'>;
