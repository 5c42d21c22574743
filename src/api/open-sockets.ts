// Streaming sockets an account holds open on this instance, whatever their dialect (/v1/tts/websocket and ElevenLabs'
// streaming-input sockets share one count): unconfigured sockets take no slot, so without a cap they would cost
// nothing to open by the hundred.

import { PLAN_LIMITS, type Plan } from '../store/store.js';

/**
 * Open sockets an account may hold on one instance: twice its plan's concurrency (a client reconnecting while its old
 * socket closes), at least four.
 */
export function maxOpenSessions(plan: Plan): number {
  return Math.max(4, 2 * PLAN_LIMITS[plan].concurrentRequests);
}

export class OpenSockets {
  readonly #byAccount = new Map<string, number>();

  /** Counts one more socket for the account; false (nothing counted) when it already holds `cap`. */
  tryOpen(accountId: string, cap: number): boolean {
    const open = this.#byAccount.get(accountId) ?? 0;
    if (open >= cap) return false;
    this.#byAccount.set(accountId, open + 1);
    return true;
  }

  /** How many the account holds now. */
  count(accountId: string): number {
    return this.#byAccount.get(accountId) ?? 0;
  }

  closed(accountId: string): void {
    const left = (this.#byAccount.get(accountId) ?? 1) - 1;
    if (left > 0) this.#byAccount.set(accountId, left);
    else this.#byAccount.delete(accountId);
  }
}
