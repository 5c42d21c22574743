// Group commit: coalesces concurrent durability requests into as few file writes as possible, and resolves
// each caller only after a write that started after its call (so the write includes its mutation).

export class GroupCommit {
  private inFlight: Promise<void> | null = null;
  /** The batch not yet started: every caller arriving before it starts shares it. */
  private next: Promise<void> | null = null;

  /**
   * @param write must capture the state synchronously when called (before its first await): that is the
   *   moment the batch closes, and callers arriving later join the following batch.
   */
  constructor(private readonly write: () => Promise<void>) {}

  commit(): Promise<void> {
    if (this.next) return this.next;
    const previous = this.inFlight;
    const batch = (async () => {
      // Always yield once, even with nothing in flight, so `this.next` is set before the batch closes
      // and callers in the same tick share one write.
      await (previous ?? Promise.resolve()).catch(() => undefined);
      this.next = null;
      const run = this.write();
      this.inFlight = run;
      try {
        await run;
      } finally {
        if (this.inFlight === run) this.inFlight = null;
      }
    })();
    this.next = batch;
    return batch;
  }

  /** Waits until nothing is pending or writing; never throws (the callers of failed writes saw the error). */
  async flush(): Promise<void> {
    for (;;) {
      const pending = this.next ?? this.inFlight;
      if (!pending) return;
      await pending.catch(() => undefined);
    }
  }
}
