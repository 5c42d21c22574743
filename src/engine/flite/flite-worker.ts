// Worker-thread entry of the Flite engine: opens and checks each voice once, speaks a warm-up with each, reports
// ready (what loaded, what failed), then speaks one clause at a time: flite through WASI, the clause shaped and
// resampled here when asked, word boundaries kept for the call's heard_text.

import { parentPort, workerData } from 'node:worker_threads';
import { afterTrim, deliverClause } from '../../audio/clause-delivery.js';
import type { JobMessage, WorkerMessage } from '../worker-protocol.js';
import type { PackWorkerReport } from '../pack-worker-pool.js';
import { fliteVoiceKey, type FliteJob, type FliteResult, type FliteWorkerData } from './flite-messages.js';
import { synthesizeFlite } from './flite-synth.js';
import { openFliteVoice } from './flite-voice.js';

const port = parentPort;
if (port === null) throw new Error('flite-worker must run in a worker thread');
const data = workerData as FliteWorkerData;

function post(message: WorkerMessage<FliteResult>, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const startedAt = performance.now();
const report: PackWorkerReport = { loaded: [], failed: [], rssBytes: 0 };
for (const spec of data.voices) {
  try {
    const voice = openFliteVoice(spec.path, spec.language);
    // Compiles flite.wasm for this thread and pages the voice in: the first caller pays nothing extra.
    synthesizeFlite({ voice, text: 'a', speed: 1, pitchShiftSemitones: 0, wordTimings: false });
    report.loaded.push(fliteVoiceKey(spec.path, spec.language));
  } catch (error) {
    report.failed.push({ key: fliteVoiceKey(spec.path, spec.language), path: spec.path, error: message(error) });
  }
}
report.rssBytes = process.memoryUsage.rss();
post({ type: 'ready', warmUpMs: performance.now() - startedAt, detail: report });

function synthesize(job: FliteJob): FliteResult {
  const voice = openFliteVoice(job.voicePath, job.language);
  const clip = synthesizeFlite({ voice, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones, wordTimings: true });
  const rateHz = job.deliverAtRateHz;
  const delivered = rateHz === undefined ? { samples: clip.samples, leadTrimmedMs: 0 } : deliverClause(clip.samples, clip.sampleRateHz, rateHz);
  const outRateHz = rateHz ?? clip.sampleRateHz;
  const words = afterTrim(clip.words ?? [], delivered.leadTrimmedMs, (delivered.samples.length * 1000) / outRateHz);
  return { samples: delivered.samples, sampleRateHz: outRateHz, shaped: rateHz !== undefined, words };
}

port.on('message', (incoming: JobMessage<FliteJob>) => {
  if (incoming.type !== 'job') return;
  try {
    const value = synthesize(incoming.payload);
    post({ type: 'result', id: incoming.id, ok: true, value }, [value.samples.buffer as ArrayBuffer]);
  } catch (error) {
    post({ type: 'result', id: incoming.id, ok: false, message: message(error) });
    // A trapped WASM instance is gone with its run, but a thread that saw one is replaced all the same.
    if (error instanceof Error && error.name === 'RuntimeError') process.exit(1);
  }
});
