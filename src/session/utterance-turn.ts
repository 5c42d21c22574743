// One `text` turn on the wire: pulls encoded audio from the utterance, cuts it into frames and sends them,
// pausing (and so pausing synthesis) while the sink's buffer is above the high-water mark. Aborting the turn
// stops sending at once: no frame leaves after `abort()` returns. Phone calls add a TurnPlayout: whole padded
// frames, paced against the playout clock, and a report after each chunk so the call can mark it. A WebSocket that
// asked for word timings gets each chunk's words once its frames have left.

import type { Ticket } from '../core/admission.js';
import type { Utterance } from '../core/synthesis/utterance.js';
import { sleep, type Clock } from './clock.js';
import { framesOf, type FramePlan } from './frame-plan.js';
import type { SessionSink } from './session-sink.js';
import type { WordTimingsReport } from './word-timings-report.js';

export interface BackpressureOptions {
  /** Pull no more audio while the sink holds more than this many unsent bytes. */
  readonly highWaterBytes: number;
  readonly pollMs: number;
  /** Above the mark with no drain at all for this long: the client is not reading. */
  readonly stallTimeoutMs: number;
}

/** Paced, chunk-marked delivery (phone calls); /v1/tts/websocket sends as fast as the socket drains. */
export interface TurnPlayout {
  /** The last frame of each piece is padded to a whole frame with this byte (mu-law silence), as the provider needs. */
  readonly padByte: number;
  /** Resolves when `ms` more audio may leave without running further ahead of real time than allowed. */
  waitForRoom(ms: number, signal: AbortSignal): Promise<void>;
  /** One frame of `ms` was handed to the sink. */
  sent(ms: number): void;
  /** Every chunk up to index `lastChunk` has been sent; `final` once the whole utterance has. Never after abort. */
  chunksSent(lastChunk: number, final: boolean): void;
  /** The turn ended without its final report and not by abort (engine failure, stall): nothing more will be sent. */
  abandoned(): void;
}

export type TurnOutcome =
  | { readonly kind: 'completed' }
  | { readonly kind: 'aborted'; readonly reason: unknown }
  | { readonly kind: 'stalled' }
  | { readonly kind: 'failed'; readonly error: unknown };

export class UtteranceTurn {
  readonly #controller = new AbortController();
  #sentMs = 0;
  #audioDone = false;
  #replyClaimed = false;

  constructor(
    readonly utterance: Utterance,
    /** The credit reservation of this text (no slot). */
    readonly credits: Ticket,
    readonly codePoints: number,
    private readonly plan: FramePlan,
    private readonly sink: SessionSink,
    private readonly clock: Clock,
    private readonly backpressure: BackpressureOptions,
    private readonly playout?: TurnPlayout,
    private readonly words?: WordTimingsReport,
  ) {}

  /** Milliseconds of audio handed to the sink so far. */
  get sentMs(): number {
    return this.#sentMs;
  }

  /** True once every frame has been sent: a cancel arriving now is too late to stop anything. */
  get audioDone(): boolean {
    return this.#audioDone;
  }

  get aborted(): boolean {
    return this.#controller.signal.aborted;
  }

  abort(reason: string): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  /**
   * The one right to answer this turn (`end_of_utterance`, `cancellation` or a failure): the natural end,
   * a cancel and a close race for it, and exactly one wins.
   */
  claimReply(): boolean {
    if (this.#replyClaimed) return false;
    this.#replyClaimed = true;
    return true;
  }

  async run(): Promise<TurnOutcome> {
    const signal = this.#controller.signal;
    const { playout } = this;
    let pieceStartMs = 0;
    const lastChunk = this.utterance.chunks.length - 1;
    let markedUpTo = -1;
    const pieces = this.utterance.audio(signal);
    let next = pieces.next();
    try {
      for (;;) {
        const result = await next;
        if (result.done) break;
        const piece = result.value;
        // Read before the next piece is pulled: pulling advances the utterance's counters.
        const pieceMs = this.utterance.durationMs - pieceStartMs;
        pieceStartMs = this.utterance.durationMs;
        // The chunk this piece completes (a lead of pauses belongs to the silent chunks before it).
        const chunksDone = this.utterance.chunksDone;
        const chunk = Math.max(0, chunksDone - 1);
        // Paced playout pulls the next piece now, so it is shaped and resampled while this one plays rather than at
        // the last moment (where several calls' chunks would queue up on the event loop and starve the playout).
        if (playout) next = guarded(pieces.next());
        for (const frame of framesOf(piece, pieceMs, this.plan)) {
          if (!(await this.#waitForRoom(signal))) {
            playout?.abandoned();
            return { kind: 'stalled' };
          }
          const out = playout ? padFrame(frame, this.plan.frameBytes, playout.padByte) : frame;
          if (playout) await playout.waitForRoom(out.ms, signal);
          if (signal.aborted) return { kind: 'aborted', reason: signal.reason };
          this.sink.sendAudio(out.bytes);
          this.#sentMs += out.ms;
          playout?.sent(out.ms);
        }
        if (signal.aborted) return { kind: 'aborted', reason: signal.reason };
        this.words?.sent(chunksDone);
        // The last chunk is reported once the encoder tail has gone too, as the final report below.
        if (playout && chunk > markedUpTo && chunk < lastChunk) {
          if (signal.aborted) return { kind: 'aborted', reason: signal.reason };
          playout.chunksSent(chunk, false);
          markedUpTo = chunk;
        }
        if (!playout) next = pieces.next();
      }
      if (signal.aborted) return { kind: 'aborted', reason: signal.reason };
      // Trailing silent chunks count as sent too: the final report covers every chunk.
      playout?.chunksSent(lastChunk, true);
      this.words?.sent(lastChunk + 1);
      this.#audioDone = true;
      return { kind: 'completed' };
    } catch (error) {
      if (signal.aborted) return { kind: 'aborted', reason: signal.reason };
      playout?.abandoned();
      return { kind: 'failed', error };
    } finally {
      // Stopping early drops the utterance's prefetched chunk (its engine job is abandoned).
      void pieces.return(undefined).catch(() => undefined);
    }
  }

  /** False when the client made no progress reading for the stall timeout; true otherwise (or when aborted). */
  async #waitForRoom(signal: AbortSignal): Promise<boolean> {
    const { highWaterBytes, pollMs, stallTimeoutMs } = this.backpressure;
    let lowest = this.sink.bufferedBytes();
    if (lowest <= highWaterBytes) return true;
    let progressAtMs = this.clock.now();
    while (!signal.aborted) {
      await sleep(this.clock, pollMs, signal);
      const buffered = this.sink.bufferedBytes();
      if (buffered <= highWaterBytes) return true;
      if (buffered < lowest) {
        lowest = buffered;
        progressAtMs = this.clock.now();
      } else if (this.clock.now() - progressAtMs >= stallTimeoutMs) {
        return false;
      }
    }
    return true;
  }
}

/** A prefetched pull whose result may never be awaited (the turn stopped first): its failure is not "unhandled". */
function guarded<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** A short last frame grown to a whole frame of silence, its duration scaled with it (exact for mu-law and PCM). */
function padFrame(frame: { bytes: Uint8Array; ms: number }, frameBytes: number, padByte: number): { bytes: Uint8Array; ms: number } {
  const { bytes } = frame;
  if (bytes.length === 0 || bytes.length % frameBytes === 0) return frame;
  const padded = new Uint8Array(Math.ceil(bytes.length / frameBytes) * frameBytes).fill(padByte);
  padded.set(bytes);
  return { bytes: padded, ms: (frame.ms * padded.length) / bytes.length };
}
