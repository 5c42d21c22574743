// One stream of the model's windows over the caller's audio: samples are cut into fixed windows (starting
// `offsetSamples` into the call, so two streams can be staggered by half a window), near-silent windows are gated
// from the model, and every window is judged in order once its probability is known, whether the model answers at
// once or later (a batcher answering many calls' windows together).
// A stream `onDemand` runs the model only on the windows its owner asks for: each window is paired in order with one
// decide() of the owner, whichever comes first, and one not run is judged as unheard (null). A gated window is judged
// as always (0): it goes ahead of its decision when nothing before it waits, since it never needed the model.

import { pcm16Sample } from '../../audio/pcm.js';

/** A speech probability model over fixed windows, with per-stream recurrent state (Silero VAD implements it). */
export interface SpeechProbabilityModel {
  readonly windowSamples: number;
  readonly sampleRateHz: number;
  createStream(): SpeechProbabilityStream;
}

export interface SpeechProbabilityStream {
  /**
   * Asks for the probability in [0, 1] that `window` (windowSamples floats in [-1, 1]) is speech, advancing the
   * state; `answer` is called once, at once or later (a model that batches calls' windows), in request order.
   */
  score(window: Float32Array, answer: (probability: number) => void): void;
  /** A window not run through the model (gated): keeps any input context continuous. */
  skip(window: Float32Array): void;
  reset(): void;
}

const WINDOW_EPSILON_MS = 1e-6;

/**
 * A window waiting for its probability; windows are judged in order, so later answers wait for earlier ones.
 * `null`: an on-demand stream's window the owner did not ask the model about.
 */
interface ScoredWindow {
  readonly startMs: number;
  readonly atMs: number;
  probability: number | null | undefined;
}

export interface WindowCounts {
  windows: number;
  inferred: number;
  gated: number;
  /** On-demand streams: audible windows the owner did not ask for (not run, judged as unheard). */
  unheard: number;
}

/** `probability` null: the window was not run (an on-demand stream's owner said so). */
export type WindowJudge = (startMs: number, atMs: number, probability: number | null) => void;

export class VadWindowStream {
  readonly #window: Float32Array;
  readonly #windowMs: number;
  readonly #samplesPerMs: number;
  readonly #gateRms: number;
  #filled = 0;
  #skip: number;
  /** Call-clock time of window[0]. */
  #windowStartMs = 0;
  #stream: SpeechProbabilityStream | undefined;
  #gatedMs = 0;
  /** An audible window went unheard since the model last ran: the next run starts from a fresh state. */
  #stale = false;
  #closed = false;
  readonly #unjudged: ScoredWindow[] = [];
  /**
   * On demand: windows cut before their decision, in order: a copy of the samples while it waits, or none once it
   * went ahead (gated); `#waiting` counts the copies. Or, the other way round, decisions made before their window.
   */
  readonly #undecided: { readonly scored: ScoredWindow; window: Float32Array | undefined }[] = [];
  #waiting = 0;
  readonly #decisions: boolean[] = [];
  readonly counts: WindowCounts = { windows: 0, inferred: 0, gated: 0, unheard: 0 };

  constructor(
    private readonly model: () => SpeechProbabilityModel | undefined,
    private readonly judge: WindowJudge,
    private readonly geometry: { readonly windowSamples: number; readonly sampleRateHz: number; readonly offsetSamples: number },
    private readonly gate: { readonly energyGateDbfs: number; readonly gateResetMs: number },
    /** The model runs only on the windows the owner asks for (decide()). */
    private readonly onDemand = false,
  ) {
    this.#window = new Float32Array(geometry.windowSamples);
    this.#samplesPerMs = geometry.sampleRateHz / 1000;
    this.#windowMs = geometry.windowSamples / this.#samplesPerMs;
    this.#gateRms = 10 ** (gate.energyGateDbfs / 20);
    this.#skip = geometry.offsetSamples;
  }

  get windowMs(): number {
    return this.#windowMs;
  }

  /** Windows cut but not judged yet: the model has not answered (a batch in flight, a loaded machine). */
  get pending(): number {
    return this.#unjudged.length;
  }

  /**
   * On demand: whether the model runs on the next window not yet decided (this stream's windows in order, cut or
   * still to come). A gated window is judged 0 either way.
   */
  decide(run: boolean): void {
    if (this.#closed) return;
    const next = this.#undecided.shift();
    if (next === undefined) {
      this.#decisions.push(run);
      return;
    }
    if (next.window !== undefined) {
      this.#waiting--;
      this.#run(next.scored, next.window, this.#rms(next.window), run);
      // Gated windows that waited behind it go ahead now.
      for (const later of this.#undecided) {
        if (later.window === undefined) continue;
        const rms = this.#rms(later.window);
        if (!this.#gated(rms)) break;
        this.#run(later.scored, later.window, rms, false);
        later.window = undefined;
        this.#waiting--;
      }
    }
    this.#judgeAnswered();
  }

  /** One frame of PCM scaled to [-1, 1) that arrived at `atMs`, i.e. when its last sample was spoken. */
  push(pcm: Int16Array, atMs: number): void {
    if (this.#closed) return;
    // Sample i was spoken at atMs - (length - i) / rate. Windows straddle frames, so a window's start comes from
    // the frame holding it.
    let offset = Math.min(this.#skip, pcm.length);
    this.#skip -= offset;
    while (offset < pcm.length) {
      if (this.#filled === 0) this.#windowStartMs = atMs - (pcm.length - offset) / this.#samplesPerMs;
      const take = Math.min(this.#window.length - this.#filled, pcm.length - offset);
      for (let i = 0; i < take; i++) this.#window[this.#filled + i] = pcm16Sample(pcm[offset + i]!);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.#window.length) {
        this.#filled = 0;
        this.#cut({ startMs: this.#windowStartMs, atMs, probability: undefined });
      }
    }
  }

  reset(): void {
    this.#filled = 0;
    this.#skip = this.geometry.offsetSamples;
    this.#gatedMs = 0;
    this.#stale = false;
    // Answers still to come for the dropped windows find nothing to judge.
    this.#unjudged.length = 0;
    this.#undecided.length = 0;
    this.#waiting = 0;
    this.#decisions.length = 0;
    this.#stream?.reset();
  }

  close(): void {
    this.#closed = true;
    this.#unjudged.length = 0;
    this.#undecided.length = 0;
    this.#waiting = 0;
    this.#decisions.length = 0;
    this.#stream = undefined;
  }

  /** A window is cut: it is run (or gated) now, or, on demand, once its decision is known. */
  #cut(scored: ScoredWindow): void {
    this.#unjudged.push(scored);
    const window = this.#window;
    const rms = this.#rms(window);
    if (!this.onDemand) this.#run(scored, window, rms, true);
    else if (this.#decisions.length > 0) this.#run(scored, window, rms, this.#decisions.shift()!);
    else if (this.#waiting === 0 && this.#gated(rms)) {
      // Silence needs no decision: judged now, its decision (when it comes) changes nothing.
      this.#run(scored, window, rms, false);
      this.#undecided.push({ scored, window: undefined });
    } else {
      // The window buffer is refilled by the next samples: a window that waits keeps a copy.
      this.#undecided.push({ scored, window: window.slice() });
      this.#waiting++;
    }
    this.#judgeAnswered();
  }

  #rms(window: Float32Array): number {
    let energy = 0;
    for (let i = 0; i < window.length; i++) energy += window[i]! * window[i]!;
    return Math.sqrt(energy / window.length);
  }

  /** The gate keeps the window from the model (or there is no model yet): it counts as silence. */
  #gated(rms: number): boolean {
    return rms < this.#gateRms || this.#acquireStream() === undefined;
  }

  /**
   * Asks for the window's probability (0 when the gate keeps it from the model; null when `run` is false), then
   * judges what is answered. Windows reach the model's stream in order, so its context stays continuous.
   */
  #run(scored: ScoredWindow, window: Float32Array, rms: number, run: boolean): void {
    const stream = this.#acquireStream();
    if (rms < this.#gateRms || stream === undefined) {
      this.counts.gated++;
      this.#gatedMs += this.#windowMs;
      stream?.skip(window);
      scored.probability = 0;
    } else if (!run) {
      // Audible but not asked for: the model's state misses this window, so the next run starts afresh.
      this.counts.unheard++;
      this.#gatedMs = 0;
      this.#stale = true;
      stream.skip(window);
      scored.probability = null;
    } else {
      if (this.#stale || this.#gatedMs + WINDOW_EPSILON_MS >= this.gate.gateResetMs) stream.reset();
      this.#gatedMs = 0;
      this.#stale = false;
      this.counts.inferred++;
      stream.score(window, (probability) => {
        scored.probability = probability;
        this.#judgeAnswered();
      });
    }
  }

  /** Judges the answered windows at the head of the queue, in order. */
  #judgeAnswered(): void {
    while (this.#unjudged.length > 0 && this.#unjudged[0]!.probability !== undefined) {
      const scored = this.#unjudged.shift()!;
      this.counts.windows++;
      if (!this.#closed) this.judge(scored.startMs, scored.atMs, scored.probability as number | null);
    }
  }

  #acquireStream(): SpeechProbabilityStream | undefined {
    // Before the model has loaded the detector hears nothing; readiness (factory.ready()) should gate calls.
    if (this.#stream === undefined) this.#stream = this.model()?.createStream();
    return this.#stream;
  }
}
