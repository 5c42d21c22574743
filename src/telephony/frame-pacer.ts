// Real-time metering for a provider with no playout buffer of its own (Asterisk AudioSocket plays each packet the
// moment it arrives): the call's audio frames wait here and leave one per frame interval, and a mark between them
// is acknowledged when the frame before it has finished playing, since nothing downstream can acknowledge it.
// A clear drops what waits here, marks included, so the caller stops hearing the bot within one frame.

import type { Clock, ClockTimer } from '../session/clock.js';

type Queued = { readonly kind: 'frame'; readonly frame: Uint8Array } | { readonly kind: 'mark'; readonly name: string };

/** A stall longer than this (a blocked event loop) re-anchors the schedule instead of bursting to catch up. */
const MAX_CATCH_UP_MS = 60;

export interface FramePacerOptions {
  readonly clock: Clock;
  readonly frameMs: number;
  /** Writes one frame to the connection. */
  readonly send: (frame: Uint8Array) => void;
  /** Everything queued before the named mark has played. */
  readonly played: (name: string) => void;
}

export class FramePacer {
  readonly #options: FramePacerOptions;
  readonly #queue: Queued[] = [];
  /** Index of the next item: the queue is compacted lazily, so a long utterance costs no array shifting. */
  #head = 0;
  #timer: ClockTimer | undefined;
  /** Clock time at which the next frame is due. */
  #dueMs = 0;
  /** Frames sent whose playing time has not ended yet: 0 or 1. */
  #playing = false;
  #stopped = false;
  /** Inside #tick: a `played` callback that enqueues more must not start a second tick. */
  #ticking = false;

  constructor(options: FramePacerOptions) {
    this.#options = options;
  }

  /** Frames waiting to leave. */
  get queuedFrames(): number {
    let frames = 0;
    for (let i = this.#head; i < this.#queue.length; i++) if (this.#queue[i]!.kind === 'frame') frames++;
    return frames;
  }

  enqueueFrames(frames: readonly Uint8Array[]): void {
    if (this.#stopped) return;
    for (const frame of frames) this.#queue.push({ kind: 'frame', frame });
    this.#wake();
  }

  enqueueMark(name: string): void {
    if (this.#stopped) return;
    this.#queue.push({ kind: 'mark', name });
    this.#wake();
  }

  /** Drops every frame and mark still waiting (the dropped marks are never acknowledged, like a provider's flush). */
  dropQueued(): void {
    this.#queue.length = 0;
    this.#head = 0;
  }

  /** The connection is gone: nothing more is sent or acknowledged. */
  stop(): void {
    this.#stopped = true;
    this.dropQueued();
    if (this.#timer) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #wake(): void {
    if (this.#timer !== undefined || this.#ticking) return;
    // Idle: the first frame leaves now, and the schedule starts from it.
    this.#dueMs = this.#options.clock.now();
    this.#tick();
  }

  #tick(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    this.#ticking = true;
    try {
      this.#sendDue();
    } finally {
      this.#ticking = false;
    }
  }

  #sendDue(): void {
    const { clock, frameMs } = this.#options;
    const now = clock.now();
    if (now - this.#dueMs > MAX_CATCH_UP_MS) this.#dueMs = now;
    // Every frame due by now leaves (normally one; two after a late timer of less than MAX_CATCH_UP_MS).
    while (this.#dueMs <= now) {
      // The frame sent in the previous slot has played: the marks right behind it are acknowledged.
      if (this.#playing) this.#acknowledgeMarks();
      const next = this.#queue[this.#head];
      if (next === undefined) {
        this.#playing = false;
        this.#compact();
        return;
      }
      this.#head++;
      // A mark with nothing playing before it (the first item after idle or a clear) is played already.
      if (next.kind === 'mark') {
        this.#options.played(next.name);
        continue;
      }
      this.#options.send(next.frame);
      this.#playing = true;
      this.#dueMs += frameMs;
    }
    if (this.#head > 1024) this.#compact();
    if (!this.#stopped) this.#timer = clock.setTimeout(() => this.#tick(), this.#dueMs - now);
  }

  #acknowledgeMarks(): void {
    while (this.#head < this.#queue.length) {
      const item = this.#queue[this.#head]!;
      if (item.kind !== 'mark') return;
      this.#head++;
      this.#options.played(item.name);
    }
  }

  #compact(): void {
    this.#queue.splice(0, this.#head);
    this.#head = 0;
  }
}
