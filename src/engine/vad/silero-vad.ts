// Silero VAD on onnxruntime-node: one session per process, loaded and warmed once, shared by every call; each call
// gets a SileroStream that owns its recurrent state (v5 `state` [2,1,128] or legacy `h`/`c` [2,1,64]) and, for v5,
// the 32-sample context that the model expects in front of every 256-sample window at 8 kHz.
//
// Where it runs: on the event-loop thread, synchronously. One window alone costs ~0.15 ms (bench/vad.ts); the
// windows of many calls run as one batch (`inferBatch`, silero-batcher.ts) at ~0.035 ms each, about a quarter. The
// energy gate keeps silent windows from the model, so a quiet line costs ~6 µs a frame. At 150 talking callers the
// batches are still a quarter of the event loop's busy time (docs/notes/performance-history.md): a thread of their own is the
// next step, now that the detector takes its answers asynchronously.

import { Tensor } from 'onnxruntime-node';
import { OrtSyncSession } from './ort-sync-session.js';
import { sileroModelPath, type SileroVariant } from './silero-model-file.js';

export const SILERO_SAMPLE_RATE_HZ = 8000;
/** Samples per window at 8 kHz (32 ms); the only size Silero v5 accepts at this rate. */
export const SILERO_WINDOW_SAMPLES = 256;
/** v5 at 8 kHz prepends the last 32 samples of the previous window (upstream OnnxWrapper: 64 at 16 kHz, 32 at 8 kHz). */
const V5_CONTEXT_SAMPLES = 32;
const V5_STATE_SIZE = 2 * 1 * 128;
const LEGACY_STATE_SIZE = 2 * 1 * 64;
const WARM_UP_WINDOWS = 8;

export interface SileroVadOptions {
  readonly variant?: SileroVariant;
  /** Overrides the packaged model (tests, or a newer Silero file with the same inputs). */
  readonly modelPath?: string;
}

/** Per-call recurrent state over the shared session. Not thread-safe; one caller stream each. */
export interface SileroStream {
  /** Speech probability in [0, 1] for one window of SILERO_WINDOW_SAMPLES float samples at 8 kHz; 0 once the
   * model is closed (frames still arriving during shutdown must not throw in the call's message handler). */
  probability(window: Float32Array): number;
  /** The same answer through a callback, at once (the detector's SpeechProbabilityStream). */
  score(window: Float32Array, answer: (probability: number) => void): void;
  /** A window the caller chose not to run (energy gate): keeps the v5 context continuous without inference. */
  skip(window: Float32Array): void;
  /** Back to the state of a fresh stream (new utterance, or a long gated stretch). */
  reset(): void;
}

export class SileroVad {
  readonly windowSamples = SILERO_WINDOW_SAMPLES;
  readonly sampleRateHz = SILERO_SAMPLE_RATE_HZ;
  private readonly sr = new Tensor('int64', BigInt64Array.of(BigInt(SILERO_SAMPLE_RATE_HZ)), []);
  private closed = false;
  /** Mean time of one warm-up window, for readiness logs. */
  private warmUpWindowMs = 0;

  private constructor(
    private readonly session: OrtSyncSession,
    readonly variant: SileroVariant,
    readonly modelPath: string,
  ) {}

  get warmUpMs(): number {
    return this.warmUpWindowMs;
  }

  /** Loads the model, checks its inputs against the variant, and warms it up. */
  static async load(options: SileroVadOptions = {}): Promise<SileroVad> {
    const variant = options.variant ?? 'v5';
    const modelPath = options.modelPath ?? sileroModelPath(variant);
    // Yield once so callers that kick off loading during startup are not blocked in the same tick.
    await new Promise((resolve) => setImmediate(resolve));
    const session = OrtSyncSession.load(modelPath, {
      // A 2 MB recurrent model: one thread is fastest (no pool wake-ups) and leaves cores to synthesis.
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
    const inputs = variant === 'v5' ? ['input', 'state', 'sr'] : ['input', 'sr', 'h', 'c'];
    const outputs = variant === 'v5' ? ['output', 'stateN'] : ['output', 'hn', 'cn'];
    const missing = [
      ...inputs.filter((name) => !session.inputNames.includes(name)).map((name) => `input ${name}`),
      ...outputs.filter((name) => !session.outputNames.includes(name)).map((name) => `output ${name}`),
    ];
    if (missing.length > 0) {
      session.dispose();
      throw new Error(`${modelPath}: not a Silero ${variant} model: lacks ${missing.join(', ')} (inputs ${session.inputNames.join(', ')})`);
    }
    const vad = new SileroVad(session, variant, modelPath);
    const started = performance.now();
    const stream = vad.createStream();
    const window = new Float32Array(SILERO_WINDOW_SAMPLES);
    for (let i = 0; i < WARM_UP_WINDOWS; i++) {
      for (let j = 0; j < window.length; j++) window[j] = 0.05 * Math.sin((i * window.length + j) * 0.2);
      const p = stream.probability(window);
      if (!(p >= 0 && p <= 1)) throw new Error(`${modelPath}: warm-up returned probability ${p}`);
    }
    vad.warmUpWindowMs = (performance.now() - started) / WARM_UP_WINDOWS;
    return vad;
  }

  /** Samples of the previous window the model expects in front of each window (v5: 32 at 8 kHz; legacy: none). */
  get contextSamples(): number {
    return this.variant === 'v5' ? V5_CONTEXT_SAMPLES : 0;
  }

  /** A fresh recurrent state for one stream (v5 `state`, or legacy `h` then `c`), for `inferBatch`. */
  createState(): Float32Array {
    return new Float32Array(this.variant === 'v5' ? V5_STATE_SIZE : 2 * LEGACY_STATE_SIZE);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.session.dispose();
  }

  /** A stream answered on this thread, window by window. */
  createStream(): SileroStream {
    if (this.closed) throw new Error('Silero VAD is closed');
    const context = this.contextSamples;
    const state = this.createState();
    // [context | window]; the context part is the tail of the previous window.
    const input = new Float32Array(context + SILERO_WINDOW_SAMPLES);
    const keepContext = (window: Float32Array): void => {
      if (context > 0) input.set(window.subarray(window.length - context), 0);
    };
    const probability = (window: Float32Array): number => {
      checkWindow(window);
      input.set(window, context);
      const [p] = this.inferBatch([{ input, state }]);
      keepContext(window);
      return p!;
    };
    return {
      probability,
      score: (window, answer) => answer(probability(window)),
      skip: (window) => {
        checkWindow(window);
        keepContext(window);
      },
      reset: () => {
        state.fill(0);
        input.fill(0);
      },
    };
  }

  /**
   * One inference over windows of distinct streams (batch dimension N): each job's `input` is its context plus
   * window, and its `state` (from `createState`) is read and then replaced by the next state. Batching is
   * exact (every row is what a run of its own gives) and per window several times cheaper than one run each
   * (bench/vad.ts). All zeros once the model is closed: frames still arriving during shutdown must not throw.
   */
  inferBatch(jobs: readonly SileroJob[]): Float32Array {
    const n = jobs.length;
    if (n === 0 || this.closed) return new Float32Array(n);
    const inputLength = this.contextSamples + SILERO_WINDOW_SAMPLES;
    const input = new Float32Array(n * inputLength);
    jobs.forEach((job, b) => {
      if (job.input.length !== inputLength) throw new RangeError(`Silero input must be ${inputLength} samples, got ${job.input.length}`);
      input.set(job.input, b * inputLength);
    });
    if (this.variant === 'v5') {
      // state [2, N, 128]: layer l of stream b at (l * N + b) * 128.
      const state = interleave(jobs, n, 2, 128, 0);
      const out = this.session.run({ input: new Tensor('float32', input, [n, inputLength]), state: new Tensor('float32', state, [2, n, 128]), sr: this.sr });
      deinterleave(out.stateN!.data as Float32Array, jobs, n, 2, 128, 0);
      return out.output!.data as Float32Array;
    }
    // legacy: h and c [2, N, 64] each; a job's state is h then c.
    const h = interleave(jobs, n, 2, 64, 0);
    const c = interleave(jobs, n, 2, 64, LEGACY_STATE_SIZE);
    const out = this.session.run({
      input: new Tensor('float32', input, [n, inputLength]),
      sr: this.sr,
      h: new Tensor('float32', h, [2, n, 64]),
      c: new Tensor('float32', c, [2, n, 64]),
    });
    deinterleave(out.hn!.data as Float32Array, jobs, n, 2, 64, 0);
    deinterleave(out.cn!.data as Float32Array, jobs, n, 2, 64, LEGACY_STATE_SIZE);
    return out.output!.data as Float32Array;
  }
}

/** One stream's window in a batch: its model input and its recurrent state (updated in place). */
export interface SileroJob {
  readonly input: Float32Array;
  readonly state: Float32Array;
}

/** Per-stream state slices ([layers, 1, width] each, at `offset`) laid out as [layers, N, width]. */
function interleave(jobs: readonly SileroJob[], n: number, layers: number, width: number, offset: number): Float32Array {
  const out = new Float32Array(layers * n * width);
  jobs.forEach((job, b) => {
    for (let l = 0; l < layers; l++) out.set(job.state.subarray(offset + l * width, offset + (l + 1) * width), (l * n + b) * width);
  });
  return out;
}

function deinterleave(batched: Float32Array, jobs: readonly SileroJob[], n: number, layers: number, width: number, offset: number): void {
  jobs.forEach((job, b) => {
    for (let l = 0; l < layers; l++) job.state.set(batched.subarray((l * n + b) * width, (l * n + b + 1) * width), offset + l * width);
  });
}

export function checkWindow(window: Float32Array): void {
  if (window.length !== SILERO_WINDOW_SAMPLES) throw new RangeError(`Silero window must be ${SILERO_WINDOW_SAMPLES} samples, got ${window.length}`);
}
