// The caller's voice activity on a phone call: inbound 8 kHz mu-law frames in, `speech_started` / `speech_stopped`
// out (barge-in-contract.ts). Frames are cut into the model's 32 ms windows; an energy gate skips near-silent windows,
// a speech probability with hysteresis marks speech, and speech only counts after DEFAULT_MIN_SPEECH_MS of it.
// With `longSpeechMs` a second, faster layer runs beside it for holds (barge-in-controller.ts): a stream staggered by
// half a window, and `suspect_*` spans that open on one window at a lower threshold. The staggered stream only sees
// an onset half a window sooner and refines a span's edges, which matter only while a suspect can hold the bot: it
// runs the model only then (the listener's `onsetMatters`), and the rest of the time each call costs one stream.
// Windows are judged in the order they were spoken, whatever order the model answers them in, and the listener learns
// how far the caller's audio has been judged (barge-in's clock, caller-audio-clock.ts): the same audio gives the same
// events at the same points of the audio, however its frames arrived.
// The probability model (Silero VAD, src/engine/vad/) is passed in, so this file knows no onnxruntime.

import { mulawToPcm16 } from '../../audio/mulaw.js';
import type { DetectorSettings, VoiceActivityDetector, VoiceActivityDetectorFactory, VoiceActivityEvent } from './barge-in-contract.js';
import { VadWindowStream, type SpeechProbabilityModel } from './vad-window-stream.js';

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

export type { SpeechProbabilityModel, SpeechProbabilityStream } from './vad-window-stream.js';

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
  /**
   * The suspect layer: one window of either stream at this probability opens a span. Lower than the start
   * threshold because a suspect only holds the bot (reversible): the first voiced window of "stop" often scores
   * 0.3-0.5 (measured: p ≥ 0.3 on two staggered streams finds onsets in 117 ms p95, against 133 ms at 0.5).
   */
  readonly suspectThreshold: number;
  /** Silence (windows under the suspect threshold) that ends a span: 4 windows, shorter than a pause between words. */
  readonly suspectEndMs: number;
  /** The second stream's windows start this many samples later: half a window halves the onset's grid error. */
  readonly staggerSamples: number;
  /**
   * The staggered stream runs the model on demand: its window n, judged right after the main stream's window n,
   * runs only if, when main window n is judged, an onset matters (the listener's `onsetMatters`: a suspect could
   * hold the bot, or one is held) and either a span is open or main window n scored at least this. A window not run
   * says nothing (a gated one still counts as silence). 0: every window while an onset matters. Higher values would
   * also skip the windows after quiet main ones, but a staggered window that opens a span often follows a main one
   * at 0 (gated) or under 0.1, so any threshold moved about one hold in five by half a window on Silero and turned
   * some around (bench/vad-hunt.ts, docs/notes/performance-history.md, "CPU per speaking call").
   */
  readonly huntThreshold: number;
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
  suspectThreshold: 0.3,
  suspectEndMs: 128,
  staggerSamples: 128,
  huntThreshold: 0,
};

export interface DetectorStats {
  /** Windows completed. */
  readonly windows: number;
  /** Windows that ran the model. */
  readonly inferred: number;
  /** Windows skipped by the energy gate. */
  readonly gated: number;
}

/** The staggered stream's windows: also those it did not run because no onset was hunted. */
export interface StaggeredStats extends DetectorStats {
  readonly unheard: number;
}

const WINDOW_EPSILON_MS = 1e-6;

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'candidate'; readonly onsetMs: number; speechMs: number; gapMs: number }
  | { readonly kind: 'speaking'; readonly onsetMs: number; lastSpeechEndMs: number; silenceMs: number };

/** A suspect span: from the first window at the suspect threshold to the end of the last one (either stream). */
type Span = { readonly onsetMs: number; lastSpeechEndMs: number; longSent: boolean } | undefined;

/** A window the model has answered, waiting for its turn to be judged (null: a staggered window not run). */
interface AnsweredWindow {
  readonly startMs: number;
  readonly atMs: number;
  readonly probability: number | null;
}

export class BargeInDetector implements VoiceActivityDetector {
  readonly #main: VadWindowStream;
  /** The staggered stream, only with the suspect layer. */
  readonly #staggered: VadWindowStream | undefined;
  #longSpeechMs: number | undefined;
  #phase: Phase = { kind: 'idle' };
  #span: Span;
  #closed = false;
  /** Answered windows of the main and the staggered stream, judged alternately: in the order they were spoken. */
  readonly #answered: [AnsweredWindow[], AnsweredWindow[]] = [[], []];
  #turn: 0 | 1 = 0;
  /** Arrival times (ms on the call clock) of frames some of whose windows are not judged yet. */
  readonly #frames: number[] = [];
  #draining = false;
  /** reset() calls so far: a reset during a window's judgment leaves the streams' pairing to start over. */
  #resets = 0;
  /** A frame is going into the streams: until both have cut its windows, it is not judged even if nothing waits. */
  #pushing = false;

  get pendingWindows(): number {
    return this.#main.pending + (this.#staggered?.pending ?? 0) + this.#answered[0].length + this.#answered[1].length;
  }

  constructor(
    private readonly onEvent: (event: VoiceActivityEvent) => void,
    model: () => SpeechProbabilityModel | undefined,
    private readonly minSpeechMs: number,
    private readonly tuning: BargeInDetectorTuning,
    geometry: { readonly windowSamples: number; readonly sampleRateHz: number },
    longSpeechMs?: number,
    /** Told, between events, that every window of the audio up to a frame's time has been judged. */
    private readonly onJudged?: (atMs: number) => void,
    /** Whether a suspect would matter now (see huntThreshold); absent: always. */
    private readonly onsetMatters: () => boolean = () => true,
  ) {
    if (!(minSpeechMs >= 0)) throw new RangeError(`minSpeechMs must be >= 0, got ${minSpeechMs}`);
    if (longSpeechMs !== undefined && !(longSpeechMs > 0)) throw new RangeError(`longSpeechMs must be > 0, got ${longSpeechMs}`);
    this.#longSpeechMs = longSpeechMs;
    this.#main = new VadWindowStream(model, (start, at, p) => this.#answer(0, start, at, p), { ...geometry, offsetSamples: 0 }, tuning);
    this.#staggered =
      longSpeechMs === undefined
        ? undefined
        : new VadWindowStream(model, (start, at, p) => this.#answer(1, start, at, p), { ...geometry, offsetSamples: tuning.staggerSamples }, tuning, true);
  }

  /** The main stream's windows (the staggered stream's are extra inferences while the caller makes sound). */
  get stats(): DetectorStats {
    const { windows, inferred, gated } = this.#main.counts;
    return { windows, inferred, gated };
  }

  /** The staggered stream's windows (undefined without the suspect layer). */
  get staggeredStats(): StaggeredStats | undefined {
    return this.#staggered ? { ...this.#staggered.counts } : undefined;
  }

  /** True between `speech_started` and `speech_stopped`. */
  get speaking(): boolean {
    return this.#phase.kind === 'speaking';
  }

  /** An 8 kHz mu-law frame (tests and benches feed the line as it arrives). */
  pushMulaw(frame: Uint8Array, atMs: number): void {
    this.pushPcm(mulawToPcm16(frame), atMs);
  }

  pushPcm(pcm: Int16Array, atMs: number): void {
    if (this.#closed || pcm.length === 0) return;
    this.#frames.push(atMs);
    this.#pushing = true;
    try {
      this.#main.push(pcm, atMs);
      this.#staggered?.push(pcm, atMs);
    } finally {
      this.#pushing = false;
    }
    this.#drain();
  }

  setLongSpeechMs(ms: number): void {
    if (!(ms > 0)) throw new RangeError(`longSpeechMs must be > 0, got ${ms}`);
    if (this.#staggered !== undefined) this.#longSpeechMs = ms;
  }

  reset(): void {
    this.#resets++;
    this.#phase = { kind: 'idle' };
    this.#span = undefined;
    this.#main.reset();
    this.#staggered?.reset();
    this.#answered[0].length = 0;
    this.#answered[1].length = 0;
    this.#turn = 0;
    // The windows not judged yet are dropped: the audio received so far is done with.
    this.#tickBefore(Infinity);
  }

  close(): void {
    this.#closed = true;
    this.#main.close();
    this.#staggered?.close();
  }

  #emit(event: VoiceActivityEvent | undefined): void {
    if (event && !this.#closed) this.onEvent(event);
  }

  #answer(stream: 0 | 1, startMs: number, atMs: number, probability: number | null): void {
    this.#answered[stream].push({ startMs, atMs, probability });
    this.#drain();
  }

  /**
   * Judges the answered windows in the order they were spoken: main and staggered windows alternate (the staggered
   * one starts half a window later), so each waits for the other stream's window before it. A model that batches
   * may answer them in another order, and the span's end depends on it. Before a window, the frames that came before
   * its own are all judged: the listener is told so.
   */
  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (;;) {
        const window = this.#answered[this.#turn].shift();
        if (window === undefined) break;
        this.#tickBefore(window.atMs);
        const resets = this.#resets;
        // The main stream never leaves a window unheard; a staggered window not run says nothing.
        if (this.#turn === 0) this.#judgeMain(window.startMs, window.atMs, window.probability!);
        else if (window.probability !== null) this.#judgeSpan(window.startMs, window.atMs, window.probability);
        // A listener that reset the detector on this window's event started both streams over.
        if (resets !== this.#resets) continue;
        // The staggered window that follows this main one runs the model only while an onset is hunted.
        if (this.#turn === 0) this.#staggered?.decide(this.#hunting(window.probability!));
        if (this.#staggered !== undefined) this.#turn = this.#turn === 0 ? 1 : 0;
      }
      if (!this.#pushing && this.pendingWindows === 0) this.#tickBefore(Infinity);
    } finally {
      this.#draining = false;
    }
  }

  /** After main window n (probability `p`) is judged: whether staggered window n runs the model (huntThreshold). */
  #hunting(p: number): boolean {
    if (this.#closed || (this.#span === undefined && p < this.tuning.huntThreshold)) return false;
    return this.onsetMatters();
  }

  /** Tells the listener the audio of every frame that arrived before `atMs` is judged. */
  #tickBefore(atMs: number): void {
    let through: number | undefined;
    while (this.#frames.length > 0 && this.#frames[0]! < atMs) through = this.#frames.shift();
    if (through !== undefined && !this.#closed) this.onJudged?.(through);
  }

  #judgeMain(startMs: number, atMs: number, p: number): void {
    this.#judgeSpan(startMs, atMs, p);
    this.#emit(this.#onWindow(startMs, atMs, p));
  }

  /** The suspect layer, fed by both streams: their windows overlap, so silence is measured from the last speech end. */
  #judgeSpan(startMs: number, atMs: number, p: number): void {
    const longSpeechMs = this.#longSpeechMs;
    if (longSpeechMs === undefined) return;
    const endMs = startMs + this.#main.windowMs;
    const span = this.#span;
    const { suspectThreshold, suspectEndMs } = this.tuning;
    if (span === undefined) {
      if (p < suspectThreshold) return;
      this.#span = { onsetMs: startMs, lastSpeechEndMs: endMs, longSent: false };
      this.#emit({ type: 'suspect_started', onsetMs: startMs, atMs });
      return;
    }
    if (p >= suspectThreshold) {
      span.lastSpeechEndMs = Math.max(span.lastSpeechEndMs, endMs);
      const extentMs = span.lastSpeechEndMs - span.onsetMs;
      if (!span.longSent && extentMs + WINDOW_EPSILON_MS >= longSpeechMs) {
        span.longSent = true;
        this.#emit({ type: 'suspect_long', atMs, extentMs });
      }
      return;
    }
    if (endMs - span.lastSpeechEndMs + WINDOW_EPSILON_MS < suspectEndMs) return;
    this.#span = undefined;
    this.#emit({ type: 'suspect_ended', atMs, extentMs: span.lastSpeechEndMs - span.onsetMs });
  }

  #onWindow(startMs: number, atMs: number, p: number): VoiceActivityEvent | undefined {
    const windowMs = this.#main.windowMs;
    const endMs = startMs + windowMs;
    const { startThreshold, stopThreshold, hangoverMs, maxOnsetGapMs } = this.tuning;
    const phase = this.#phase;
    switch (phase.kind) {
      case 'idle':
        if (p < startThreshold) return undefined;
        this.#phase = { kind: 'candidate', onsetMs: startMs, speechMs: 0, gapMs: 0 };
        return this.#onCandidateWindow(true, endMs, atMs);
      case 'candidate':
        if (p < stopThreshold) {
          phase.gapMs += windowMs;
          if (phase.gapMs > maxOnsetGapMs + WINDOW_EPSILON_MS) this.#phase = { kind: 'idle' };
          return undefined;
        }
        return this.#onCandidateWindow(false, endMs, atMs);
      case 'speaking':
        if (p >= stopThreshold) {
          phase.lastSpeechEndMs = endMs;
          phase.silenceMs = 0;
          return undefined;
        }
        phase.silenceMs += windowMs;
        if (phase.silenceMs + WINDOW_EPSILON_MS < hangoverMs) return undefined;
        this.#phase = { kind: 'idle' };
        return { type: 'speech_stopped', atMs, durationMs: phase.lastSpeechEndMs - phase.onsetMs };
    }
  }

  #onCandidateWindow(first: boolean, endMs: number, atMs: number): VoiceActivityEvent | undefined {
    const phase = this.#phase;
    if (phase.kind !== 'candidate') return undefined;
    if (!first) phase.gapMs = 0;
    phase.speechMs += this.#main.windowMs;
    if (phase.speechMs + WINDOW_EPSILON_MS < this.minSpeechMs) return undefined;
    this.#phase = { kind: 'speaking', onsetMs: phase.onsetMs, lastSpeechEndMs: endMs, silenceMs: 0 };
    return { type: 'speech_started', onsetMs: phase.onsetMs, atMs };
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
    if (!(this.tuning.staggerSamples >= 0 && this.tuning.staggerSamples < geometry.windowSamples)) throw new RangeError('staggerSamples must be within one window');
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

  create(settings: DetectorSettings, onEvent: (event: VoiceActivityEvent) => void, onJudged?: (atMs: number) => void): BargeInDetector {
    return new BargeInDetector(onEvent, () => this.model, settings.minSpeechMs, this.tuning, this.geometry, settings.longSpeechMs, onJudged, settings.onsetMatters);
  }
}
