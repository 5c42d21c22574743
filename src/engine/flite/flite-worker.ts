// Worker-thread entry of the Flite engine: one flite instance for the thread (FliteVoiceBank), each voice checked and
// loaded once and a warm-up spoken with it, then one clause per job: one call into the instance, word boundaries kept
// for the call's heard_text (packWorker reports what loaded and delivers each clause at the job's rate).
// A fault in the instance fails that job and the bank replaces the instance; the thread lives on.

import { threadId } from 'node:worker_threads';
import { packWorker } from '../worker-side.js';
import type { FliteSpokenClause, FliteJob, FliteVoiceFile, FliteWorkerSettings } from './flite-messages.js';
import { synthesizeFlite } from './flite-synth.js';
import { FliteVoiceBank } from './flite-voice-bank.js';

let bank: FliteVoiceBank;

packWorker<FliteVoiceFile, FliteWorkerSettings, FliteJob, FliteSpokenClause>('flite-worker', {
  prepare(settings) {
    bank = new FliteVoiceBank({ modelsDir: settings.modelsDir, budgetBytes: settings.voiceBudgetBytes });
  },
  open(voice) {
    // Loads the voice and runs flite's code once: the first caller pays neither the load nor the cold code.
    synthesizeFlite(bank, { voicePath: voice.path, language: voice.language, text: 'a', speed: 1, pitchShiftSemitones: 0, wordTimings: false });
  },
  speak(job) {
    if (job.trapForTest === true) bank.trapForTest();
    const clip = synthesizeFlite(bank, { voicePath: job.voicePath, language: job.language, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones, wordTimings: true });
    return { samples: clip.samples, sampleRateHz: clip.sampleRateHz, words: clip.words ?? [], stats: { ...bank.stats(), threadId } };
  },
});
