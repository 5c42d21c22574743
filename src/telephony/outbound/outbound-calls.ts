// Placing outbound calls and following them, provider-neutral: POST /v1/calls books a calls-per-second slot and
// counts toward the account's calls of the day (either refusal leaves nothing stored), then becomes a stored call
// (its idempotency key claimed), compliance checks, the provider's create request; every status the
// provider reports becomes one event, which WebhookDelivery signs to the account's webhook in order; the answer step
// hands the stream the call's settings. The provider-specific parts are the dialers (request builder + callback
// reader) of the provider modules (providers.ts).

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { DAY_MS } from '../../config.js';
import { ApiError, type ErrorCode } from '../../errors.js';
import { randomId } from '../../store/random-id.js';
import {
  TERMINAL_STATUSES,
  summarizeOutboundCall,
  type AnsweredBy,
  type NewOutboundCallEvent,
  type OutboundCall,
  type OutboundCallState,
} from '../../store/outbound-call.js';
import type { Account, Store } from '../../store/store.js';
import { callerIdRefusal, callingHoursRefusal, doNotCallRefusal, type ComplianceRefusal, type DoNotCallList } from './compliance.js';
import { DialError, type DialFailure, type DialUrls } from './dialer.js';
import type { StatusWebhooks } from './status-webhooks.js';
import type { DestinationPolicy } from '../destination/destination-policy.js';
import { WebhookDelivery } from './webhook-delivery.js';
import { OUTBOUND_CALL_PARAMETER } from '../call-parameters.js';
import { providerDialer, type OutboundProviderName } from '../providers.js';
import { eventLoopTurn } from '../../util/event-loop-turn.js';

/** Beyond ring timeout and time limit, how long a provider may still be on its way to the answer URL. */
const ANSWER_GRACE_MS = 60_000;

/** A POST /v1/calls as validated: everything but the account. */
export interface PlaceCallRequest {
  readonly provider: OutboundProviderName;
  readonly to: string;
  readonly from: string;
  readonly settings: Readonly<Record<string, string>>;
  readonly amd: OutboundCall['amd'];
  readonly ringTimeoutS: number;
  readonly timeLimitS: number;
  readonly statusWebhook: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly referenceId: string | undefined;
  /** The request body as received, canonical JSON: what the idempotency key is bound to. */
  readonly canonicalBody: string;
}

export interface OutboundCallsDeps {
  readonly store: Pick<
    Store,
    | 'getTelephonySettings'
    | 'createOutboundCall'
    | 'getOutboundCall'
    | 'recordOutboundCallEvent'
    | 'reserveDialSlot'
    | 'claimOutboundCallOfDay'
    | 'listUsagePage'
    | 'advanceWebhookCursor'
    | 'webhookBacklog'
    | 'holdKey'
  >;
  readonly webhooks: StatusWebhooks;
  readonly doNotCall: DoNotCallList;
  /** Where tenant-given URLs may point (the do-not-call webhook here; status webhooks in StatusWebhooks). */
  readonly destinations: DestinationPolicy;
  /** HMAC key of the tokens in the URLs providers call back on (the call-token secret). */
  readonly urlSecret: string;
  readonly maxDialWaitMs: number;
  /** Calls an account may place per UTC day (OUTBOUND_MAX_CALLS_PER_DAY); the next one is refused before it is stored. */
  readonly maxCallsPerDay: number;
  /** A provider's create-call request that takes longer is `provider_unavailable`. */
  readonly dialTimeoutMs: number;
  /** Epoch ms. */
  readonly now: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly log?: (fields: Record<string, unknown>, message: string) => void;
}

const FAILURE_CODES: Readonly<Record<DialFailure, ErrorCode>> = {
  invalid_to: 'invalid_phone_number',
  invalid_from: 'caller_id_not_allowed',
  auth_failed: 'provider_auth_failed',
  rejected: 'provider_rejected',
  unavailable: 'provider_unavailable',
};

const REFUSAL_CODES: Readonly<Record<ComplianceRefusal['rule'], ErrorCode>> = {
  caller_id: 'caller_id_not_allowed',
  calling_hours: 'outside_calling_hours',
  do_not_call: 'do_not_call',
  dnc_unavailable: 'dnc_check_unavailable',
};

export type PlaceCallResult = { readonly state: OutboundCallState; readonly replayed: boolean };

export class OutboundCalls {
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #delivery: WebhookDelivery;

  constructor(private readonly deps: OutboundCallsDeps) {
    this.#sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#delivery = new WebhookDelivery(deps);
  }

  /** Epoch ms on the clock outbound calls are recorded by (what a provider's callback is stamped with). */
  now(): number {
    return this.deps.now();
  }

  /** The token in every URL a provider calls back on for this call: proof the URL came from Raaga. */
  urlToken(accountId: string, callId: string): string {
    return createHmac('sha256', this.deps.urlSecret).update(`outbound.${accountId}.${callId}`).digest('base64url').slice(0, 32);
  }

  isValidUrlToken(accountId: string, callId: string, token: string): boolean {
    const expected = Buffer.from(this.urlToken(accountId, callId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * Places the call, or answers the first attempt of the same idempotency key (its call, or the error that stopped
   * it). Throws ApiError for anything the caller must change or retry.
   */
  async place(account: Account, request: PlaceCallRequest, urlsFor: (call: OutboundCall) => DialUrls): Promise<PlaceCallResult> {
    const dialer = providerDialer(request.provider);
    if (!dialer) throw new ApiError('validation_error', `Field 'provider': ${request.provider} places no calls.`);
    const settings = await this.deps.store.getTelephonySettings(account.id);
    const missing = dialer.missingCredentials(settings);
    if (missing !== undefined) throw new ApiError('provider_not_configured', `Cannot place ${request.provider} calls: ${missing}.`);
    if (request.statusWebhook !== undefined && settings?.webhookSecret === undefined) {
      throw new ApiError('validation_error', "Field 'status_webhook' needs the account's webhook secret, which signs every status event: raaga telephony set --webhook-secret.");
    }
    // The pace and the daily cap refuse before the call exists: no row, no event, no webhook, and the idempotency
    // key stays free for the retry. The slot is booked now and waited for once the compliance checks have passed.
    const cps = Number(settings?.dialCallsPerSecond ?? dialer.defaultCallsPerSecond);
    const waitMs = await this.deps.store.reserveDialSlot(account.id, request.provider, Math.ceil(1000 / cps), this.deps.maxDialWaitMs);
    if (waitMs === null) {
      throw new ApiError(
        'rate_limit_exceeded',
        `More calls are queued for ${request.provider} than this account places in ${this.deps.maxDialWaitMs / 1000} s at ${cps} per second; nothing was stored, retry later (the same idempotency_key may be sent again).`,
        { retryAfterSeconds: Math.max(1, Math.ceil(this.deps.maxDialWaitMs / 1000)) },
      );
    }
    const dialAtMs = this.deps.now() + waitMs;
    if ((await this.deps.store.claimOutboundCallOfDay(account.id, this.deps.maxCallsPerDay)) === null) {
      const untilMidnightS = Math.max(1, Math.ceil((DAY_MS - (this.deps.now() % DAY_MS)) / 1000));
      throw new ApiError(
        'rate_limit_exceeded',
        `This account has placed ${this.deps.maxCallsPerDay} outbound calls today (UTC), the daily cap of this server; nothing was stored, retry after 00:00 UTC (in ${untilMidnightS} s).`,
        { retryAfterSeconds: untilMidnightS },
      );
    }
    const call: OutboundCall = {
      id: randomId('call_'),
      accountId: account.id,
      provider: request.provider,
      to: request.to,
      from: request.from,
      settings: request.settings,
      amd: request.amd,
      ringTimeoutS: request.ringTimeoutS,
      timeLimitS: request.timeLimitS,
      statusWebhook: request.statusWebhook,
      idempotencyKey: request.idempotencyKey,
      requestHash: createHash('sha256').update(request.canonicalBody).digest('hex'),
      referenceId: request.referenceId,
      createdAtMs: this.deps.now(),
    };
    const { created, state } = await this.deps.store.createOutboundCall(call);
    if (!created) return { state: this.#replay(state, call.requestHash), replayed: true };

    // The webhook hears of the call (queued, then failed or initiated) only once the compliance checks have spoken.
    const dnc = { list: this.deps.doNotCall, destinations: this.deps.destinations, now: this.deps.now, sleep: this.#sleep };
    const refusal = callerIdRefusal(settings, call.from) ?? callingHoursRefusal(settings, this.deps.now()) ?? (await doNotCallRefusal(dnc, settings, call));
    if (refusal !== undefined) {
      const retryAfterSeconds = refusal.rule === 'calling_hours' ? refusal.retryAfterSeconds : undefined;
      throw await this.#fail(call, REFUSAL_CODES[refusal.rule], `The call was not placed: ${refusal.message}`, retryAfterSeconds);
    }
    void this.#delivery.deliverOwed(account.id, call.id);
    // The compliance checks (a do-not-call webhook) may have used some of the wait already.
    const waitLeftMs = dialAtMs - this.deps.now();
    if (waitLeftMs > 0) await this.#sleep(waitLeftMs);
    let providerCallId: string;
    try {
      providerCallId = await dialer.place(call, settings!, urlsFor(call), this.deps.dialTimeoutMs);
    } catch (error) {
      if (!(error instanceof DialError)) throw error;
      throw await this.#fail(call, FAILURE_CODES[error.failure], error.message);
    }
    await this.record(account.id, call.id, { status: 'initiated', atMs: this.deps.now(), providerCallId });
    this.deps.log?.({ callId: call.id, provider: call.provider, providerCallId, queuedMs: waitMs }, 'outbound call placed');
    return { state: (await this.deps.store.getOutboundCall(account.id, call.id)) ?? state, replayed: false };
  }

  get(accountId: string, callId: string): Promise<OutboundCallState | null> {
    return this.deps.store.getOutboundCall(accountId, callId);
  }

  /**
   * Records a status the provider reported (once per status) and sends it to the account's webhook. A terminal
   * status carries the characters the call's speech used.
   */
  async record(accountId: string, callId: string, event: NewOutboundCallEvent): Promise<void> {
    let stored = event;
    if (TERMINAL_STATUSES.has(event.status) && event.charactersUsed === undefined) {
      const state = await this.deps.store.getOutboundCall(accountId, callId);
      if (state) stored = { ...event, charactersUsed: await this.#charactersUsed(state, event) };
    }
    const recorded = await this.deps.store.recordOutboundCallEvent(accountId, callId, stored);
    // Not awaited: a slow or failing receiver must not hold the provider's callback or the caller's request.
    if (recorded) void this.#delivery.deliverOwed(accountId, callId);
  }

  /**
   * The callee answered and the provider asks what to do: the call's settings for its stream (an answering machine
   * gets the greeting alone, then the call ends, with `leave_message`), or `hangup` (a machine with `hangup`).
   */
  async answered(accountId: string, callId: string, facts: { readonly streamCallId: string; readonly answeredBy?: AnsweredBy | undefined }) {
    const state = await this.deps.store.getOutboundCall(accountId, callId);
    if (!state) return null;
    const { call } = state;
    // The answer and stream URLs carry a token that never changes: they are good for one answer, while the call can
    // still be ringing or talking, so a URL read off a log opens nothing later.
    const lastsUntilMs = call.createdAtMs + (call.ringTimeoutS + call.timeLimitS) * 1000 + ANSWER_GRACE_MS;
    if (TERMINAL_STATUSES.has(summarizeOutboundCall(state).status) || this.deps.now() > lastsUntilMs) return null;
    const answer = randomId('ans_');
    if ((await this.deps.store.holdKey('outbound-answer', `${accountId}:${callId}`, answer, lastsUntilMs - this.deps.now())) !== answer) return null;
    await this.record(accountId, callId, { status: 'answered', atMs: this.deps.now(), streamCallId: facts.streamCallId, ...(facts.answeredBy ? { answeredBy: facts.answeredBy } : {}) });
    const machine = facts.answeredBy === 'machine' || facts.answeredBy === 'fax';
    const layer: Record<string, string> = {
      ...call.settings,
      direction: 'outbound',
      from: call.from,
      to: call.to,
      [OUTBOUND_CALL_PARAMETER]: call.id,
      ...(facts.answeredBy ? { answered_by: facts.answeredBy } : {}),
    };
    if (machine && call.amd.onMachine === 'hangup') return { call, action: 'hangup' as const, layer };
    if (machine && call.amd.onMachine === 'leave_message') {
      delete layer.agent_url;
      layer.hangup_after_greeting = 'true';
      layer.greeting_interruptible = 'false';
    }
    return { call, action: 'stream' as const, layer };
  }

  /** A gather on the call ended: its result goes to the call's status webhook (see WebhookDelivery.gathered). */
  gathered(accountId: string, callId: string, result: { readonly gatherId: string; readonly digits: string; readonly reason: string }): Promise<void> {
    return this.#delivery.gathered(accountId, callId, result);
  }

  /** Sweeps the webhook backlog every `intervalMs` until close(). */
  startSweeping(intervalMs: number): void {
    this.#delivery.startSweeping(intervalMs);
  }

  /** Stops sweeping and retrying (what is owed stays owed, for the next instance). */
  close(): void {
    this.#delivery.close();
  }

  /** The summary GET /v1/calls/{id} and POST /v1/calls answer with. */
  static describe(state: OutboundCallState) {
    const { call } = state;
    const summary = summarizeOutboundCall(state);
    return {
      call_id: call.id,
      provider: call.provider,
      provider_call_id: summary.providerCallId ?? null,
      status: summary.status,
      to: call.to,
      from: call.from,
      answered_by: summary.answeredBy ?? null,
      duration_s: summary.durationS ?? null,
      hangup_cause: summary.hangupCause ?? null,
      characters_used: summary.charactersUsed ?? null,
      error: summary.error ?? null,
      reference_id: call.referenceId ?? null,
      idempotency_key: call.idempotencyKey ?? null,
      created_at: new Date(call.createdAtMs).toISOString(),
      answered_at: summary.answeredAtMs === undefined ? null : new Date(summary.answeredAtMs).toISOString(),
      ended_at: summary.endedAtMs === undefined ? null : new Date(summary.endedAtMs).toISOString(),
      events: state.events.map((event) => ({ sequence: event.sequence, status: event.status, at: new Date(event.atMs).toISOString() })),
    };
  }

  /** The same key answers its first attempt: the call, or the error that stopped it before it was placed. */
  #replay(state: OutboundCallState, requestHash: string): OutboundCallState {
    if (state.call.requestHash !== requestHash) {
      throw new ApiError('idempotency_conflict', `idempotency_key '${state.call.idempotencyKey ?? ''}' was used for a different request (call ${state.call.id}); use a new key for a new call.`);
    }
    const summary = summarizeOutboundCall(state);
    if (summary.error !== undefined && summary.providerCallId === undefined) {
      const code = summary.error.code in REPLAYABLE ? (summary.error.code as ErrorCode) : 'provider_rejected';
      throw new ApiError(code, summary.error.message);
    }
    return state;
  }

  async #fail(call: OutboundCall, code: ErrorCode, reason: string, retryAfterSeconds?: number): Promise<ApiError> {
    const message = `${reason} (${call.id})`;
    await this.record(call.accountId, call.id, { status: 'failed', atMs: this.deps.now(), hangupCause: 'not_placed', error: { code, message } });
    this.deps.log?.({ callId: call.id, provider: call.provider, code }, 'outbound call not placed');
    return new ApiError(code, message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
  }

  /** Characters billed to the call's media stream (usage records of the call's stream id, since it was placed). */
  async #charactersUsed(state: OutboundCallState, event: NewOutboundCallEvent): Promise<number> {
    const summary = summarizeOutboundCall(state);
    const ids = new Set([summary.streamCallId, summary.providerCallId, event.streamCallId, event.providerCallId].filter((id): id is string => id !== undefined));
    if (ids.size === 0) return 0;
    // The account's records since the call was placed, a bounded page at a time with a turn of the loop between
    // pages: a busy account writes thousands while one call lasts.
    const range = { fromMs: state.call.createdAtMs, toMs: this.deps.now() + 1 };
    let characters = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.deps.store.listUsagePage(state.call.accountId, range, { limit: USAGE_PAGE_RECORDS, ...(after === undefined ? {} : { after }) });
      for (const record of page.records) if (record.endpoint === 'call' && record.callId !== undefined && ids.has(record.callId)) characters += record.characters;
      if (page.next === null) return characters;
      after = page.next;
      await eventLoopTurn();
    }
  }
}

/** Usage records read per page when a call's characters are summed. */
const USAGE_PAGE_RECORDS = 1_000;

/**
 * Error codes a replay answers with as they were (each one the first attempt could have stopped with; a stored
 * rate_limit_exceeded is from before the pace refused ahead of storing, and stays replayable while it is kept).
 */
const REPLAYABLE: Readonly<Record<string, true>> = Object.fromEntries([...Object.values(FAILURE_CODES), ...Object.values(REFUSAL_CODES), 'rate_limit_exceeded'].map((code) => [code, true]));
