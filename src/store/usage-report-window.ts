// The embedded stores' window of usage reports (Store.admitUsageReport): per account, the times of the reports of the
// last RATE_WINDOW_MS, in this process's memory like the synthesis window (admission-state.ts); RedisStore keeps the
// same window in a sorted set. Separate from the synthesis window: reading the ledger never spends a synthesis request.

import { RATE_WINDOW_MS, type UsageReportAdmission } from './store.js';
import { insertSorted } from './admission-state.js';

export class UsageReportWindows {
  readonly #windows = new Map<string, number[]>();

  admit(accountId: string, limit: number, now: number): UsageReportAdmission {
    const window = this.#windows.get(accountId) ?? [];
    const cutoff = now - RATE_WINDOW_MS;
    let drop = 0;
    while (drop < window.length && (window[drop] ?? Infinity) <= cutoff) drop++;
    if (drop > 0) window.splice(0, drop);
    if (window.length >= limit) {
      const freeing = window[window.length - limit] ?? now;
      const rate = { limit, remaining: 0, resetAtMs: (window[0] ?? now) + RATE_WINDOW_MS };
      return { ok: false, rate, retryAfterMs: Math.max(1, freeing + RATE_WINDOW_MS - now) };
    }
    insertSorted(window, now);
    this.#windows.set(accountId, window);
    return { ok: true, rate: { limit, remaining: limit - window.length, resetAtMs: (window[0] ?? now) + RATE_WINDOW_MS } };
  }
}
