// Request decorations set by the auth hook and read by routes and the rate-limit header hook.

import type { Account, RateInfo } from '../store/store.js';

import type { AudioSocketListener } from './audiosocket-listener.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on routes that require a key. */
    account: Account | null;
    /** The fingerprint of the key that authenticated the request (the usage ledger's key id). */
    apiKeyId: string | null;
    /** The account's window as of this request; becomes the X-RateLimit-* headers. */
    rateInfo: RateInfo | null;
    /** The error envelope's code, when the response is one (for the request metrics). */
    errorCode: string | null;
  }
  interface FastifyInstance {
    /** The Asterisk AudioSocket listener when AUDIOSOCKET_PORT is set; started with `listen()` after the app's. */
    audioSocket: AudioSocketListener | null;
    /**
     * Set when the server begins to drain: from then on every request is answered 503 server_shutting_down, except
     * on routes that stay open while the server drains (their route config says `openWhileDraining`).
     */
    shuttingDown: boolean;
  }
  interface FastifyContextConfig {
    /**
     * The route stays open while the server drains: it serves calls already live (provider webhooks and media, call
     * control), or reports on the drain (/healthz, /readyz).
     */
    openWhileDraining?: boolean;
  }
}

export {};
