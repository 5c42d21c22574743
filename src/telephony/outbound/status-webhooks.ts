// The account's status webhook: each event of an outbound call, POSTed as JSON and signed
// `Raaga-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(webhook secret, "<t>.<body>")>` (docs/outbound-calls.md has
// the check). This is the transport: one delivery with its retries (doubling waits, WEBHOOK_ATTEMPTS in all), and a
// per-call queue so a call's events go out one after another. What is owed and in which order is OutboundCalls'
// business (the store's webhook cursor), so an event a receiver did not take is sent again later, by any instance.

import { createHmac } from 'node:crypto';
import type { OutboundCall, OutboundCallEvent } from '../../store/outbound-call.js';
import type { DestinationPolicy } from '../destination/destination-policy.js';
import { pinnedPost } from '../destination/pinned-post.js';

export const SIGNATURE_HEADER = 'raaga-signature';
/** Status (and do-not-call) webhooks are plain HTTPS or HTTP POSTs; where they may point is the destination policy's call. */
export const STATUS_WEBHOOK_SCHEMES: readonly string[] = ['http', 'https'];
export const WEBHOOK_ATTEMPTS = 8;
const DELIVERY_TIMEOUT_MS = 10_000;
/** A receiver's answer is read no further than this: its status code is all that counts. */
const MAX_ANSWER_BYTES = 4096;

export function signWebhook(secret: string, body: string, timestampS: number): string {
  return `t=${timestampS},v1=${createHmac('sha256', secret).update(`${timestampS}.${body}`).digest('hex')}`;
}

/** The webhook body of a status event: the call's identity and the event's facts (absent facts left out). */
export function statusPayload(call: OutboundCall, event: OutboundCallEvent): Record<string, unknown> {
  return {
    event_id: `${call.id}.${event.sequence}`,
    type: 'status',
    call_id: call.id,
    sequence: event.sequence,
    status: event.status,
    at: new Date(event.atMs).toISOString(),
    provider: call.provider,
    to: call.to,
    from: call.from,
    reference_id: call.referenceId ?? null,
    ...(event.providerCallId !== undefined ? { provider_call_id: event.providerCallId } : {}),
    ...(event.answeredBy !== undefined ? { answered_by: event.answeredBy } : {}),
    ...(event.durationS !== undefined ? { duration_s: event.durationS } : {}),
    ...(event.hangupCause !== undefined ? { hangup_cause: event.hangupCause } : {}),
    ...(event.charactersUsed !== undefined ? { characters_used: event.charactersUsed } : {}),
    ...(event.error !== undefined ? { error: event.error } : {}),
  };
}

/** The webhook body of a gather's result on the call (no-agent IVR: the keys the callee typed). */
export function gatherPayload(call: OutboundCall, result: { readonly gatherId: string; readonly digits: string; readonly reason: string }, atMs: number): Record<string, unknown> {
  return {
    event_id: `${call.id}.gather.${result.gatherId}`,
    type: 'gather',
    call_id: call.id,
    gather_id: result.gatherId,
    digits: result.digits,
    reason: result.reason,
    at: new Date(atMs).toISOString(),
    provider: call.provider,
    to: call.to,
    from: call.from,
    reference_id: call.referenceId ?? null,
  };
}

export interface WebhookDeliveryDeps {
  readonly retryBaseMs: number;
  /** Checked at every attempt: a URL that now resolves inside the network is not posted to. */
  readonly destinations: DestinationPolicy;
  /** Epoch ms, for the signature's timestamp. */
  readonly now: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** A queued task failed (the store did not answer, say): what it owed stays owed for the sweep. */
  readonly onTaskError?: (callId: string, error: unknown) => void;
  /** A delivery failed every attempt (it stays owed: the sweeper sends it again later). */
  readonly onGiveUp?: (eventId: string, lastError: string) => void;
}

export class StatusWebhooks {
  /** Per call: the latest queued task, which the next one waits for. */
  readonly #tails = new Map<string, Promise<void>>();
  readonly #sleep: (ms: number) => Promise<void>;
  #closed = false;

  constructor(private readonly deps: WebhookDeliveryDeps) {
    this.#sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()));
  }

  /** How long one delivery keeps retrying at most (its waits; request timeouts come on top). */
  get retrySpanMs(): number {
    return this.deps.retryBaseMs * (2 ** (WEBHOOK_ATTEMPTS - 1) - 1);
  }

  /** Runs `task` after the call's earlier tasks; resolves when it is done. A task that throws is reported, not fatal. */
  serially(callId: string, task: () => Promise<void>): Promise<void> {
    const previous = this.#tails.get(callId) ?? Promise.resolve();
    const run = previous.then(task).catch((error: unknown) => this.deps.onTaskError?.(callId, error));
    this.#tails.set(callId, run);
    void run.then(() => {
      if (this.#tails.get(callId) === run) this.#tails.delete(callId);
    });
    return run;
  }

  /** True while the call has a task queued or running on this instance. */
  busy(callId: string): boolean {
    return this.#tails.has(callId);
  }

  /** Resolves when every queued task is done (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all(this.#tails.values());
  }

  /** Stops retrying: deliveries in progress end after their current attempt, as not delivered. */
  close(): void {
    this.#closed = true;
  }

  /** POSTs the payload, retrying with doubling waits; true once a 2xx took it. */
  async post(url: string, secret: string, payload: Record<string, unknown>): Promise<boolean> {
    const body = JSON.stringify(payload);
    let lastError = '';
    for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS && !this.#closed; attempt++) {
      const result = await pinnedPost(this.deps.destinations, url, STATUS_WEBHOOK_SCHEMES, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Raaga-Webhooks/1',
          [SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(this.deps.now() / 1000)),
          'raaga-attempt': String(attempt),
        },
        body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        maxResponseBytes: MAX_ANSWER_BYTES,
      });
      if (result.ok && result.status >= 200 && result.status < 300) return true;
      lastError = result.ok ? `status ${result.status}` : result.failure === 'refused' ? `refused: ${result.reason}` : 'no answer';
      // The policy's verdict does not change with retrying now; the sweep checks the destination again later.
      if (!result.ok && result.failure === 'refused') break;
      if (attempt < WEBHOOK_ATTEMPTS && !this.#closed) await this.#sleep(this.deps.retryBaseMs * 2 ** (attempt - 1));
    }
    this.deps.onGiveUp?.(String(payload.event_id), lastError || 'shutting down');
    return false;
  }
}
