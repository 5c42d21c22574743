// The barge-in detector on real Silero VAD and real synthesized speech (eSpeak, resampled to 8 kHz, mu-law, in
// 20 ms frames as Twilio sends them): onsets land near the true onset, silence and line noise never trigger,
// quick fillers stay under the default minimum, and the energy gate keeps silence from the model.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcm16ToMulaw } from '../../../src/audio/mulaw.js';
import { floatToPcm16 } from '../../../src/audio/pcm.js';
import { SileroBatcher } from '../../../src/engine/vad/silero-batcher.js';
import { SileroVad } from '../../../src/engine/vad/silero-vad.js';
import type { VoiceActivityEvent } from '../../../src/session/barge-in/barge-in-contract.js';
import { BargeInDetectorFactory, DEFAULT_MIN_SPEECH_MS } from '../../../src/session/barge-in/barge-in-detector.js';
import { HeardDetector } from '../../helpers/heard-detector.js';
import { PHONE_FRAME_BYTES as FRAME_BYTES, PHONE_FRAME_MS as FRAME_MS } from '../../../src/audio/mulaw.js';
import { CallerTrack, onsetOffsetMs } from '../../../src/sim/caller-audio.js';
import { CallerVoice } from '../../../src/sim/caller-speech.js';

const MANIFEST = new URL('../../../models/raaga-v1/manifest.json', import.meta.url).pathname;
let vad: SileroVad;
let factory: BargeInDetectorFactory;
let sentence: Uint8Array;
let quickYes: Uint8Array;
let quickHaan: Uint8Array;

beforeAll(async () => {
  const voice = await CallerVoice.start(MANIFEST);
  try {
    sentence = await voice.say({ text: 'रुकिए, मुझे कुछ पूछना है', language: 'hi-IN', voice: 'meera' });
    // Backchannels said quickly, as a listener does while the bot talks.
    quickYes = await voice.say({ text: 'हाँ', language: 'hi-IN', voice: 'meera', speed: 1.5 });
    quickHaan = await voice.say({ text: 'haan', language: 'hi-IN', voice: 'aarav', speed: 1.5 });
  } finally {
    await voice.close();
  }
  vad = await SileroVad.load();
  factory = new BargeInDetectorFactory(vad);
  await factory.ready();
});

afterAll(() => vad?.close());

/** Plays `track` for `durationMs` into a detector; frame n covers [n*20, n*20+20) ms and arrives when it is over. */
function run(track: CallerTrack, durationMs: number, detector = new HeardDetector(factory, DEFAULT_MIN_SPEECH_MS)) {
  for (let n = 0; n * FRAME_MS < durationMs; n++) detector.pushMulaw(track.frame(n), (n + 1) * FRAME_MS);
  return { events: detector.events, detector };
}

function noise(ms: number, rms: number, seed = 11): Uint8Array {
  let state = seed;
  const out = new Float32Array(ms * 8);
  for (let i = 0; i < out.length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    out[i] = ((state / 2 ** 32) * 2 - 1) * rms * Math.sqrt(3);
  }
  return pcm16ToMulaw(floatToPcm16(out));
}

describe('BargeInDetector on Silero VAD', () => {
  it('confirms a spoken sentence with an onset within 100 ms of the real one, then reports it stopped', () => {
    for (const atMs of [1000, 1013, 1170]) {
      const track = new CallerTrack([{ atMs, mulaw: sentence, label: 'sentence' }]);
      const realOnsetMs = atMs + onsetOffsetMs(sentence)!;
      const { events, detector } = run(track, 4500);
      const started = events.find((e) => e.type === 'speech_started');
      const stopped = events.find((e) => e.type === 'speech_stopped');
      expect(started, `at ${atMs}`).toBeDefined();
      if (started?.type !== 'speech_started' || stopped?.type !== 'speech_stopped') throw new Error('missing events');
      // A window begins up to 32 ms before the sample that made it speech.
      expect(started.onsetMs).toBeGreaterThanOrEqual(realOnsetMs - 32);
      expect(started.onsetMs).toBeLessThanOrEqual(realOnsetMs + 100);
      expect(started.atMs - started.onsetMs).toBeGreaterThanOrEqual(DEFAULT_MIN_SPEECH_MS);
      expect(started.atMs - started.onsetMs).toBeLessThan(DEFAULT_MIN_SPEECH_MS + 120);
      const spokenMs = sentence.length / 8;
      expect(stopped.durationMs).toBeGreaterThan(spokenMs - 250);
      expect(stopped.durationMs).toBeLessThan(spokenMs + 100);
      expect(events.filter((e) => e.type === 'speech_started')).toHaveLength(1);
      // The leading second of silence never reached the model.
      expect(detector.stats.gated).toBeGreaterThanOrEqual(Math.floor(atMs / 32) - 1);
    }
  });

  it('stays quiet on silence and on line noise, and the gate keeps silence from the model', () => {
    const silent = run(new CallerTrack(), 3000);
    expect(silent.events).toEqual([]);
    expect(silent.detector.stats.inferred).toBe(0);
    const faint = run(new CallerTrack([{ atMs: 0, mulaw: noise(3000, 0.001), label: 'faint hiss' }]), 3000);
    expect(faint.events).toEqual([]);
    expect(faint.detector.stats.inferred).toBe(0);
    const hiss = run(new CallerTrack([{ atMs: 0, mulaw: noise(3000, 0.01), label: 'hiss at -40 dBFS' }]), 3000);
    expect(hiss.events).toEqual([]);
    expect(hiss.detector.stats.inferred).toBeGreaterThan(80);
  });

  it('does not treat a quick filler or a 150 ms burst of speech as barge-in at the default minimum', () => {
    const onset = onsetOffsetMs(sentence)!;
    const burst = sentence.slice(onset * 8, (onset + 150) * 8);
    for (const [label, mulaw] of [['हाँ ×1.5', quickYes], ['haan ×1.5', quickHaan], ['150 ms burst', burst]] as const) {
      const { events } = run(new CallerTrack([{ atMs: 500, mulaw, label }]), 2000);
      expect(events, label).toEqual([]);
    }
    // The same burst does count for a caller configured to react on the slightest sound.
    const eager = run(new CallerTrack([{ atMs: 500, mulaw: burst, label: 'burst' }]), 2000, new HeardDetector(factory, 64));
    expect(eager.events.map((e) => e.type)).toContain('speech_started');
  });

  it('hears the same events when many calls share batched inferences (SileroBatcher)', async () => {
    const batcher = new SileroBatcher(vad);
    const batched = new BargeInDetectorFactory(batcher);
    await batched.ready();
    // Eight calls, the sentence at a different moment in each; every call's frame n arrives in the same turn.
    const tracks = Array.from({ length: 8 }, (_, i) => new CallerTrack([{ atMs: 300 + 97 * i, mulaw: sentence, label: `call ${i}` }]));
    const detectors = tracks.map(() => new HeardDetector(batched, DEFAULT_MIN_SPEECH_MS));
    for (let n = 0; n * FRAME_MS < 4000; n++) {
      tracks.forEach((track, i) => detectors[i]!.pushMulaw(track.frame(n), (n + 1) * FRAME_MS));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // Windows asked for within 4 ms of an inference wait for the next one, on real time.
    while (batcher.waiting > 0) await new Promise<void>((resolve) => setTimeout(resolve, 1));
    tracks.forEach((track, i) => {
      const alone = run(track, 4000);
      expect(alone.events.map((e) => e.type), `call ${i}`).toEqual(['speech_started', 'speech_stopped']);
      expect(detectors[i]!.events, `call ${i}`).toEqual(alone.events);
    });
    // Windows of several calls went through one inference.
    expect(batcher.stats.windows / batcher.stats.batches).toBeGreaterThan(2);
  });

  it('reset() forgets speech in progress; the next speech is confirmed afresh', () => {
    const detector = new HeardDetector(factory, DEFAULT_MIN_SPEECH_MS);
    const track = new CallerTrack([
      { atMs: 200, mulaw: sentence, label: 'first' },
      { atMs: 4000, mulaw: sentence, label: 'second' },
    ]);
    const events: VoiceActivityEvent[] = [];
    for (let n = 0; n * FRAME_MS < 6500; n++) {
      const atMs = (n + 1) * FRAME_MS;
      if (atMs === 1000) {
        expect(detector.speaking).toBe(true);
        detector.reset();
        expect(detector.speaking).toBe(false);
      }
      events.push(...detector.pushMulaw(track.frame(n), atMs));
    }
    const starts = events.filter((e) => e.type === 'speech_started');
    // Once before the reset; after it, possibly again within the first sentence, and surely for the second.
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(starts.at(-1)).toMatchObject({ type: 'speech_started' });
    expect((starts.at(-1) as { onsetMs: number }).onsetMs).toBeGreaterThanOrEqual(4000);
    expect(FRAME_BYTES).toBe(160);
  });
});
