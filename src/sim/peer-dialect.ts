// What the simulated provider (CallPeer) needs to know of one provider's protocol, as that provider speaks it: its
// opening messages, how caller audio, keys and playback acknowledgements are framed, how often caller audio is
// sent, and what a clear does to pending marks. Each provider's dialect lives in src/sim/dialects/<provider>.ts.

import type { WireFrame } from '../telephony/stream-events.js';

export interface PeerCall {
  readonly streamSid: string;
  readonly callSid: string;
  readonly accountSid: string;
  readonly customParameters: Readonly<Record<string, string>>;
}

/** One message from the server, as the provider reads it (media decoded to 8 kHz mu-law). */
export type PeerInbound =
  | { readonly event: 'media'; readonly mulaw: Uint8Array }
  | { readonly event: 'mark'; readonly name: string }
  | { readonly event: 'clear' }
  | { readonly event: 'hangup' }
  | { readonly event: 'other'; readonly reason: string };

export interface PeerDialect {
  readonly provider: string;
  /** Caller audio per media message: Twilio 20 ms; Exotel and Smartflo ~100 ms. */
  readonly inboundFrameMs: number;
  /** Twilio echoes every pending mark after a clear; Exotel, Plivo and Asterisk drop them silently. */
  readonly clearEchoesMarks: boolean;
  /** What the provider sends first (connected + start, or MEDIA_START). */
  opening(call: PeerCall): WireFrame[];
  /** Caller audio (8 kHz mu-law) of message `index`, starting `atMs` into the stream. */
  media(call: PeerCall, index: number, atMs: number, mulaw: Uint8Array): WireFrame;
  dtmf(call: PeerCall, digit: string): WireFrame;
  /** Playback reached the named mark. */
  played(call: PeerCall, name: string): WireFrame;
  /** What the provider answers a clear with, if anything (Plivo's clearedAudio). */
  clearAcknowledgement(call: PeerCall): WireFrame | undefined;
  /** The provider's end of stream message, if it has one (else it just closes). */
  stop(call: PeerCall): WireFrame | undefined;
  read(data: Uint8Array, isBinary: boolean): PeerInbound;
}
