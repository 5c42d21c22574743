// Several ONNX workers, each holding several voices, under parallel requests: some onnxruntime-node releases
// crash with sessions in more than one worker thread (microsoft/onnxruntime#24486), so package.json pins the
// exact version this test passes on. Also checks that start, use and close can repeat in one process.

import { describe, expect, it } from 'vitest';
import { ensureMediumVoice } from '../../../../fixtures/voices/lib/fixture-voices.js';
import type { PackEvent } from '../../../../src/engine/engine-module.js';
import { decodeClip } from '../../../helpers/tone-decoder.js';
import { fixtureModelPath, job, TONE_ESPEAK, TONE_TEXT, toneEngine } from '../../../helpers/voice-packs.js';

const WORKERS = 3;
const ROUNDS = 2;

describe('onnx engine with several workers', () => {
  it(`serves ${WORKERS} voices from ${WORKERS} workers under parallel load, twice in one process`, async () => {
    const espeakModel = fixtureModelPath(TONE_ESPEAK);
    const textModel = fixtureModelPath(TONE_TEXT);
    const mediumModel = await ensureMediumVoice();
    for (let round = 0; round < ROUNDS; round++) {
      const events: PackEvent[] = [];
      const engine = toneEngine(
        [
          { voiceName: 'aarav', language: 'hi-IN', path: espeakModel, speakerId: 1 },
          { voiceName: 'meera', language: 'hi-IN', path: espeakModel, speakerId: 3 },
          { voiceName: 'meera', language: 'en-IN', path: textModel, speakerId: 0 },
          { voiceName: 'kabir', language: 'hi-IN', path: mediumModel, speakerId: 0 },
        ],
        { workers: WORKERS, events },
      );
      try {
        await engine.start();
        const ready = events.filter((event) => event.type === 'worker-ready');
        expect(ready).toHaveLength(WORKERS);
        for (const event of ready) expect(event.type === 'worker-ready' && event.report).toMatchObject({ loaded: [espeakModel, textModel, mediumModel], failed: [] });

        let peakRunning = 0;
        const requests = Array.from({ length: 24 }, (_, i) => {
          const kind = i % 4;
          const text = kind === 3 ? 'नमस्ते।' : `नमस्ते ${['एक', 'दो', 'तीन', 'चार', 'पाँच', 'छह'][i % 6]}`;
          const voice = kind === 0 ? 'aarav' : kind === 1 ? 'meera' : kind === 2 ? 'meera' : 'kabir';
          const language = kind === 2 ? 'en-IN' : 'hi-IN';
          const promise = engine.synthesize(job(voice, language, kind === 2 ? `hello ${i}` : text, { speed: 1 + (i % 3) * 0.25 }), new AbortController().signal);
          peakRunning = Math.max(peakRunning, engine.load().running);
          return promise.then((clip) => ({ kind, clip, speed: 1 + (i % 3) * 0.25 }));
        });
        const results = await Promise.all(requests);
        expect(peakRunning).toBe(WORKERS);
        for (const { kind, clip, speed } of results) {
          expect(clip.samples.length).toBeGreaterThan(0);
          if (kind === 3) {
            expect(clip.sampleRateHz).toBe(22050);
            expect(clip.samples.every((value) => Number.isFinite(value))).toBe(true);
          } else if (kind === 2) {
            const decoded = decodeClip(clip.samples, 16000, TONE_TEXT.sidecar.tone_encoding, { lengthScale: 1.25 / speed, noiseW: 0.3 });
            expect(decoded.ids[0]).toBe(1);
          } else {
            const decoded = decodeClip(clip.samples, 22050, TONE_ESPEAK.sidecar.tone_encoding, { lengthScale: 1 / speed, noiseW: 0.8 });
            expect(new Set(decoded.speakers)).toEqual(new Set([kind === 0 ? 1 : 3]));
          }
        }
        expect(events.filter((event) => event.type === 'worker-exit')).toEqual([]);
      } finally {
        await engine.close();
      }
    }
  }, 120_000);
});
