// What an utterance costs, decided here for every transport (HTTP generate and stream, the WebSocket, phone calls):
// they only name how it ended and what reached the client. The rule (docs/api.md, "Billing"): a client pays for the
// text whose audio was synthesized and handed to it.

import type { UsageReport } from '../admission.js';

export type UtteranceOutcome = UsageReport['outcome'];

export interface UtteranceEnd {
  readonly outcome: UtteranceOutcome;
  /** Code points of the whole text: what a completed utterance costs. */
  readonly totalCodePoints: number;
  /** Code points of the chunks whose audio was handed to the client before it ended (a cancel, a client gone). */
  readonly deliveredCodePoints: number;
  /**
   * What a cancelled utterance pays at least, delivered or not: HTTP requests pay their first chunk, the work their
   * admission set going (the WebSocket's cancel before any audio is free, as the spec says: absent there).
   */
  readonly cancelledMinimumCodePoints?: number;
  /** Audio handed to the client (cancelled) or produced (otherwise), for the ledger. */
  readonly audioMs: number;
  /** The engine kind that spoke. */
  readonly engine: string;
}

export interface Charge {
  /** Credits to debit. */
  readonly used: number;
  /** The ledger's account of it. */
  readonly report: UsageReport;
}

/**
 * Completed: the whole text. Cancelled (the client's cancel, a barge-in, a client that left or stopped reading): the
 * chunks handed over before it ended, and at least `cancelledMinimumCodePoints` (an HTTP request's first chunk).
 * Truncated (the safety budget) and failed (ours: engine, shutdown): nothing.
 */
export function chargeFor(end: UtteranceEnd): Charge {
  const cancelled = Math.max(end.deliveredCodePoints, end.cancelledMinimumCodePoints ?? 0);
  const used = end.outcome === 'completed' ? end.totalCodePoints : end.outcome === 'cancelled' ? Math.min(cancelled, end.totalCodePoints) : 0;
  return { used, report: { engine: end.engine, audioSeconds: Number((end.audioMs / 1000).toFixed(6)), outcome: end.outcome } };
}
