// Outbound calls' status events to the account's webhook, in order and surviving the instance: the store keeps each
// call's events and a cursor past the last one its receiver took, so whichever instance runs next resumes there. A
// refused event holds back the ones after it; every instance sweeps the backlog of calls that still owe events.

import { summarizeOutboundCall } from '../../store/outbound-call.js';
import type { Store } from '../../store/store.js';
import { gatherPayload, statusPayload, type StatusWebhooks } from './status-webhooks.js';

/** An event its webhook has not taken for this long is given up for good (it stays in GET /v1/calls/{id}). */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3600_000;

export interface WebhookDeliveryDeps {
  readonly store: Pick<Store, 'getTelephonySettings' | 'getOutboundCall' | 'advanceWebhookCursor' | 'webhookBacklog'>;
  readonly webhooks: StatusWebhooks;
  /** Epoch ms. */
  readonly now: () => number;
  readonly log?: (fields: Record<string, unknown>, message: string) => void;
}

export class WebhookDelivery {
  #sweeper: NodeJS.Timeout | undefined;
  /** Calls whose receiver refused a whole delivery here (and when): left to the sweep, any instance's, in order. */
  readonly #stalled = new Map<string, number>();

  constructor(private readonly deps: WebhookDeliveryDeps) {}

  /**
   * Sends the call's status events past its webhook cursor, in order, moving the cursor after each one taken. The
   * first one the receiver does not take stops the run: the rest wait for the sweeper, so none overtakes it.
   */
  deliverOwed(accountId: string, callId: string): Promise<void> {
    return this.deps.webhooks.serially(callId, async () => {
      // A receiver that refused this call's last run gets nothing more from this instance until a sweep.
      if (this.#stalled.has(callId)) return;
      const target = await this.#webhookOf(accountId, callId);
      if (!target) return;
      const { state, url, secret } = target;
      const providerCallId = summarizeOutboundCall(state).providerCallId;
      for (const event of state.events) {
        if (event.sequence <= state.webhookDeliveredThrough) continue;
        if (this.deps.now() - event.atMs > WEBHOOK_RETRY_WINDOW_MS) {
          this.deps.log?.({ callId, sequence: event.sequence }, 'status webhook event older than the retry window given up for good');
        } else {
          // Every event after the provider took the call names it, whichever callback carried the id.
          const named = event.providerCallId === undefined && providerCallId !== undefined && event.sequence > 1 ? { ...event, providerCallId } : event;
          if (!(await this.deps.webhooks.post(url, secret, statusPayload(state.call, named)))) {
            this.#stalled.set(callId, this.deps.now());
            return;
          }
        }
        await this.deps.store.advanceWebhookCursor(accountId, callId, event.sequence);
      }
    });
  }

  /**
   * A gather on the call ended: its result goes to the call's status webhook, queued with the status events. It is
   * not stored, so it is sent with this instance's retries only (the result also reaches the agent and the long-poll).
   */
  async gathered(accountId: string, callId: string, result: { readonly gatherId: string; readonly digits: string; readonly reason: string }): Promise<void> {
    const atMs = this.deps.now();
    await this.deps.webhooks.serially(callId, async () => {
      const target = await this.#webhookOf(accountId, callId);
      if (target) await this.deps.webhooks.post(target.url, target.secret, gatherPayload(target.state.call, result, atMs));
    });
  }

  /**
   * Sends what calls' webhooks still owe once the instance that recorded it had its chance (its retries are over, or
   * it stopped): oldest first, each call in sequence order from its cursor. Events older than WEBHOOK_RETRY_WINDOW_MS
   * are given up for good. Returns how many calls it looked at.
   */
  async sweep(limit = 50): Promise<number> {
    const now = this.deps.now();
    // Another instance may have swept a call stalled here; past the retry window nobody sends it anything.
    for (const [callId, sinceMs] of this.#stalled) if (now - sinceMs > WEBHOOK_RETRY_WINDOW_MS) this.#stalled.delete(callId);
    const backlog = await this.deps.store.webhookBacklog(now - this.deps.webhooks.retrySpanMs * 2, limit);
    for (const { accountId, callId } of backlog) {
      if (this.deps.webhooks.busy(callId)) continue;
      this.#stalled.delete(callId);
      await this.deliverOwed(accountId, callId);
    }
    return backlog.length;
  }

  /** Sweeps every `intervalMs` until close(). */
  startSweeping(intervalMs: number): void {
    this.#sweeper ??= setInterval(() => {
      void this.sweep().catch((error: unknown) => this.deps.log?.({ err: String(error) }, 'webhook sweep failed; next one retries'));
    }, intervalMs);
    this.#sweeper.unref();
  }

  /** Stops sweeping and retrying (what is owed stays owed, for the next instance). */
  close(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.deps.webhooks.close();
  }

  async #webhookOf(accountId: string, callId: string) {
    const state = await this.deps.store.getOutboundCall(accountId, callId);
    const url = state?.call.statusWebhook;
    const secret = url === undefined ? undefined : (await this.deps.store.getTelephonySettings(accountId))?.webhookSecret;
    return state && url !== undefined && secret !== undefined ? { state, url, secret } : undefined;
  }
}
