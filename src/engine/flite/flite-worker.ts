// Worker-thread entry of the Flite engine: opens and checks each voice once, speaks a warm-up with each, reports
// ready (what loaded, what failed), then speaks one clause at a time: flite through WASI, the clause shaped and
// resampled here when asked, word boundaries kept for the call's heard_text.

import { afterTrim, deliverClause } from '../../audio/clause-delivery.js';
import { errorMessage, workerSide } from '../worker-side.js';
import type { PackWorkerReport } from '../pack-worker-pool.js';
import { fliteVoiceKey, type FliteJob, type FliteResult, type FliteWorkerData } from './flite-messages.js';
import { placeFliteSandbox } from './flite-sandbox.js';
import { synthesizeFlite } from './flite-synth.js';
import { openFliteVoice } from './flite-voice.js';

const { data, post, answerJobs } = workerSide<FliteWorkerData, FliteResult>('flite-worker');
placeFliteSandbox(data.sandboxDir);

const startedAt = performance.now();
const report: PackWorkerReport = { loaded: [], failed: [], rssBytes: 0 };
for (const spec of data.voices) {
  try {
    const voice = openFliteVoice(spec.path, spec.language);
    // Compiles flite.wasm for this thread and pages the voice in: the first caller pays nothing extra.
    synthesizeFlite({ voice, text: 'a', speed: 1, pitchShiftSemitones: 0, wordTimings: false });
    report.loaded.push(fliteVoiceKey(spec.path, spec.language));
  } catch (error) {
    report.failed.push({ key: fliteVoiceKey(spec.path, spec.language), path: spec.path, error: errorMessage(error) });
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

answerJobs(synthesize);
