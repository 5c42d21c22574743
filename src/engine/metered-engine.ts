// A TtsEngine decorator that reports each clause's wall time and audio length to the metrics port, so the
// real-time factor is measured on live traffic without the engines knowing about metrics.

import type { Metrics } from '../metrics/metrics.js';
import type { PcmClip, SynthesisJob, TtsEngine } from './tts-engine.js';

export function withMetrics(engine: TtsEngine, metrics: Pick<Metrics, 'synthesized'>, now: () => number = () => performance.now()): TtsEngine {
  return {
    get name() {
      return engine.name;
    },
    start: () => engine.start(),
    isReady: () => engine.isReady(),
    load: () => engine.load(),
    close: () => engine.close(),
    audioSource: (voiceName, language) => engine.audioSource(voiceName, language),
    kindFor: (voiceName, language) => engine.kindFor(voiceName, language),
    // An utterance's engine is metered like the registry it was bound from.
    bind: (voiceName, language) => withMetrics(engine.bind?.(voiceName, language) ?? engine, metrics, now),
    async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
      const started = now();
      const clip = await engine.synthesize(job, signal);
      metrics.synthesized(clip.engine ?? engine.name, now() - started, (1000 * clip.samples.length) / clip.sampleRateHz);
      return clip;
    },
  };
}
