// Worker-thread entry of the Piper engine: the eSpeak phonemizer when a voice needs it, one InferenceSession per
// model created once and warmed with a dummy run, then one job at a time: phonemize, run, pitch (packWorker reports
// what loaded and shapes and resamples each clause at the job's rate, off the event loop).

import { concatFloat32 } from '../../audio/bytes.js';
import { pitchRatio, shiftPitch } from '../../audio/pitch-shift.js';
import { EspeakPhonemizer } from '../espeak/espeak-phonemizer.js';
import type { SpokenClause } from '../pack-messages.js';
import { errorMessage, packWorker } from '../worker-side.js';
import type { PiperJob, PiperModelFile, PiperWorkerSettings } from './piper-messages.js';
import { phonemizeText } from './piper-phonemizer.js';
import { PiperSession } from './piper-session.js';
import { BOS, EOS, PAD } from './piper-sidecar.js';

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

packWorker<PiperModelFile, PiperWorkerSettings, PiperJob, SpokenClause>('piper-worker', {
  async open(model, settings) {
    if (model.sidecar.phoneme_type === 'espeak' && espeak === undefined) {
      try {
        espeak = await EspeakPhonemizer.create();
      } catch (error) {
        throw new Error(`eSpeak phonemizer: ${errorMessage(error)}`);
      }
    }
    const session = await PiperSession.create(model.path, model.sidecar, { intraOpNumThreads: settings.intraOpNumThreads });
    // The first run allocates the arena and packs weights; do it now rather than in a caller's first request.
    await session.run(warmUpIds(session), { lengthScale: model.sidecar.inference.length_scale, speakerId: 0 });
    if (model.sidecar.phoneme_type === 'espeak' && model.sidecar.espeak !== undefined) espeak?.phonemize('a', model.sidecar.espeak.voice);
    sessions.set(model.key, session);
  },
  async speak(job) {
    const session = sessions.get(job.modelPath);
    if (session === undefined) throw new Error(`voice ${job.modelPath} is not loaded in this worker`);
    const { sidecar } = session;
    const { sentences, unknown } = phonemizeText(job.text, sidecar, espeak);
    const ratio = pitchRatio(job.pitchShiftSemitones);
    // Piper: speed is 1 / length_scale; the pitch trick needs the audio `ratio` times longer before resampling.
    const lengthScale = (sidecar.inference.length_scale / job.speed) * ratio;
    const parts: Float32Array[] = [];
    for (const ids of sentences) parts.push(await session.run(ids, { lengthScale, speakerId: job.speakerId }));
    return { samples: shiftPitch(concatFloat32(parts), sidecar.audio.sample_rate, ratio), sampleRateHz: sidecar.audio.sample_rate, unknownPhonemes: [...unknown] };
  },
});
