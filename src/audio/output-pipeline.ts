// Per-utterance audio path from engine clauses to wire bytes: shape each clause, add its pause, resample to the
// output rate and encode (speed is the engines' own: both have native rate control). Stateful across clauses, so joins are seamless.
import { concatBytes, concatFloat32, EMPTY_BYTES } from './bytes.js';
import { shapeClause } from './clause-delivery.js';
import { createEncoder, type AudioEncoder, type EncoderMode } from './encoder.js';
import type { OutputFormat, SampleRateHz } from './formats.js';
import { floatToPcm16 } from './pcm.js';
import { Resampler } from './resampler.js';


export interface OutputPipelineOptions {
  inputRateHz: number;
  outputRateHz: SampleRateHz;
  format: OutputFormat;
  mode: EncoderMode;
}

export class OutputPipeline {
  readonly inputRateHz: number;
  private readonly outputRateHz: number;
  private readonly resampler: Resampler;
  private readonly encoder: AudioEncoder;
  private headerSent = false;
  private ended = false;
  private produced = 0;
  #lastLeadTrimmedMs = 0;

  constructor(opts: OutputPipelineOptions) {
    this.inputRateHz = opts.inputRateHz;
    this.outputRateHz = opts.outputRateHz;
    this.resampler = new Resampler(opts.inputRateHz, opts.outputRateHz);
    this.encoder = createEncoder(opts.format, opts.outputRateHz, opts.mode);
  }

  /**
   * One synthesized clause in (engine rate; not modified). Shapes it (DC removal, trim silence, loudness
   * normalize, 5 ms edge fades), appends `pauseAfterMs` of silence, resamples,
   * encodes. Returns the bytes ready to send now (streaming: the header is prepended on the first call;
   * complete: always empty).
   */
  pushClause(samples: Float32Array, pauseAfterMs: number, alreadyShaped = false): Uint8Array {
    if (this.ended) throw new Error('OutputPipeline.pushClause after end()');
    const rate = this.inputRateHz;
    // A clause delivered by the engine's worker (clause-delivery.ts) is shaped and at the output rate already.
    const shaped = alreadyShaped ? { samples, leadTrimmedMs: 0 } : shapeClause(samples, rate);
    const clip = shaped.samples;
    this.#lastLeadTrimmedMs = shaped.leadTrimmedMs;
    const pause = new Float32Array(Math.max(0, Math.round((pauseAfterMs * rate) / 1000)));
    const block = pause.length === 0 ? clip : concatFloat32([clip, pause]);
    return this.emit(this.resampler.process(block));
  }

  /** Flushes resampler/encoder tails; returns the remaining bytes (the whole file in 'complete' mode). */
  end(): Uint8Array {
    return concatBytes(this.endPieces());
  }

  /** `end()`'s bytes as consecutive pieces, not copied into one buffer (a complete file can be many megabytes). */
  endPieces(): Uint8Array[] {
    if (this.ended) return [];
    this.ended = true;
    const tail = this.emit(this.resampler.flush());
    return [tail, ...this.encoder.flushPieces()].filter((piece) => piece.length > 0);
  }

  /** Frees the encoder's memory when the utterance stops before `end()` (an Opus encoder lives in WebAssembly). */
  close(): void {
    this.ended = true;
    this.encoder.close();
  }

  /** Silence the last pushClause trimmed from the start of its clause (0 for a clause that came shaped). */
  get lastLeadTrimmedMs(): number {
    return this.#lastLeadTrimmedMs;
  }

  /** Output samples produced so far at outputRateHz, pauses included (PCM count; excludes MP3 and Opus padding). */
  get samplesOut(): number {
    return this.produced;
  }

  get durationMs(): number {
    return (this.produced / this.outputRateHz) * 1000;
  }

  private emit(samples: Float32Array): Uint8Array {
    this.produced += samples.length;
    const body = samples.length === 0 ? EMPTY_BYTES : this.encoder.encode(floatToPcm16(samples));
    if (this.headerSent) return body;
    this.headerSent = true;
    const header = this.encoder.header();
    return header.length === 0 ? body : concatBytes([header, body]);
  }
}
