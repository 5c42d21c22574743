// What makes one provider's media stream different from another's, and nothing more: its codec (wire messages to
// and from stream events), how it ends or moves a call (REST or its own control frames), and what its connection
// proved before the first frame. Everything else about a call is media-stream.ts and call-assembly.ts; the rest of
// a provider (credentials, authenticator, paths, webhooks, dialer) is its ProviderModule (provider-module.ts).

import type { CallControlPort } from '../session/call-events.js';
import type { TelephonySettings } from '../store/store.js';
import type { StreamCodec, StreamStart } from './stream-events.js';

/** What the connection established before any frame (HTTP upgrade checks, or the TCP peer's address). */
export interface StreamAdmission {
  /** The account named by the connection's path (or the AudioSocket listener's account); undefined on generic paths. */
  readonly accountId: string | undefined;
  /**
   * The account's own provider credentials were verified at the connection (signature, Basic credentials, path
   * secret), or the account opted in to unauthenticated streams: the path's account pays without a call token.
   */
  readonly accountVerified: boolean;
  /**
   * Only a call token (minted by Raaga's own answer step for this call) may pay: the connection's proof is the same
   * for every call (Twilio's signature over a fixed URL), so on its own it would let one leaked header open any number.
   */
  readonly requiresCallToken?: boolean;
  /** A call token carried in the URL path (Plivo, whose extraHeaders cannot hold one). */
  readonly callToken: string | undefined;
  /** Call parameters from the connection URL's query (Exotel custom parameters, Asterisk v(...), Plivo). */
  readonly query: Readonly<Record<string, string>>;
  /** The public origin (https://host[/base]) the provider reached, for URLs it must fetch later (Plivo's transfer XML). */
  readonly origin?: string | undefined;
  /** A check only `start` can complete (Twilio's signature on the generic path); returns why it failed. */
  readonly verifyAtStart?: ((settings: TelephonySettings | null) => string | undefined) | undefined;
}

export interface CallControlContext {
  readonly settings: TelephonySettings | null;
  /** The admission's public origin, when the connection came over HTTP. */
  readonly origin: string | undefined;
  readonly start: StreamStart;
  /** Ends the media stream from our side (what a provider without REST control does on hangup). */
  readonly closeStream: (reason: string) => void;
  /** Sends the codec's own hangup frames (Asterisk HANGUP, AudioSocket 0x00) and closes. */
  readonly hangupStream: (reason: string) => void;
}

export interface StreamProvider {
  /** Its name in providers.ts: URLs, logs, metrics and `call_started`. */
  readonly name: string;
  /**
   * Who holds the audio until it plays: the provider (a buffer that acknowledges marks and obeys a clear), or, for
   * a provider that plays each frame on arrival (AudioSocket), Raaga itself, sending one frame per 20 ms.
   */
  readonly playback?: 'provider' | 'self-paced';
  /** A fresh codec for one stream. */
  createCodec(): StreamCodec;
  callControl(context: CallControlContext): CallControlPort;
}

/**
 * Call control for a provider whose only lever on the call is the stream itself: hangup and transfer both end it
 * (`end` is the context's closeStream or hangupStream) and the provider's flow or dialplan decides what follows.
 */
export function streamEndingControl(end: (reason: 'hangup' | 'transfer') => void): CallControlPort {
  return {
    hangup: async () => end('hangup'),
    transfer: async () => {
      end('transfer');
      return 'stream-ended';
    },
  };
}
