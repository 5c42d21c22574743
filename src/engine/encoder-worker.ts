// The worker thread of encoder-threads.ts: holds one output pipeline per session (shaping what is unshaped,
// pauses, resampling, encoding) and answers each clause with its bytes, moved to the main thread without a copy.

import { parentPort } from 'node:worker_threads';
import { loadOpus } from '../audio/opus-packet-encoder.js';
import { OutputPipeline } from '../audio/output-pipeline.js';
import type { EncoderAnswer, EncoderRequest } from './encoder-protocol.js';
import { errorMessage } from './worker-side.js';

const port = parentPort;
if (port === null) throw new Error('encoder-worker must run in a worker thread');
const pipelines = new Map<number, OutputPipeline>();
/** Why a session's pipeline could not be built, answered to its first request. */
const unopened = new Map<number, string>();

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
    const why = unopened.get(session);
    unopened.delete(session);
    answer({ type: 'done', request, ok: false, message: why ?? `encoder session ${session} is not open` });
    return;
  }
  try {
    const pieces = work(pipeline);
    answer({ type: 'done', request, ok: true, pieces, durationMs: pipeline.durationMs, leadTrimmedMs: pipeline.lastLeadTrimmedMs });
  } catch (error) {
    pipelines.delete(session);
    pipeline.close();
    answer({ type: 'done', request, ok: false, message: errorMessage(error) });
  }
}

port.on('message', (message: EncoderRequest) => {
  switch (message.type) {
    case 'open':
      // A pipeline that cannot be built (libopus out of memory) fails its session's requests, not the thread.
      try {
        pipelines.set(message.session, new OutputPipeline(message.options));
      } catch (error) {
        unopened.set(message.session, errorMessage(error));
      }
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
      // An utterance that stopped early: its encoder's WebAssembly memory (Opus) is freed, not left to the thread.
      pipelines.get(message.session)?.close();
      pipelines.delete(message.session);
      unopened.delete(message.session);
      return;
  }
});
// libopus compiles before the thread says ready: the first Opus stream does not wait for it, and a broken build
// fails the start, not a request.
loadOpus();
answer({ type: 'ready' });
