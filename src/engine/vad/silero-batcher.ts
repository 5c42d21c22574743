// Silero windows of every call on the process, run as one batch: the windows that arrive while the event loop
// handles one round of socket reads are scored together in the check phase right after it (setImmediate), in
// one inference. With few calls a batch is one window and nothing waits; under load the batches grow with the
// load, and the cost per window falls about fourfold (silero-vad.ts `inferBatch`). Answers come back in request
// order per stream, all of one batch within the same turn of the event loop.
// Inferences run at most every MIN_INFERENCE_INTERVAL_MS: a window asked for sooner after the last one waits for the
// rest of that interval, with every other window that arrives meanwhile. An inference has a fixed cost of ~0.15 ms
// whatever its size, and at 48 talking calls the turns held ~3 windows each, so most of Silero's time was that
// fixed cost. A quiet process (one call: a window every 16 ms) never waits.

import { checkWindow, SILERO_WINDOW_SAMPLES, type SileroJob, type SileroVad } from './silero-vad.js';

/**
 * At most this long added to a window's answer (barge-in's clock is the caller's audio as judged, so it only moves
 * a hold a few ms later in real time): inferences at most 250 times a second, whatever the number of calls.
 */
export const MIN_INFERENCE_INTERVAL_MS = 4;

export interface SileroBatcherOptions {
  /** Called when an inference fails: its windows are answered 0 (not speech) so no call stalls. */
  readonly onError?: (error: unknown) => void;
  /** The shortest time between two inferences (ms); 0: every turn that asked runs one. */
  readonly minIntervalMs?: number;
  /** Monotonic milliseconds (performance.now). */
  readonly now?: () => number;
}

type Operation = { readonly kind: 'score'; readonly input: Float32Array; readonly answer: (probability: number) => void } | { readonly kind: 'reset' };

/** One call's stream: what it asked for, in order, and its recurrent state. */
interface Pending {
  readonly state: Float32Array;
  readonly operations: Operation[];
}

export interface BatchedSpeechStream {
  /** Scores `window` with the next batch; `answer` gets its speech probability (0 once the model is closed). */
  score(window: Float32Array, answer: (probability: number) => void): void;
  /** A window not run through the model: keeps the v5 context continuous. */
  skip(window: Float32Array): void;
  /** Back to a fresh stream, after the windows already asked for. */
  reset(): void;
}

export class SileroBatcher {
  readonly windowSamples = SILERO_WINDOW_SAMPLES;
  readonly sampleRateHz: number;
  /** Streams with operations waiting, in the order they first asked. */
  readonly #waiting = new Set<Pending>();
  #scheduled = false;
  #batches = 0;
  #windows = 0;
  readonly #onError: (error: unknown) => void;
  readonly #minIntervalMs: number;
  readonly #now: () => number;
  /** When the last inference began. */
  #lastFlushMs = -Infinity;

  constructor(
    private readonly vad: SileroVad,
    options: SileroBatcherOptions = {},
  ) {
    this.sampleRateHz = vad.sampleRateHz;
    this.#onError = options.onError ?? (() => undefined);
    this.#minIntervalMs = options.minIntervalMs ?? MIN_INFERENCE_INTERVAL_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Windows asked for and not answered yet. */
  get waiting(): number {
    let windows = 0;
    for (const pending of this.#waiting) for (const operation of pending.operations) if (operation.kind === 'score') windows++;
    return windows;
  }

  /** Inferences run and windows scored so far (the mean batch size is their ratio). */
  get stats(): { readonly batches: number; readonly windows: number } {
    return { batches: this.#batches, windows: this.#windows };
  }

  createStream(): BatchedSpeechStream {
    const contextSamples = this.vad.contextSamples;
    const context = new Float32Array(contextSamples);
    const pending: Pending = { state: this.vad.createState(), operations: [] };
    const keepContext = (window: Float32Array): void => {
      if (contextSamples > 0) context.set(window.subarray(window.length - contextSamples));
    };
    return {
      score: (window, answer) => {
        checkWindow(window);
        // The input is fixed now, with the context as it stands after the windows before it.
        const input = new Float32Array(contextSamples + window.length);
        input.set(context);
        input.set(window, contextSamples);
        keepContext(window);
        this.#enqueue(pending, { kind: 'score', input, answer });
      },
      skip: (window) => {
        checkWindow(window);
        keepContext(window);
      },
      reset: () => {
        context.fill(0);
        if (pending.operations.length === 0) pending.state.fill(0);
        else this.#enqueue(pending, { kind: 'reset' });
      },
    };
  }

  #enqueue(pending: Pending, operation: Operation): void {
    pending.operations.push(operation);
    this.#waiting.add(pending);
    if (this.#scheduled) return;
    this.#scheduled = true;
    const waitMs = this.#lastFlushMs + this.#minIntervalMs - this.#now();
    if (waitMs > 0) setTimeout(() => this.#flush(), waitMs);
    else setImmediate(() => this.#flush());
  }

  /** Rounds of one window per waiting stream (a stream's windows depend on each other) until nothing waits. */
  #flush(): void {
    this.#scheduled = false;
    this.#lastFlushMs = this.#now();
    while (this.#waiting.size > 0) {
      const jobs: SileroJob[] = [];
      const answers: ((probability: number) => void)[] = [];
      for (const pending of this.#waiting) {
        let next = pending.operations.shift();
        while (next?.kind === 'reset') {
          pending.state.fill(0);
          next = pending.operations.shift();
        }
        if (next) {
          jobs.push({ input: next.input, state: pending.state });
          answers.push(next.answer);
        }
        if (pending.operations.length === 0) this.#waiting.delete(pending);
      }
      if (jobs.length === 0) continue;
      let probabilities: Float32Array;
      try {
        probabilities = this.vad.inferBatch(jobs);
      } catch (error) {
        this.#onError(error);
        probabilities = new Float32Array(jobs.length);
      }
      this.#batches++;
      this.#windows += jobs.length;
      // An answer may end a call or reset its stream; that only adds operations for a later round.
      answers.forEach((answer, i) => answer(probabilities[i]!));
    }
  }
}
