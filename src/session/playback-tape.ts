// Our own copy of the call's audio the caller may not have heard yet: every frame and chunk mark sent, by its
// position on the playout axis (PlayoutClock.sentMs), from the last position the provider confirmed to the head.
// Providers have no pause: a hold clears their buffer, and a resume re-sends from this tape. It is trimmed as marks
// come back, so it holds about the send-ahead window plus a mark's round trip (300-500 ms, 2.4-4 KB of mu-law).

/** A chunk mark as the ledger issued it, to issue again (in a new generation) when the tape is replayed. */
export interface TapedMark {
  readonly seq: number;
  readonly lastChunk: number;
  readonly final: boolean;
  /** Audio of its utterance before the mark. */
  readonly utteranceMs: number;
}

export type TapeItem =
  | { readonly kind: 'frame'; readonly atMs: number; readonly ms: number; readonly bytes: Uint8Array }
  | { readonly kind: 'mark'; readonly atMs: number; readonly mark: TapedMark };

export class PlaybackTape {
  #items: TapeItem[] = [];

  constructor(
    /** Kept at most this far behind the head, whatever the marks say (a provider that never echoes them). */
    private readonly maxMs: number,
  ) {}

  recordFrame(atMs: number, bytes: Uint8Array, ms: number): void {
    this.#items.push({ kind: 'frame', atMs, ms, bytes });
    const oldest = atMs + ms - this.maxMs;
    if ((this.#items[0]?.atMs ?? oldest) < oldest) this.trimBefore(oldest);
  }

  recordMark(atMs: number, mark: TapedMark): void {
    this.#items.push({ kind: 'mark', atMs, mark });
  }

  /**
   * Everything before `positionMs` has played: frames that end by then and marks before it go. A mark exactly at
   * the position stays (the position mark ahead of it may have come back, the chunk mark not yet).
   */
  trimBefore(positionMs: number): void {
    let drop = 0;
    while (drop < this.#items.length) {
      const item = this.#items[drop]!;
      const played = item.kind === 'frame' ? item.atMs + item.ms <= positionMs : item.atMs < positionMs;
      if (!played) break;
      drop++;
    }
    if (drop > 0) this.#items = this.#items.slice(drop);
  }

  /** What to re-send to resume at `positionMs`: the frame holding it and everything after, in order. */
  from(positionMs: number): readonly TapeItem[] {
    return this.#items.filter((item) => (item.kind === 'frame' ? item.atMs + item.ms > positionMs : item.atMs >= positionMs));
  }

  clear(): void {
    this.#items = [];
  }
}
