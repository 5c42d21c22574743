// Placing an outbound call, the same shape for every provider: the provider's REST request built from the call and
// the URLs Raaga serves for it, its answer as the provider's call id, its refusal as a DialError that says what the
// caller must fix; and the provider's status callbacks read as Raaga's normalised events. A provider here is a
// request builder plus a callback reader; the call itself is the shared media-stream path once it is answered.

import type { NewOutboundCallEvent, OutboundCall } from '../../store/outbound-call.js';
import type { TelephonySettings } from '../../store/store.js';

/** The URLs Raaga serves for one placed call (absolute, on the public origin). */
export interface DialUrls {
  /** Twilio, Plivo: the answer URL (markup on answer), `/v1/telephony/<provider>/outbound/…`. */
  readonly answer: string;
  /** Where the provider posts the call's progress. */
  readonly status: string;
  /** Exotel: the media stream itself (the answer URL's path as wss://), opened when the callee answers. */
  readonly stream: string;
}

export type DialFailure =
  /** `to` is not a number the provider can call (format, unknown country, not allowed by its geo permissions). */
  | 'invalid_to'
  /** `from` is not the account's number at the provider (not owned, not verified, not KYC'd). */
  | 'invalid_from'
  /** The stored provider credentials were refused. */
  | 'auth_failed'
  /** Any other refusal of this request (the provider's message says why). */
  | 'rejected'
  /** The provider did not answer, timed out, rate-limited or failed (5xx): the same request may succeed later. */
  | 'unavailable';

export class DialError extends Error {
  constructor(
    readonly failure: DialFailure,
    message: string,
  ) {
    super(message);
    this.name = 'DialError';
  }
}

export interface ProviderDialer {
  /** The provider's own default pace (calls per second) when the account set none (`--dial-cps`). */
  readonly defaultCallsPerSecond: number;
  /**
   * The provider signs its status callbacks: they are checked by its authenticator (with the account's credentials
   * stored) as well as by the URL's token.
   */
  readonly signsStatusCallbacks?: boolean;
  /** Why this answering-machine detection cannot be asked of the provider (a validation message), or undefined. */
  amdRefusal?(amd: OutboundCall['amd']): string | undefined;
  /** Why this account cannot place calls through the provider (missing credentials), or undefined. */
  missingCredentials(settings: TelephonySettings | null): string | undefined;
  /** Places the call within `timeoutMs`; resolves with the provider's id of it, rejects with a DialError. */
  place(call: OutboundCall, settings: TelephonySettings, urls: DialUrls, timeoutMs: number): Promise<string>;
  /** A status callback's fields as Raaga's event (null: nothing Raaga reports, e.g. an intermediate state). */
  readStatus(form: Readonly<Record<string, string | undefined>>, atMs: number): NewOutboundCallEvent | null;
}

export function basicAuthorization(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}

/** A JSON POST or form POST to a provider, with network failures and timeouts as `unavailable`. */
export async function providerRequest(
  provider: string,
  url: string,
  init: { authorization: string; body: URLSearchParams | string; json?: boolean; timeoutMs: number },
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: init.authorization, 'content-type': init.json ? 'application/json' : 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `did not answer within ${init.timeoutMs} ms` : 'could not be reached';
    throw new DialError('unavailable', `${provider}'s API ${reason}; retry later.`);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (an HTML error page from a proxy): kept as text for the message.
  }
  return { status: response.status, body };
}

/** The failure class of an HTTP status no provider-specific code explained. */
export function failureOfStatus(status: number): DialFailure {
  if (status === 401 || status === 403) return 'auth_failed';
  if (status === 429 || status >= 500) return 'unavailable';
  return 'rejected';
}

/** Seconds from a provider's numeric field, or undefined. */
export function seconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
