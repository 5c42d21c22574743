// Utterances on neural packs through the real pipeline: audio leaves clause by clause in order (decoded from the
// tone voice after shaping and resampling), the pipeline takes the voice's own rate (16 or 22.05 kHz), and
// cancellation stops between clauses while the clause in flight finishes in its worker and is dropped.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMediumVoice } from '../../../../fixtures/voices/lib/fixture-voices.js';
import { Utterance, type UtteranceRequest } from '../../../../src/core/synthesis/utterance.js';
import { EspeakPhonemizer } from '../../../../src/engine/espeak/espeak-phonemizer.js';
import type { PiperEngine } from '../../../../src/engine/piper/piper-engine.js';
import { phonemizeText } from '../../../../src/engine/piper/piper-phonemizer.js';
import { loadPiperSidecar } from '../../../../src/engine/piper/piper-sidecar.js';
import { decodeAudio } from '../../../helpers/decode-audio.js';
import { decodeStream } from '../../../helpers/tone-decoder.js';
import { fixtureModelPath, TONE_ESPEAK, TONE_TEXT, toneEngine } from '../../../helpers/voice-packs.js';

const espeakModel = fixtureModelPath(TONE_ESPEAK);
const textModel = fixtureModelPath(TONE_TEXT);
const TEXT = 'नमस्ते दोस्तों। आपका खाता सक्रिय है, धन्यवाद। फिर मिलेंगे।';
const CHUNKING = { firstChunkMaxChars: 100, maxChunkChars: 300 };

let engine: PiperEngine;
let mediumModel: string;
beforeAll(async () => {
  mediumModel = await ensureMediumVoice();
  engine = toneEngine(
    [
      { voiceName: 'aarav', language: 'hi-IN', path: espeakModel, speakerId: 2 },
      { voiceName: 'meera', language: 'en-IN', path: textModel, speakerId: 0 },
      { voiceName: 'kabir', language: 'hi-IN', path: mediumModel, speakerId: 0 },
    ],
    { workers: 2 },
  );
  await engine.start();
}, 60_000);
afterAll(async () => {
  await engine.close();
});

function request(voiceName: string, language: UtteranceRequest['language'], text: string, sampleRateHz: UtteranceRequest['sampleRateHz'] = 24000): UtteranceRequest {
  return {
    text,
    language,
    voice: { voiceName, pitchShiftSemitones: 0, rateMultiplier: 1 },
    format: 'pcm',
    sampleRateHz,
    speed: 1,
    mode: 'streaming',
  };
}

describe('streaming on neural packs', () => {
  it('sends each clause as it is synthesized, in order, each decoding to its own ids', async () => {
    const utterance = new Utterance(engine, request('aarav', 'hi-IN', TEXT), CHUNKING);
    expect(utterance.chunks.length).toBe(3);
    const pieces: Uint8Array[] = [];
    for await (const piece of utterance.audio(new AbortController().signal)) pieces.push(piece);
    const whole = await decodeAudio(Buffer.concat(pieces), 'pcm', 24000);
    const decoded = decodeStream(whole.samples, 24000, TONE_ESPEAK.sidecar.tone_encoding);
    const phonemizer = await EspeakPhonemizer.create();
    const sidecar = loadPiperSidecar(`${espeakModel}.json`);
    const expected = utterance.chunks.map((chunk) => phonemizeText(chunk.text, sidecar, phonemizer).sentences.flat());
    expect(decoded.clauses).toEqual(expected);
    expect(decoded.speakers).toEqual(new Set([2]));
    // One piece per clause (the pipeline holds back a few resampler samples, so a piece's tail can ride in the next).
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    const first = decodeStream((await decodeAudio(pieces[0]!, 'pcm', 24000)).samples, 24000, TONE_ESPEAK.sidecar.tone_encoding);
    expect(first.clauses[0]).toEqual(expected[0]);
  });

  it('resamples from the voice rate: a 16 kHz character voice at 8 kHz lasts as long as its segments', async () => {
    const utterance = new Utterance(engine, request('meera', 'en-IN', 'hello there', 8000), CHUNKING);
    let bytes = 0;
    for await (const piece of utterance.audio(new AbortController().signal)) bytes += piece.length;
    // ^ _ + 11 characters x (char + _) + $ = 25 segments of round(256 x 1.25) samples at 16 kHz (tail trimmed).
    const expectedMs = (25 * 320 * 1000) / 16000;
    expect(utterance.durationMs).toBeGreaterThan(expectedMs - 15);
    expect(utterance.durationMs).toBeLessThan(expectedMs + 15);
    expect(bytes).toBe(Math.round((utterance.durationMs * 8000) / 1000) * 2);
  });

  it('stops between clauses on cancel: the running clause finishes in its worker and is dropped', async () => {
    const long = 'पहला वाक्य यहाँ है और यह काफ़ी लंबा है ताकि समय लगे। दूसरा वाक्य भी उतना ही लंबा है ताकि मॉडल व्यस्त रहे। तीसरा वाक्य कभी नहीं बनना चाहिए।';
    const utterance = new Utterance(engine, request('kabir', 'hi-IN', long), CHUNKING);
    expect(utterance.chunks.length).toBe(3);
    const controller = new AbortController();
    const iterator = utterance.audio(controller.signal)[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    // The second clause was prefetched and is running now.
    expect(engine.load().running).toBe(1);
    controller.abort('client-cancel');
    await expect(iterator.next()).rejects.toBe('client-cancel');
    // The abort did not wait for the clause in flight: it is still running in its worker.
    expect(engine.load().running).toBe(1);
    expect(utterance.codePointsSpoken).toBe(utterance.chunks[0]!.codePoints);
    // The worker finishes its clause; nothing is queued after it and the third clause never starts.
    await engine.idle();
    expect(engine.load()).toMatchObject({ queued: 0, running: 0 });
  });
});
