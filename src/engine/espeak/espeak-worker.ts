// Worker-thread entry of the embedded engine: one eSpeak NG WASM instance, loaded and warmed up once,
// serving one job at a time. A bad job is reported, never fatal; a WASM trap ends the thread so the pool replaces it.

import type { WordBoundary } from '../tts-engine.js';
import type { EmbeddedVoiceParams } from './espeak-voice-params.js';
import { errorMessage, workerSide } from '../worker-side.js';
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

const { data, post, answerJobs } = workerSide<EspeakWorkerData, EspeakResult>('espeak-worker');

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
  post({ type: 'init-failed', message: errorMessage(error) });
  process.exit(1);
}

answerJobs((job: EspeakJob): EspeakResult => {
  const raw = synth.synthesize(job);
  const rateHz = job.deliverAtRateHz;
  const delivered = rateHz === undefined ? { samples: raw.samples, leadTrimmedMs: 0 } : deliverClause(raw.samples, synth.sampleRateHz, rateHz);
  const outRateHz = rateHz ?? synth.sampleRateHz;
  const words = afterTrim(raw.words, delivered.leadTrimmedMs, (delivered.samples.length * 1000) / outRateHz);
  return { samples: delivered.samples, sampleRateHz: outRateHz, shaped: rateHz !== undefined, words };
});
