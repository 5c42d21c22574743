// Worker-thread entry of the Kokoro engine: one session per model and one table per style file, each loaded once and
// each model warmed with one run, then a ready report (what loaded, what failed) and one job at a time.

import { deliverClause } from '../../audio/clause-delivery.js';
import { pitchRatio, shiftPitch } from '../../audio/pitch-shift.js';
import { errorMessage, workerSide } from '../worker-side.js';
import type { PackWorkerReport } from '../pack-worker-pool.js';
import type { KokoroJob, KokoroResult, KokoroWorkerData } from './kokoro-messages.js';
import { KokoroPhonemizer } from './kokoro-phonemizer.js';
import { KOKORO_SAMPLE_RATE_HZ, KokoroSession } from './kokoro-session.js';
import { KOKORO_STYLE_DIM, KokoroStyle } from './kokoro-style.js';
import { synthesizeKokoro } from './kokoro-synthesis.js';
import { tokenize } from './kokoro-vocab.js';

const { data, post, answerJobs } = workerSide<KokoroWorkerData, KokoroResult>('kokoro-worker');

const startedAt = performance.now();
let phonemizer: KokoroPhonemizer;
try {
  phonemizer = await KokoroPhonemizer.create();
  // eSpeak loads each language's rules on first use; pay that here, not in a caller's first clause.
  for (const language of data.languages) phonemizer.phonemize('ok', language);
} catch (error) {
  post({ type: 'init-failed', message: `Kokoro phonemizer: ${errorMessage(error)}` });
  process.exit(1);
}

// Models and styles are keyed by their paths.
const report: PackWorkerReport = { loaded: [], failed: [], rssBytes: 0 };
const sessions = new Map<string, KokoroSession>();
const styles = new Map<string, KokoroStyle>();
// A dozen real tokens: enough to touch every kernel once (the first run allocates the arena and packs weights).
const WARM_UP_IDS = tokenize('həlˈəʊ wˈɜːld').runs[0]?.ids ?? [0, 50, 0];
for (const modelPath of data.models) {
  try {
    const session = await KokoroSession.create(modelPath, { intraOpNumThreads: data.intraOpNumThreads });
    await session.run(WARM_UP_IDS, new Float32Array(KOKORO_STYLE_DIM), 1);
    sessions.set(modelPath, session);
    report.loaded.push(modelPath);
  } catch (error) {
    report.failed.push({ key: modelPath, path: modelPath, error: errorMessage(error) });
  }
}
for (const stylePath of data.styles) {
  try {
    styles.set(stylePath, await KokoroStyle.load(stylePath));
    report.loaded.push(stylePath);
  } catch (error) {
    report.failed.push({ key: stylePath, path: stylePath, error: errorMessage(error) });
  }
}
report.rssBytes = process.memoryUsage.rss();
post({ type: 'ready', warmUpMs: performance.now() - startedAt, detail: report });

async function synthesize(job: KokoroJob): Promise<KokoroResult> {
  const session = sessions.get(job.modelPath);
  const style = styles.get(job.stylePath);
  if (session === undefined || style === undefined) throw new Error(`Kokoro voice ${job.modelPath}#${job.stylePath} is not loaded in this worker`);
  const ratio = pitchRatio(job.pitchShiftSemitones);
  // The pitch trick needs the audio `ratio` times longer before resampling: Kokoro divides durations by speed.
  const clip = await synthesizeKokoro(phonemizer, { session, style, language: job.language }, job.text, { speed: job.speed / ratio });
  const samples = shiftPitch(clip.samples, KOKORO_SAMPLE_RATE_HZ, ratio);
  const rateHz = job.deliverAtRateHz;
  const delivered = rateHz === undefined ? samples : deliverClause(samples, KOKORO_SAMPLE_RATE_HZ, rateHz).samples;
  return { samples: delivered, sampleRateHz: rateHz ?? KOKORO_SAMPLE_RATE_HZ, shaped: rateHz !== undefined, unknownPhonemes: [...clip.unknown] };
}

answerJobs(synthesize);
