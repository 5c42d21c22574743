// The worker thread of encoder-threads.ts: holds one output pipeline per session (shaping what is unshaped,
// pauses, resampling, encoding) and answers each clause with its bytes, moved to the main thread without a copy.

import { parentPort } from 'node:worker_threads';
import { OutputPipeline } from '../audio/output-pipeline.js';
import type { EncoderAnswer, EncoderRequest } from './encoder-protocol.js';
import { errorMessage } from './worker-side.js';

const port = parentPort;
if (port === null) throw new Error('encoder-worker must run in a worker thread');
const pipelines = new Map<number, OutputPipeline>();

function answer(message: EncoderAnswer): void {
  if (message.type !== 'done' || !message.ok) return port!.postMessage(message);
  // A view into a larger buffer (lamejs frames, a shared empty array) is copied; a whole buffer moves.
  const pieces = message.pieces
    .filter((piece) => piece.byteLength > 0)
    .map((piece) => (piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength ? piece : piece.slice()));
  port!.postMessage({ ...message, pieces }, pieces.map((piece) => piece.buffer as ArrayBuffer));
}

function run(request: number, session: number, work: (pipeline: OutputPipeline) => Uint8Array[]): void {
  const pipeline = pipelines.get(session);
  if (pipeline === undefined) {
    answer({ type: 'done', request, ok: false, message: `encoder session ${session} is not open` });
    return;
  }
  try {
    const pieces = work(pipeline);
    answer({ type: 'done', request, ok: true, pieces, durationMs: pipeline.durationMs, leadTrimmedMs: pipeline.lastLeadTrimmedMs });
  } catch (error) {
    pipelines.delete(session);
    answer({ type: 'done', request, ok: false, message: errorMessage(error) });
  }
}

port.on('message', (message: EncoderRequest) => {
  switch (message.type) {
    case 'open':
      pipelines.set(message.session, new OutputPipeline(message.options));
      return;
    case 'push':
      run(message.request, message.session, (pipeline) => [pipeline.pushClause(message.samples, message.pauseAfterMs, message.alreadyShaped)]);
      return;
    case 'end':
      run(message.request, message.session, (pipeline) => {
        pipelines.delete(message.session);
        return pipeline.endPieces();
      });
      return;
    case 'drop':
      pipelines.delete(message.session);
      return;
  }
});
answer({ type: 'ready' });
