// The knobs of a session, with the values docs/websocket.md promises to clients.

export interface SessionLimits {
  /** Close after this long without a client event while not speaking; null disables (a phone call ends itself). */
  readonly idleTimeoutMs: number | null;
  /** Close a session that has sent no valid `config` this long after `connected`; null: no deadline (a call configures itself). */
  readonly configTimeoutMs: number | null;
  /** Audio is pulled only while the sink holds at most this many unsent bytes. */
  readonly highWaterBytes: number;
  readonly backpressurePollMs: number;
  /** Above the high-water mark with no drain for this long: close 1008. */
  readonly stallTimeoutMs: number;
  /** Unsent bytes beyond which a JSON reply means the client is not reading at all: close 1008. */
  readonly maxBufferedBytes: number;
  /** Client events waiting to be handled beyond which the client is flooding: close 1008. */
  readonly maxPendingEvents: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleTimeoutMs: 60_000,
  // A socket that never configures holds a connection and nothing else: it is not kept for the idle minute.
  configTimeoutMs: 10_000,
  // About 0.7 s of 48 kHz PCM: little stale audio in flight when a cancel comes.
  highWaterBytes: 64 * 1024,
  // Adds at most 10 ms to a frame that waited for room; the common case (room available) never polls.
  backpressurePollMs: 10,
  stallTimeoutMs: 30_000,
  maxBufferedBytes: 1024 * 1024,
  maxPendingEvents: 128,
};
