// Worker-thread entry of the Kokoro engine: the phonemizer warmed in each route's language, one session per model
// (warmed with one run) and one table per style file, each loaded once; then one job at a time (packWorker reports
// what loaded and delivers each clause at the job's rate).

import { pitchRatio, shiftPitch } from '../../audio/pitch-shift.js';
import type { SpokenClause } from '../pack-messages.js';
import { errorMessage, packWorker } from '../worker-side.js';
import type { KokoroFile, KokoroJob, KokoroWorkerSettings } from './kokoro-messages.js';
import { KokoroPhonemizer } from './kokoro-phonemizer.js';
import { KOKORO_SAMPLE_RATE_HZ, KokoroSession } from './kokoro-session.js';
import { KOKORO_STYLE_DIM, KokoroStyle } from './kokoro-style.js';
import { synthesizeKokoro } from './kokoro-synthesis.js';
import { tokenize } from './kokoro-vocab.js';

let phonemizer: KokoroPhonemizer;
// Models and styles are keyed by their paths.
const sessions = new Map<string, KokoroSession>();
const styles = new Map<string, KokoroStyle>();
// A dozen real tokens: enough to touch every kernel once (the first run allocates the arena and packs weights).
const WARM_UP_IDS = tokenize('həlˈəʊ wˈɜːld').runs[0]?.ids ?? [0, 50, 0];

packWorker<KokoroFile, KokoroWorkerSettings, KokoroJob, SpokenClause>('kokoro-worker', {
  async prepare(settings) {
    try {
      phonemizer = await KokoroPhonemizer.create();
      // eSpeak loads each language's rules on first use; pay that here, not in a caller's first clause.
      for (const language of settings.languages) phonemizer.phonemize('ok', language);
    } catch (error) {
      throw new Error(`Kokoro phonemizer: ${errorMessage(error)}`);
    }
  },
  async open(file, settings) {
    if (file.role === 'style') {
      styles.set(file.path, await KokoroStyle.load(file.path));
      return;
    }
    const session = await KokoroSession.create(file.path, { intraOpNumThreads: settings.intraOpNumThreads });
    await session.run(WARM_UP_IDS, new Float32Array(KOKORO_STYLE_DIM), 1);
    sessions.set(file.path, session);
  },
  async speak(job) {
    const session = sessions.get(job.modelPath);
    const style = styles.get(job.stylePath);
    if (session === undefined || style === undefined) throw new Error(`Kokoro voice ${job.modelPath}#${job.stylePath} is not loaded in this worker`);
    const ratio = pitchRatio(job.pitchShiftSemitones);
    // The pitch trick needs the audio `ratio` times longer before resampling: Kokoro divides durations by speed.
    const clip = await synthesizeKokoro(phonemizer, { session, style, language: job.language }, job.text, { speed: job.speed / ratio });
    return { samples: shiftPitch(clip.samples, KOKORO_SAMPLE_RATE_HZ, ratio), sampleRateHz: KOKORO_SAMPLE_RATE_HZ, unknownPhonemes: [...clip.unknown] };
  },
});
