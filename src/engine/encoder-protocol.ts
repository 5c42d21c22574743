// Messages between the encoder threads (encoder-threads.ts) and their worker (encoder-worker.ts): each utterance's
// output pipeline lives in one worker as a session, fed one clause at a time; every request gets one answer.

import type { OutputPipelineOptions } from '../audio/output-pipeline.js';

export type EncoderRequest =
  | { readonly type: 'open'; readonly session: number; readonly options: OutputPipelineOptions }
  | {
      readonly type: 'push';
      readonly session: number;
      readonly request: number;
      readonly samples: Float32Array;
      readonly pauseAfterMs: number;
      readonly alreadyShaped: boolean;
    }
  | { readonly type: 'end'; readonly session: number; readonly request: number }
  | { readonly type: 'drop'; readonly session: number };

export type EncoderAnswer =
  | { readonly type: 'ready' }
  /** `pieces`: a clause's bytes (one piece, or none), or the end's tails (the whole file in 'complete' mode). */
  | { readonly type: 'done'; readonly request: number; readonly ok: true; readonly pieces: Uint8Array[]; readonly durationMs: number; readonly leadTrimmedMs: number }
  | { readonly type: 'done'; readonly request: number; readonly ok: false; readonly message: string };
