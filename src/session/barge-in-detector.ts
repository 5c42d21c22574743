// The caller's voice activity on a phone call: inbound 8 kHz mu-law frames in, `speech_started` / `speech_stopped`
// out (barge-in-contract.ts). Frames are cut into the model's 32 ms windows; an energy gate skips near-silent windows,
// a speech probability with hysteresis marks speech, and speech only counts after DEFAULT_MIN_SPEECH_MS of it.
// The probability model (Silero VAD, src/engine/vad/) is passed in, so this file knows no onnxruntime.

import { mulawToPcm16 } from '../audio/mulaw.js';
import type { VoiceActivityDetector, VoiceActivityDetectorFactory, VoiceActivityEvent } from './barge-in-contract.js';

/**
 * Speech must last 250 ms (of 32 ms windows at or above the stop threshold) before it is a barge-in.
 * Why 250: pipecat starts at 200 ms and callers still complain that "hmm"/"haan" cut the bot off; LiveKit's 500 ms
 * draws "barge-in is slow" complaints. Measured with bench/vad.ts (eSpeak voices, 8 kHz mu-law, Silero v5) over 10
 * quick backchannels ("हाँ", "haan", "hmm", "ok", "अच्छा", "हाँ जी") and 8 one-word-or-more interruptions ("रुको",
 * "नहीं", "stop", "wait", sentences): at 200 ms 5/10 fillers interrupt, at 250 ms 3/10 (a 1.5x "hm", "हाँ जी" and a
 * full-length "अच्छा") with 8/8 interruptions caught, at 300 ms 1/10 but only 5/8 interruptions ("stop" is missed).
 * Sentences are confirmed ~350 ms (p50) after their first audible sample. Duration alone cannot tell a drawn-out
 * "hmmm" from "stop": calls that need more tolerance raise minSpeechMs (BargeInSettings).
 */
export const DEFAULT_MIN_SPEECH_MS = 250;

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

export interface BargeInDetectorTuning {
  /** Probability at which speech begins (Silero's own default). */
  readonly startThreshold: number;
  /** Probability under which speech has paused; lower than start so a wobbling probability does not flap. */
  readonly stopThreshold: number;
  /** Silence that ends speech (`speech_stopped`); shorter would split words at stop consonants and commas. */
  readonly hangoverMs: number;
  /** A pause longer than this before speech is confirmed drops the candidate ("mostly continuous" speech). */
  readonly maxOnsetGapMs: number;
  /** Windows whose RMS is below this (dBFS) never reach the model and count as silence. */
  readonly energyGateDbfs: number;
  /** After this long gated, the model state restarts so the next onset is judged as at the start of a stream. */
  readonly gateResetMs: number;
}

export const DEFAULT_BARGE_IN_TUNING: BargeInDetectorTuning = {
  startThreshold: 0.5,
  stopThreshold: 0.35,
  hangoverMs: 300,
  // Two windows: a stop consonant or the gap inside "रुको" is 32-64 ms; a pause between two fillers is longer.
  maxOnsetGapMs: 96,
  // PSTN idle noise sits near -60 dBFS after mu-law; soft speech stays above -45. At -50 the model never runs on a
  // quiet line, and anything louder (hum, street noise) is left to the model, which is what it is trained for.
  energyGateDbfs: -50,
  gateResetMs: 320,
};

export interface DetectorStats {
  /** Windows completed. */
  readonly windows: number;
  /** Windows that ran the model. */
  readonly inferred: number;
  /** Windows skipped by the energy gate. */
  readonly gated: number;
}

const WINDOW_EPSILON_MS = 1e-6;

/** A window waiting for its probability; windows are judged in order, so later answers wait for earlier ones. */
interface ScoredWindow {
  readonly startMs: number;
  readonly atMs: number;
  probability: number | undefined;
}

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'candidate'; readonly onsetMs: number; speechMs: number; gapMs: number }
  | { readonly kind: 'speaking'; readonly onsetMs: number; lastSpeechEndMs: number; silenceMs: number };

export class BargeInDetector implements VoiceActivityDetector {
  private readonly window: Float32Array;
  private readonly windowMs: number;
  private readonly samplesPerMs: number;
  private readonly gateRms: number;
  private filled = 0;
  /** Call-clock time of window[0]. */
  private windowStartMs = 0;
  private phase: Phase = { kind: 'idle' };
  private stream: SpeechProbabilityStream | undefined;
  private gatedMs = 0;
  private closed = false;
  private counts = { windows: 0, inferred: 0, gated: 0 };
  private readonly unjudged: ScoredWindow[] = [];

  constructor(
    private readonly onEvent: (event: VoiceActivityEvent) => void,
    private readonly model: () => SpeechProbabilityModel | undefined,
    private readonly minSpeechMs: number,
    private readonly tuning: BargeInDetectorTuning,
    windowSamples: number,
    sampleRateHz: number,
  ) {
    if (!(minSpeechMs >= 0)) throw new RangeError(`minSpeechMs must be >= 0, got ${minSpeechMs}`);
    this.window = new Float32Array(windowSamples);
    this.samplesPerMs = sampleRateHz / 1000;
    this.windowMs = windowSamples / this.samplesPerMs;
    this.gateRms = 10 ** (tuning.energyGateDbfs / 20);
  }

  get stats(): DetectorStats {
    return { ...this.counts };
  }

  /** True between `speech_started` and `speech_stopped`. */
  get speaking(): boolean {
    return this.phase.kind === 'speaking';
  }

  pushMulaw(frame: Uint8Array, atMs: number): void {
    if (this.closed || frame.length === 0) return;
    const pcm = mulawToPcm16(frame);
    // `atMs` is when the frame arrived, i.e. when its last sample was spoken: sample i was spoken at
    // atMs - (length - i) / rate. Windows straddle frames, so a window's start comes from the frame holding it.
    let offset = 0;
    while (offset < pcm.length) {
      if (this.filled === 0) this.windowStartMs = atMs - (pcm.length - offset) / this.samplesPerMs;
      const take = Math.min(this.window.length - this.filled, pcm.length - offset);
      for (let i = 0; i < take; i++) this.window[this.filled + i] = pcm[offset + i]! / 32768;
      this.filled += take;
      offset += take;
      if (this.filled === this.window.length) {
        this.filled = 0;
        this.score({ startMs: this.windowStartMs, atMs, probability: undefined });
      }
    }
  }

  reset(): void {
    this.filled = 0;
    this.phase = { kind: 'idle' };
    this.gatedMs = 0;
    // Answers still to come for the dropped windows find nothing to judge.
    this.unjudged.length = 0;
    this.stream?.reset();
  }

  close(): void {
    this.closed = true;
    this.unjudged.length = 0;
    this.stream = undefined;
  }

  /** Asks for the current window's probability (0 when the gate keeps it from the model), then judges what is answered. */
  private score(scored: ScoredWindow): void {
    this.unjudged.push(scored);
    const window = this.window;
    let energy = 0;
    for (let i = 0; i < window.length; i++) energy += window[i]! * window[i]!;
    const rms = Math.sqrt(energy / window.length);
    const stream = this.acquireStream();
    if (rms < this.gateRms || stream === undefined) {
      this.counts.gated++;
      this.gatedMs += this.windowMs;
      stream?.skip(window);
      scored.probability = 0;
    } else {
      if (this.gatedMs + WINDOW_EPSILON_MS >= this.tuning.gateResetMs) stream.reset();
      this.gatedMs = 0;
      this.counts.inferred++;
      stream.score(window, (probability) => {
        scored.probability = probability;
        this.judgeAnswered();
      });
    }
    this.judgeAnswered();
  }

  /** Runs the state machine over the answered windows at the head of the queue, in order. */
  private judgeAnswered(): void {
    while (this.unjudged.length > 0 && this.unjudged[0]!.probability !== undefined) {
      const scored = this.unjudged.shift()!;
      const event = this.onWindow(scored.startMs, scored.atMs, scored.probability!);
      if (event && !this.closed) this.onEvent(event);
    }
  }

  private onWindow(startMs: number, atMs: number, p: number): VoiceActivityEvent | undefined {
    this.counts.windows++;
    const endMs = startMs + this.windowMs;
    const { startThreshold, stopThreshold, hangoverMs, maxOnsetGapMs } = this.tuning;
    const phase = this.phase;
    switch (phase.kind) {
      case 'idle':
        if (p < startThreshold) return undefined;
        this.phase = { kind: 'candidate', onsetMs: startMs, speechMs: 0, gapMs: 0 };
        return this.onCandidateWindow(true, endMs, atMs);
      case 'candidate':
        if (p < stopThreshold) {
          phase.gapMs += this.windowMs;
          if (phase.gapMs > maxOnsetGapMs + WINDOW_EPSILON_MS) this.phase = { kind: 'idle' };
          return undefined;
        }
        return this.onCandidateWindow(false, endMs, atMs);
      case 'speaking':
        if (p >= stopThreshold) {
          phase.lastSpeechEndMs = endMs;
          phase.silenceMs = 0;
          return undefined;
        }
        phase.silenceMs += this.windowMs;
        if (phase.silenceMs + WINDOW_EPSILON_MS < hangoverMs) return undefined;
        this.phase = { kind: 'idle' };
        return { type: 'speech_stopped', atMs, durationMs: phase.lastSpeechEndMs - phase.onsetMs };
    }
  }

  private onCandidateWindow(first: boolean, endMs: number, atMs: number): VoiceActivityEvent | undefined {
    const phase = this.phase;
    if (phase.kind !== 'candidate') return undefined;
    if (!first) phase.gapMs = 0;
    phase.speechMs += this.windowMs;
    if (phase.speechMs + WINDOW_EPSILON_MS < this.minSpeechMs) return undefined;
    this.phase = { kind: 'speaking', onsetMs: phase.onsetMs, lastSpeechEndMs: endMs, silenceMs: 0 };
    return { type: 'speech_started', onsetMs: phase.onsetMs, atMs };
  }

  private acquireStream(): SpeechProbabilityStream | undefined {
    // Before the model has loaded the detector hears nothing; readiness (factory.ready()) should gate calls.
    if (this.stream === undefined) this.stream = this.model()?.createStream();
    return this.stream;
  }
}

/** One factory per process: holds the shared model (loading or loaded) and makes a detector per call. */
export class BargeInDetectorFactory implements VoiceActivityDetectorFactory {
  private model: SpeechProbabilityModel | undefined;
  private readonly loading: Promise<void>;
  private readonly tuning: BargeInDetectorTuning;

  constructor(
    model: SpeechProbabilityModel | Promise<SpeechProbabilityModel>,
    tuning: Partial<BargeInDetectorTuning> = {},
    private readonly geometry: { readonly windowSamples: number; readonly sampleRateHz: number } = { windowSamples: 256, sampleRateHz: 8000 },
  ) {
    this.tuning = { ...DEFAULT_BARGE_IN_TUNING, ...tuning };
    if (!(this.tuning.stopThreshold <= this.tuning.startThreshold)) throw new RangeError('stopThreshold must not exceed startThreshold');
    this.loading = Promise.resolve(model).then((loaded) => {
      if (loaded.windowSamples !== geometry.windowSamples || loaded.sampleRateHz !== geometry.sampleRateHz) {
        throw new Error(`VAD model takes ${loaded.windowSamples} samples at ${loaded.sampleRateHz} Hz, expected ${geometry.windowSamples} at ${geometry.sampleRateHz}`);
      }
      this.model = loaded;
    });
    // A failed load is reported by ready(); keep it from surfacing as an unhandled rejection meanwhile.
    this.loading.catch(() => undefined);
  }

  ready(): Promise<void> {
    return this.loading;
  }

  create(settings: { readonly minSpeechMs: number }, onEvent: (event: VoiceActivityEvent) => void): BargeInDetector {
    return new BargeInDetector(onEvent, () => this.model, settings.minSpeechMs, this.tuning, this.geometry.windowSamples, this.geometry.sampleRateHz);
  }
}
