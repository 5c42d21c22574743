// An outbound call as Raaga placed it (POST /v1/calls) and what happened to it since, as every store keeps it: the
// request (immutable once created) plus one event per status the call reached. Events are recorded at most once
// per status, so a provider that repeats a callback never produces a second webhook; the call's status is the
// furthest one reached, whatever order the provider's callbacks arrived in.


/** The provider's answering-machine detection, normalised (Twilio's machine_start, machine_end_beep, … are `machine`). */
export const ANSWERED_BY = ['human', 'machine', 'fax', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/** In the order a call moves through them; the last five are terminal. */
export const OUTBOUND_STATUSES = ['queued', 'initiated', 'ringing', 'answered', 'completed', 'busy', 'no_answer', 'failed'] as const;
export type OutboundStatus = (typeof OUTBOUND_STATUSES)[number];
export const TERMINAL_STATUSES: ReadonlySet<OutboundStatus> = new Set(['completed', 'busy', 'no_answer', 'failed']);

export const AMD_MODES = ['off', 'detect', 'detect_message_end'] as const;
export type AmdMode = (typeof AMD_MODES)[number];
export const ON_MACHINE_ACTIONS = ['hangup', 'leave_message', 'agent'] as const;
export type OnMachineAction = (typeof ON_MACHINE_ACTIONS)[number];

/** `call_` and 12 base-32 characters (random-id.ts): Raaga's id of an outbound call (never a provider's). */
export const OUTBOUND_CALL_ID_PATTERN = /^call_[a-z0-9]{12,32}$/;
/** What a client may use as an idempotency key (Stripe-like: up to 255 printable characters). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** How long a call record (and its idempotency key) is kept: a day of retries, a month of lookups. */
export const OUTBOUND_CALL_RETENTION_MS = 30 * 24 * 3600_000;

export interface OutboundCall {
  readonly id: string;
  readonly accountId: string;
  /** The provider it was placed through (a name in telephony/providers.ts). */
  readonly provider: string;
  /** E.164. */
  readonly to: string;
  readonly from: string;
  /** The call's stream settings as call parameters (voice, language, greeting, agent_url, …, the developer's own). */
  readonly settings: Readonly<Record<string, string>>;
  readonly amd: { readonly mode: AmdMode; readonly onMachine: OnMachineAction };
  readonly ringTimeoutS: number;
  readonly timeLimitS: number;
  readonly statusWebhook: string | undefined;
  readonly idempotencyKey: string | undefined;
  /** sha256 of the request body: the same key with another body is refused, not answered with this call. */
  readonly requestHash: string;
  /** The consent or campaign reference the caller gave, kept for audits: a UCC complaint asks what a call relied on. */
  readonly referenceId: string | undefined;
  readonly createdAtMs: number;
}

export interface OutboundCallEvent {
  readonly status: OutboundStatus;
  readonly atMs: number;
  /** 1, 2, …: the order Raaga recorded the events in (and sends them in). */
  readonly sequence: number;
  readonly providerCallId?: string | undefined;
  /** The id the media stream carries, when it differs from the provider's create id (Plivo's CallUUID). */
  readonly streamCallId?: string | undefined;
  readonly answeredBy?: AnsweredBy | undefined;
  readonly durationS?: number | undefined;
  /** The provider's reason, normalised to lower case words (`normal_clearing`, `busy`, `canceled`, …). */
  readonly hangupCause?: string | undefined;
  readonly charactersUsed?: number | undefined;
  /** Why Raaga could not place or continue the call (a `failed` event). */
  readonly error?: { readonly code: string; readonly message: string } | undefined;
}

export type NewOutboundCallEvent = Omit<OutboundCallEvent, 'sequence'>;

export interface OutboundCallState {
  readonly call: OutboundCall;
  /** In sequence order. */
  readonly events: readonly OutboundCallEvent[];
  /** Status events 1..this were delivered to the call's webhook (or given up for good); 0: none yet. */
  readonly webhookDeliveredThrough: number;
}

/** A call whose webhook still owes events, as the sweeper finds it. */
export interface WebhookBacklogEntry {
  readonly accountId: string;
  readonly callId: string;
}

/** The furthest status reached (a terminal one over any other), with the facts the events carried. */
export function summarizeOutboundCall(state: OutboundCallState) {
  const rank = (status: OutboundStatus) => OUTBOUND_STATUSES.indexOf(status);
  let status: OutboundStatus = 'queued';
  const facts: Omit<OutboundCallEvent, 'status' | 'atMs' | 'sequence'> & { answeredAtMs?: number; endedAtMs?: number } = {};
  for (const event of state.events) {
    if (rank(event.status) > rank(status)) status = event.status;
    const { status: eventStatus, atMs, sequence: _sequence, ...rest } = event;
    for (const [name, value] of Object.entries(rest)) if (value !== undefined) (facts as Record<string, unknown>)[name] = value;
    if (eventStatus === 'answered') facts.answeredAtMs = atMs;
    if (TERMINAL_STATUSES.has(eventStatus)) facts.endedAtMs = atMs;
  }
  return { status, ...facts };
}

