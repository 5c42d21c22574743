// Worker-thread entry of the embedded engine: one eSpeak NG WASM instance, loaded and warmed up once,
// serving one job at a time. A bad job is reported, never fatal; a WASM trap ends the thread so the pool replaces it.

import { parentPort, workerData } from 'node:worker_threads';
import type { WordBoundary } from '../tts-engine.js';
import type { EmbeddedVoiceParams } from './espeak-voice-params.js';
import type { JobMessage, WorkerMessage } from '../worker-protocol.js';
import { afterTrim, deliverClause } from '../../audio/clause-delivery.js';
import { EspeakSynth, type EspeakRequest } from './espeak-synth.js';

export interface EspeakWorkerData {
  /** Voices whose variant files are written at start so their first job pays nothing extra. */
  readonly voices: readonly EmbeddedVoiceParams[];
  /** eSpeak language id for the warm-up synthesis. */
  readonly warmUpLanguage: string;
}

/** One clause to speak; with `deliverAtRateHz`, shaped and resampled to that rate here (clause-delivery.ts). */
export interface EspeakJob extends EspeakRequest {
  readonly deliverAtRateHz?: number | undefined;
}

export interface EspeakResult {
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  readonly shaped: boolean;
  readonly words: readonly WordBoundary[];
}

const port = parentPort;
if (port === null) throw new Error('espeak-worker must run in a worker thread');
const data = workerData as EspeakWorkerData;

function post(message: WorkerMessage<EspeakResult>, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

let synth: EspeakSynth;
try {
  const startedAt = performance.now();
  synth = await EspeakSynth.create();
  for (const voice of data.voices) synth.prepareVoice(voice);
  const warmUpVoice = data.voices[0];
  if (warmUpVoice !== undefined) {
    synth.synthesize({ text: 'warm up', espeakLanguage: data.warmUpLanguage, voice: warmUpVoice, speed: 1, pitchShiftSemitones: 0 });
  }
  post({ type: 'ready', warmUpMs: performance.now() - startedAt });
} catch (error) {
  post({ type: 'init-failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

port.on('message', (message: JobMessage<EspeakJob>) => {
  if (message.type !== 'job') return;
  try {
    const raw = synth.synthesize(message.payload);
    const rateHz = message.payload.deliverAtRateHz;
    const delivered = rateHz === undefined ? { samples: raw.samples, leadTrimmedMs: 0 } : deliverClause(raw.samples, synth.sampleRateHz, rateHz);
    const { samples } = delivered;
    const outRateHz = rateHz ?? synth.sampleRateHz;
    const words = afterTrim(raw.words, delivered.leadTrimmedMs, (samples.length * 1000) / outRateHz);
    post({ type: 'result', id: message.id, ok: true, value: { samples, sampleRateHz: outRateHz, shaped: rateHz !== undefined, words } }, [
      samples.buffer as ArrayBuffer,
    ]);
  } catch (error) {
    post({ type: 'result', id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) });
    // A trapped WASM instance (WebAssembly.RuntimeError: abort, out of bounds) is not safe to reuse; let the
    // pool start a fresh one.
    if (error instanceof Error && error.name === 'RuntimeError') process.exit(1);
  }
});
