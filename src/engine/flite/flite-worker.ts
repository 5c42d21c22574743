// Worker-thread entry of the Flite engine: one flite instance for the thread (FliteVoiceBank), each voice checked and
// loaded once and a warm-up spoken with it, then ready (what loaded, what failed), then one clause per job: one call
// into the instance, the clause shaped and resampled here when asked, word boundaries kept for the call's heard_text.
// A fault in the instance fails that job and the bank replaces the instance; the thread lives on.

import { threadId } from 'node:worker_threads';
import { afterTrim, deliverClause } from '../../audio/clause-delivery.js';
import { errorMessage, workerSide } from '../worker-side.js';
import type { PackWorkerReport } from '../pack-worker-pool.js';
import { fliteVoiceKey, type FliteJob, type FliteResult, type FliteWorkerData, type FliteWorkerStats } from './flite-messages.js';
import { synthesizeFlite } from './flite-synth.js';
import { FliteVoiceBank } from './flite-voice-bank.js';

const { data, post, answerJobs } = workerSide<FliteWorkerData, FliteResult>('flite-worker');
const bank = new FliteVoiceBank({ modelsDir: data.modelsDir, budgetBytes: data.voiceBudgetBytes });
const stats = (): FliteWorkerStats => ({ ...bank.stats(), threadId });

const startedAt = performance.now();
const report: PackWorkerReport = { loaded: [], failed: [], rssBytes: 0 };
for (const spec of data.voices) {
  try {
    // Loads the voice and runs flite's code once: the first caller pays neither the load nor the cold code.
    synthesizeFlite(bank, { voicePath: spec.path, language: spec.language, text: 'a', speed: 1, pitchShiftSemitones: 0, wordTimings: false });
    report.loaded.push(fliteVoiceKey(spec.path, spec.language));
  } catch (error) {
    report.failed.push({ key: fliteVoiceKey(spec.path, spec.language), path: spec.path, error: errorMessage(error) });
  }
}
report.rssBytes = process.memoryUsage.rss();
post({ type: 'ready', warmUpMs: performance.now() - startedAt, detail: report });

function synthesize(job: FliteJob): FliteResult {
  if (job.trapForTest === true) bank.trapForTest();
  const clip = synthesizeFlite(bank, { voicePath: job.voicePath, language: job.language, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones, wordTimings: true });
  const rateHz = job.deliverAtRateHz;
  const delivered = rateHz === undefined ? { samples: clip.samples, leadTrimmedMs: 0 } : deliverClause(clip.samples, clip.sampleRateHz, rateHz);
  const outRateHz = rateHz ?? clip.sampleRateHz;
  const words = afterTrim(clip.words ?? [], delivered.leadTrimmedMs, (delivered.samples.length * 1000) / outRateHz);
  return { samples: delivered.samples, sampleRateHz: outRateHz, shaped: rateHz !== undefined, words, stats: stats() };
}

answerJobs(synthesize);
