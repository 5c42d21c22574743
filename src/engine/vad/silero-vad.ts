// Silero VAD on onnxruntime-node: one session per process, loaded and warmed once, shared by every call; each call
// gets a SileroStream that owns its recurrent state (v5 `state` [2,1,128] or legacy `h`/`c` [2,1,64]) and, for v5,
// the 32-sample context that the model expects in front of every 256-sample window at 8 kHz.
//
// Where it runs: on the event-loop thread, synchronously. bench/vad.ts measured 91 µs p50 / 128 µs p95 per 32 ms
// window on one thread of a 2-core EPYC, ~0.3% of a core per talking caller; the energy gate keeps silent windows
// from the model, so a quiet line costs ~6 µs a frame. A worker would add a message round trip per window for nothing.

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

  createStream(): SileroStream {
    if (this.closed) throw new Error('Silero VAD is closed');
    return this.variant === 'v5' ? this.v5Stream() : this.legacyStream();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.session.dispose();
  }

  private v5Stream(): SileroStream {
    const state = new Float32Array(V5_STATE_SIZE);
    // [context | window]; the context part is the tail of the previous window.
    const input = new Float32Array(V5_CONTEXT_SAMPLES + SILERO_WINDOW_SAMPLES);
    const keepContext = (window: Float32Array): void => {
      input.set(window.subarray(window.length - V5_CONTEXT_SAMPLES), 0);
    };
    return {
      probability: (window) => {
        checkWindow(window);
        if (this.closed) return 0;
        input.set(window, V5_CONTEXT_SAMPLES);
        const out = this.session.run({
          input: new Tensor('float32', input, [1, input.length]),
          state: new Tensor('float32', state, [2, 1, 128]),
          sr: this.sr,
        });
        state.set(out.stateN!.data as Float32Array);
        keepContext(window);
        return (out.output!.data as Float32Array)[0]!;
      },
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

  private legacyStream(): SileroStream {
    const h = new Float32Array(LEGACY_STATE_SIZE);
    const c = new Float32Array(LEGACY_STATE_SIZE);
    return {
      probability: (window) => {
        checkWindow(window);
        if (this.closed) return 0;
        const out = this.session.run({
          input: new Tensor('float32', window, [1, window.length]),
          sr: this.sr,
          h: new Tensor('float32', h, [2, 1, 64]),
          c: new Tensor('float32', c, [2, 1, 64]),
        });
        h.set(out.hn!.data as Float32Array);
        c.set(out.cn!.data as Float32Array);
        return (out.output!.data as Float32Array)[0]!;
      },
      skip: (window) => checkWindow(window),
      reset: () => {
        h.fill(0);
        c.fill(0);
      },
    };
  }
}

function checkWindow(window: Float32Array): void {
  if (window.length !== SILERO_WINDOW_SAMPLES) throw new RangeError(`Silero window must be ${SILERO_WINDOW_SAMPLES} samples, got ${window.length}`);
}
