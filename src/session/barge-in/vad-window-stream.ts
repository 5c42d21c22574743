// One stream of the model's windows over the caller's audio: samples are cut into fixed windows (starting
// `offsetSamples` into the call, so two streams can be staggered by half a window), near-silent windows are gated
// from the model, and every window is judged in order once its probability is known, whether the model answers at
// once or later (a batcher answering many calls' windows together).

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

/** A window waiting for its probability; windows are judged in order, so later answers wait for earlier ones. */
interface ScoredWindow {
  readonly startMs: number;
  readonly atMs: number;
  probability: number | undefined;
}

export interface WindowCounts {
  windows: number;
  inferred: number;
  gated: number;
}

export type WindowJudge = (startMs: number, atMs: number, probability: number) => void;

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
  #closed = false;
  readonly #unjudged: ScoredWindow[] = [];
  readonly counts: WindowCounts = { windows: 0, inferred: 0, gated: 0 };

  constructor(
    private readonly model: () => SpeechProbabilityModel | undefined,
    private readonly judge: WindowJudge,
    private readonly geometry: { readonly windowSamples: number; readonly sampleRateHz: number; readonly offsetSamples: number },
    private readonly gate: { readonly energyGateDbfs: number; readonly gateResetMs: number },
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
        this.#score({ startMs: this.#windowStartMs, atMs, probability: undefined });
      }
    }
  }

  reset(): void {
    this.#filled = 0;
    this.#skip = this.geometry.offsetSamples;
    this.#gatedMs = 0;
    // Answers still to come for the dropped windows find nothing to judge.
    this.#unjudged.length = 0;
    this.#stream?.reset();
  }

  close(): void {
    this.#closed = true;
    this.#unjudged.length = 0;
    this.#stream = undefined;
  }

  /** Asks for the current window's probability (0 when the gate keeps it from the model), then judges what is answered. */
  #score(scored: ScoredWindow): void {
    this.#unjudged.push(scored);
    const window = this.#window;
    let energy = 0;
    for (let i = 0; i < window.length; i++) energy += window[i]! * window[i]!;
    const rms = Math.sqrt(energy / window.length);
    const stream = this.#acquireStream();
    if (rms < this.#gateRms || stream === undefined) {
      this.counts.gated++;
      this.#gatedMs += this.#windowMs;
      stream?.skip(window);
      scored.probability = 0;
    } else {
      if (this.#gatedMs + WINDOW_EPSILON_MS >= this.gate.gateResetMs) stream.reset();
      this.#gatedMs = 0;
      this.counts.inferred++;
      stream.score(window, (probability) => {
        scored.probability = probability;
        this.#judgeAnswered();
      });
    }
    this.#judgeAnswered();
  }

  /** Judges the answered windows at the head of the queue, in order. */
  #judgeAnswered(): void {
    while (this.#unjudged.length > 0 && this.#unjudged[0]!.probability !== undefined) {
      const scored = this.#unjudged.shift()!;
      this.counts.windows++;
      if (!this.#closed) this.judge(scored.startMs, scored.atMs, scored.probability!);
    }
  }

  #acquireStream(): SpeechProbabilityStream | undefined {
    // Before the model has loaded the detector hears nothing; readiness (factory.ready()) should gate calls.
    if (this.#stream === undefined) this.#stream = this.model()?.createStream();
    return this.#stream;
  }
}
