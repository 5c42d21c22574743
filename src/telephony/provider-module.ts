// What a telephony provider is to the rest of Raaga, all declared in its folder (src/telephony/<provider>/): its
// codec and call control (StreamProvider), its credentials and what "configured" means, its authenticator (a pure
// function of the request and the account's settings), the media paths it opens streams on, and optionally its
// webhooks (answer markup, status callbacks), its outbound dialer and its place in the playground's picker.
// providers.ts lists the modules; routes, CLI options, the picker and the dialers derive from that list.

import type { TelephonySettings } from '../store/store.js';
import type { ProviderDialer } from './outbound/dialer.js';
import type { ProviderCredentials } from './provider-credentials.js';
import type { Authentication, ProviderRequest } from './provider-request.js';
import type { ProviderWebhook } from './provider-webhook.js';
import type { StreamProvider } from './stream-provider.js';

/**
 * One WebSocket path a provider opens media streams on, and what the connection proves about who pays:
 * - `account`: the path's `:accountId`, once the account takes this provider's requests and the module's
 *   authenticator accepts the upgrade against its settings;
 * - `start`: nobody yet (no account in the path): the start's call token or API key names the account, and the
 *   authenticator then runs against that account's settings;
 * - `placed-call`: `…/:accountId/:callId/:token`, a URL Raaga made for a call it placed (POST /v1/calls): the token
 *   proves it, and the call's record holds its settings.
 */
export interface MediaPath {
  /** fastify route syntax: `/v1/telephony/exotel/media/:accountId`. */
  readonly path: string;
  readonly proof: 'account' | 'start' | 'placed-call';
  /** The path parameter that carries this call's token (Plivo, whose extra headers cannot): the token pays, not the path. */
  readonly callTokenParam?: string;
  /** The path's proof is the same for every call (a signature over a fixed URL): the start must bring a call token too. */
  readonly requiresCallToken?: boolean;
  /** The URL's query is the call's settings (default); false: a query is not the provider's (Twilio signs without one). */
  readonly queryIsSettings?: boolean;
  /** The call needs the public origin later (REST transfer URLs, dial actions). */
  readonly keepsOrigin?: boolean;
}

export interface ProviderModule<TName extends string = string> extends StreamProvider {
  readonly name: TName;
  readonly credentials: ProviderCredentials;
  /**
   * Whether a request (a webhook, or a media upgrade) comes from this provider for an account with these settings:
   * signatures, Basic credentials, path secrets. Pure; an account without the credentials it checks is accepted
   * here (whether it takes unsigned requests at all is decided before, by `credentials.configured`).
   */
  authenticate(request: ProviderRequest, settings: TelephonySettings | null): Authentication;
  readonly mediaPaths: readonly MediaPath[];
  /** Its own HTTP endpoints: answer URLs and their markup, status callbacks, transfer steps. */
  readonly webhooks?: readonly ProviderWebhook[];
  /** Placing calls through it (POST /v1/calls); its answer or stream URL is `/v1/telephony/<name>/outbound/…`. */
  readonly dialer?: ProviderDialer;
  /** Offered in the playground's call picker, under this label. */
  readonly playground?: { readonly label: string };
}

/** Where a placed call's provider reaches Raaga on answer (its answer URL, or Exotel's stream URL). */
export function outboundPath(provider: string): string {
  return `/v1/telephony/${provider}/outbound`;
}

/** Where a placed call's provider reports its progress. */
export function outboundStatusPath(provider: string): string {
  return `/v1/telephony/${provider}/outbound-status`;
}
