// Worker-thread entry of the ONNX engine: creates one InferenceSession per voice once, warms each with a dummy run,
// then reports ready (with the voices that failed to load) and serves one job at a time: phonemize, run, post.

import { errorMessage, workerSide } from '../worker-side.js';
import { EspeakPhonemizer } from '../espeak/espeak-phonemizer.js';
import type { PackWorkerReport } from '../pack-worker-pool.js';
import type { OnnxJob, OnnxResult, OnnxWorkerData } from './onnx-messages.js';
import { phonemizeText } from './piper-phonemizer.js';
import { PiperSession } from './piper-session.js';
import { BOS, EOS, PAD } from './piper-sidecar.js';
import { concatFloat32 } from '../../audio/bytes.js';
import { pitchRatio, shiftPitch } from '../../audio/pitch-shift.js';

const { data, post, answerJobs } = workerSide<OnnxWorkerData, OnnxResult>('onnx-worker');

const sessions = new Map<string, PiperSession>();
let espeak: EspeakPhonemizer | undefined;

/** A short id sequence from the voice's own map: enough to touch every kernel once. */
function warmUpIds(session: PiperSession): number[] {
  const map = session.sidecar.phoneme_id_map;
  const symbols = Object.keys(map).filter((symbol) => symbol !== PAD && symbol !== BOS && symbol !== EOS && symbol !== ' ');
  const ids = [...(map[BOS] ?? [])];
  for (let i = 0; i < 12 && symbols.length > 0; i++) ids.push(...(map[symbols[i % symbols.length] as string] ?? []), ...(map[PAD] ?? []));
  ids.push(...(map[EOS] ?? []));
  return ids;
}

const startedAt = performance.now();
const report: PackWorkerReport = { loaded: [], failed: [], rssBytes: 0 };
try {
  if (data.voices.some((voice) => voice.sidecar.phoneme_type === 'espeak')) espeak = await EspeakPhonemizer.create();
} catch (error) {
  post({ type: 'init-failed', message: `eSpeak phonemizer: ${errorMessage(error)}` });
  process.exit(1);
}
for (const voice of data.voices) {
  try {
    const session = await PiperSession.create(voice.modelPath, voice.sidecar, { intraOpNumThreads: data.intraOpNumThreads });
    // The first run allocates the arena and packs weights; do it now rather than in a caller's first request.
    await session.run(warmUpIds(session), { lengthScale: voice.sidecar.inference.length_scale, speakerId: 0 });
    if (voice.sidecar.phoneme_type === 'espeak' && voice.sidecar.espeak !== undefined) espeak?.phonemize('a', voice.sidecar.espeak.voice);
    sessions.set(voice.key, session);
    report.loaded.push(voice.key);
  } catch (error) {
    report.failed.push({ key: voice.key, path: voice.modelPath, error: errorMessage(error) });
  }
}
report.rssBytes = process.memoryUsage.rss();
post({ type: 'ready', warmUpMs: performance.now() - startedAt, detail: report });

async function synthesize(job: OnnxJob): Promise<OnnxResult> {
  const session = sessions.get(job.voiceKey);
  if (session === undefined) throw new Error(`voice ${job.voiceKey} is not loaded in this worker`);
  const { sidecar } = session;
  const { sentences, unknown } = phonemizeText(job.text, sidecar, espeak);
  const ratio = pitchRatio(job.pitchShiftSemitones);
  // Piper: speed is 1 / length_scale; the pitch trick needs the audio `ratio` times longer before resampling.
  const lengthScale = (sidecar.inference.length_scale / job.speed) * ratio;
  const parts: Float32Array[] = [];
  for (const ids of sentences) parts.push(await session.run(ids, { lengthScale, speakerId: job.speakerId }));
  const samples = shiftPitch(concatFloat32(parts), sidecar.audio.sample_rate, ratio);
  return { samples, sampleRateHz: sidecar.audio.sample_rate, unknownPhonemes: [...unknown] };
}

answerJobs(synthesize);
