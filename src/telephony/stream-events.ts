// The provider-neutral vocabulary of a media stream: what any provider's codec turns its wire messages into
// (start, caller audio, DTMF, playback acknowledged, stop) and the contract of a codec, which turns the call's
// outbound audio, marks and clears back into the provider's frames. Codecs live in src/telephony/<provider>/.

/** How caller audio arrives and bot audio leaves on the wire; the call itself always speaks 8 kHz mu-law. */
export type WireEncoding = 'mulaw' | 'pcm16';

export interface StreamStart {
  /** The provider's id of the phone call (Twilio CallSid, Plivo CallUUID, Asterisk channel id, …). */
  readonly callId: string;
  readonly streamId: string;
  /** The provider account (Twilio AC…, Exotel SID, Plivo MA…); empty when the provider does not say. */
  readonly providerAccountId: string;
  readonly from: string | undefined;
  readonly to: string | undefined;
  /** Parameters the provider carried for us (Twilio <Parameter>s, Exotel custom_parameters, Asterisk v(...)). */
  readonly parameters: Readonly<Record<string, string>>;
  readonly encoding: WireEncoding;
  readonly sampleRateHz: number;
  /** The provider announced a format Raaga cannot speak (described for the log): the stream is refused. */
  readonly unsupportedFormat?: string | undefined;
}

export type StreamEvent =
  | { readonly type: 'start'; readonly start: StreamStart }
  /** Caller audio in the wire encoding, any length; `atMs`: when it starts, ms since the stream began, if known. */
  | { readonly type: 'audio'; readonly audio: Uint8Array; readonly atMs: number | undefined }
  | { readonly type: 'dtmf'; readonly digit: string }
  /** The provider played everything sent before the named mark. */
  | { readonly type: 'played'; readonly name: string }
  | { readonly type: 'stop'; readonly reason: string }
  /** A message with nothing for the call to do (connected, clearedAudio, flow-control notices). */
  | { readonly type: 'notice'; readonly what: string };

export type DecodeResult =
  | { readonly ok: true; readonly event: StreamEvent }
  /** `problem` is a short kind (logged once per stream), `detail` says what was wrong. */
  | { readonly ok: false; readonly problem: string; readonly detail: string };

/** A frame for the provider: text frames as strings, binary frames as bytes. */
export type WireFrame = string | Uint8Array;

/** One provider's wire protocol for one stream; stateful (stream id, counters, outbound buffering). */
export interface StreamCodec {
  /** One inbound frame (a WebSocket message, or one AudioSocket packet). */
  decode(data: Uint8Array, isBinary: boolean): DecodeResult;
  /** Bot audio: whole 20 ms frames of 8 kHz mu-law (the codec transcodes and re-chunks as its provider needs). */
  media(mulaw: Uint8Array): WireFrame[];
  /** A mark after the audio sent so far; `final` ends an utterance, so a codec that holds audio flushes it then. */
  mark(name: string, final: boolean): WireFrame[];
  /** Drop everything buffered at the provider (and anything the codec still holds). */
  clear(): WireFrame[];
  /** Frames that end the call from our side, when the protocol has them (Asterisk HANGUP); else none. */
  hangup(): WireFrame[];
}
