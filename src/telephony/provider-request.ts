// A provider's request as its authenticator sees it, without the HTTP framework: method, URL, headers, path
// parameters and signed form fields, and the public origin the provider dialled. What an authenticator answers:
// accepted (perhaps with a nonce to claim once), or refused with the status the provider gets back.

import type { HeldKeyNamespace } from '../store/store.js';

/** Form fields of a provider's webhook (or the same fields in a GET query): strings only. */
export type Form = Record<string, string>;

export interface ProviderRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query as received. */
  readonly url: string;
  /** On a media path (a stream's upgrade, or a plain GET there) rather than a webhook. */
  readonly media: boolean;
  /** It carries an Upgrade header (what the provider dialled was ws:// or wss://). */
  readonly upgrade: boolean;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The route's path parameters (`accountId`, a path secret, …). */
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The form fields a signature covers: a POST's body; empty for GET. */
  readonly form: Readonly<Form>;
  /** PUBLIC_URL or the request's own origin; a function because behind an HTTPS proxy without PUBLIC_URL it throws. */
  origin(): string;
}

/** Claimed once on every instance when accepted (a signature without a timestamp: its nonce). */
export interface ReplayGuard {
  readonly scope: HeldKeyNamespace;
  readonly key: string;
  readonly ttlMs: number;
}

export type Authentication =
  | { readonly ok: true; readonly once?: ReplayGuard | undefined }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      /** Headers of the refusal (a Basic challenge). */
      readonly headers?: Readonly<Record<string, string>>;
      /** Why, for the log: `invalid X-Twilio-Signature`. */
      readonly reason: string;
    };

export const ACCEPTED: Authentication = { ok: true };

/** One header's value when it was sent once (a repeated header is no valid credential). */
export function singleHeader(request: Pick<ProviderRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
