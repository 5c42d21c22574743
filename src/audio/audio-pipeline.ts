// The output pipeline as an utterance drives it: one clause at a time, answered asynchronously, so an encoder that
// costs real CPU (MP3, Opus) can run on another thread (engine/encoder-threads.ts) while the cheap ones run in place.

import { OutputPipeline, type OutputPipelineOptions } from './output-pipeline.js';

export interface AudioPipeline {
  readonly inputRateHz: number;
  /** Output duration after the last answered push (pauses included). */
  readonly durationMs: number;
  /** Silence the last answered push trimmed from the start of its clause. */
  readonly lastLeadTrimmedMs: number;
  /** One clause in; the bytes ready to send now. One call at a time: await each before the next. */
  pushClause(samples: Float32Array, pauseAfterMs: number, alreadyShaped: boolean): Promise<Uint8Array>;
  /** The tails (the whole file in 'complete' mode), as consecutive pieces. */
  end(): Promise<readonly Uint8Array[]>;
  /** Frees what the pipeline holds when its utterance stops before `end()`; idempotent, harmless after `end()`. */
  close(): void;
}

export type AudioPipelineFactory = (options: OutputPipelineOptions) => AudioPipeline;

/** The pipeline on the calling thread: for formats whose encoding is a copy or a table lookup (PCM, WAV, mu-law, A-law). */
export function inlinePipeline(options: OutputPipelineOptions): AudioPipeline {
  const pipeline = new OutputPipeline(options);
  return {
    inputRateHz: pipeline.inputRateHz,
    get durationMs() {
      return pipeline.durationMs;
    },
    get lastLeadTrimmedMs() {
      return pipeline.lastLeadTrimmedMs;
    },
    pushClause: (samples, pauseAfterMs, alreadyShaped) => Promise.resolve(pipeline.pushClause(samples, pauseAfterMs, alreadyShaped)),
    end: () => Promise.resolve(pipeline.endPieces()),
    close: () => pipeline.close(),
  };
}
