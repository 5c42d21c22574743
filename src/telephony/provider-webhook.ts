// A provider's own HTTP endpoints (answer URLs, status callbacks, transfer steps) without the HTTP framework: a
// handler gets the request and a context of shared services and returns the reply; api/routes/provider-routes.ts
// registers every module's webhooks and supplies the context. Errors thrown as ApiError become the error envelope.

import type { TelephonyConfig } from '../config.js';
import type { Metrics } from '../metrics/metrics.js';
import type { CallControlBus } from '../store/call-control-bus.js';
import type { AnsweredBy } from '../store/outbound-call.js';
import type { Account, HeldKeyNamespace, TelephonySettings } from '../store/store.js';
import type { CallAdmission } from './call-admission.js';
import type { ResolvedParameters } from './call-parameters.js';
import type { Form, ProviderRequest } from './provider-request.js';

export interface WebhookRequest extends ProviderRequest {
  /** The request id (`reqId` in logs). */
  readonly id: string;
  readonly query: Readonly<Form>;
  /** A POST's form fields (empty for GET). */
  readonly body: Readonly<Form>;
}

export interface WebhookReply {
  readonly status: number;
  /** Content-Type of `body`. */
  readonly type?: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ProviderAccount {
  readonly account: Account;
  readonly settings: TelephonySettings | null;
}

export type CheckedParameters = Extract<ResolvedParameters, { ok: true }>;

/** What an answer URL learns of a call Raaga placed (OutboundCalls): its settings for the stream, or a hangup. */
export interface PlacedCalls {
  isValidUrlToken(accountId: string, callId: string, token: string): boolean;
  answered(
    accountId: string,
    callId: string,
    facts: { readonly streamCallId: string; readonly answeredBy?: AnsweredBy | undefined },
  ): Promise<{ readonly action: 'stream' | 'hangup'; readonly layer: Readonly<Record<string, string>> } | null>;
}

export interface WebhookLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface WebhookContext {
  readonly config: TelephonyConfig;
  readonly callAdmission: Pick<CallAdmission, 'check'>;
  readonly outbound: PlacedCalls;
  readonly calls: Pick<CallControlBus, 'send'>;
  readonly metrics: Pick<Metrics, 'telephonyStreamError'> | undefined;
  /** The request's logger (held at warn on quiet routes). */
  readonly log: WebhookLog;
  /** The server's logger: info lines that must be written whatever the route's level (they carry `reqId`). */
  readonly serverLog: WebhookLog;
  /**
   * The account the URL names, once it takes this provider's requests and the request passes the provider's
   * authenticator (its nonce claimed); else the refusal to send, logged as "`what` refused".
   */
  admitAccount(accountId: string, what: string): Promise<ProviderAccount | WebhookReply>;
  /** The provider's authenticator alone, over settings found otherwise (a placed call's); undefined when accepted. */
  authenticate(settings: TelephonySettings | null, what: string): Promise<WebhookReply | undefined>;
  account(accountId: string): Promise<Account | null>;
  settings(accountId: string): Promise<TelephonySettings | null>;
  /**
   * An answered call's settings over `layers` (account defaults first), checked as a call would use them: a bad
   * setting is 422 validation_error and an unknown voice 422 voice_language_not_found, before any stream opens.
   */
  checkedCallParameters(account: Account, layers: ReadonlyArray<Readonly<Record<string, string>> | undefined>): Promise<CheckedParameters>;
  /** The call token an answer step hands the stream: this account pays for this call id, for CALL_TOKEN_TTL_MS. */
  mintCallToken(accountId: string, callId: string): string;
  /**
   * The call token of this call id's first answer within `windowMs` (held under `scope` on every instance): a fresh
   * one, or, when the answer was asked for before, the very same token, whose single use covers both answers.
   */
  heldCallToken(scope: HeldKeyNamespace, accountId: string, callId: string, windowMs: number): Promise<AnswerToken>;
}

export interface AnswerToken {
  readonly token: string;
  /** The call id was answered before within the window: this is that answer's token again. */
  readonly repeated: boolean;
}

export interface ProviderWebhook {
  readonly methods: readonly ('GET' | 'POST')[];
  /** fastify route syntax: `/v1/telephony/twilio/voice/:accountId`. */
  readonly path: string;
  /** The URL carries call settings or secrets: the framework's request lines (which log URLs) stay off. */
  readonly quiet?: boolean;
  handle(request: WebhookRequest, context: WebhookContext): Promise<WebhookReply>;
}

/** Refused alike for an unknown account, bad credentials, or a URL Raaga did not make. */
export const FORBIDDEN: WebhookReply = { status: 403 };
export const NOT_FOUND: WebhookReply = { status: 404 };
export const NO_CONTENT: WebhookReply = { status: 204 };

export function isReply(value: ProviderAccount | WebhookReply): value is WebhookReply {
  return 'status' in value;
}
