// The budget of media connections that have not authenticated yet (no verified start): they hold no call slot, so
// connections without credentials never refuse a real caller; this bounds them instead, in all
// (TELEPHONY_MAX_PENDING_STREAMS) and per source address (TELEPHONY_MAX_PENDING_PER_SOURCE).

export type PendingRefusalReason = 'pending_streams' | 'pending_per_source';

export interface PendingLimits {
  readonly maxPendingStreams: number;
  /** 0: no cap per address. */
  readonly maxPendingPerSource: number;
}

/** A place held in the budget; `release` is idempotent. */
export interface PendingPlace {
  readonly ok: true;
  release(): void;
}

export class PendingConnections {
  readonly #limits: PendingLimits;
  readonly #bySource = new Map<string, number>();
  #held = 0;

  constructor(limits: PendingLimits) {
    this.#limits = limits;
  }

  /** Connections holding a place now. */
  get held(): number {
    return this.#held;
  }

  /** Places held by connections from `source` now. */
  heldBy(source: string): number {
    return this.#bySource.get(source) ?? 0;
  }

  /** Why a new connection from `source` would be refused now, or undefined when it would be taken. */
  refusal(source: string): PendingRefusalReason | undefined {
    if (this.#held >= this.#limits.maxPendingStreams) return 'pending_streams';
    const perSource = this.#limits.maxPendingPerSource;
    if (perSource > 0 && this.heldBy(source) >= perSource) return 'pending_per_source';
    return undefined;
  }

  /** Takes a place for a connection from `source`; the caller checked `refusal(source)` first. */
  hold(source: string): PendingPlace {
    this.#held++;
    this.#bySource.set(source, this.heldBy(source) + 1);
    let held = true;
    return {
      ok: true,
      release: () => {
        if (!held) return;
        held = false;
        this.#held--;
        const left = this.heldBy(source) - 1;
        if (left > 0) this.#bySource.set(source, left);
        else this.#bySource.delete(source);
      },
    };
  }
}
