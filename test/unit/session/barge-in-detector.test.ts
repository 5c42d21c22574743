// The detector's state machine and timing with a stand-in probability model that maps loudness to probability:
// windows are written as characters ('#' speech 0.9, '+' between thresholds 0.4, '.' audible non-speech 0.1,
// '_' near silence that the energy gate keeps from the model), so every edge is exact. Real Silero runs in
// test/integration/session/barge-in-detector.test.ts.

import { describe, expect, it } from 'vitest';
import { pcm16ToMulaw } from '../../../src/audio/mulaw.js';
import type { VoiceActivityEvent } from '../../../src/session/barge-in/barge-in-contract.js';
import { HeardDetector } from '../../helpers/heard-detector.js';
import {
  BargeInDetectorFactory,
  DEFAULT_MIN_SPEECH_MS,
  type SpeechProbabilityModel,
  type SpeechProbabilityStream,
} from '../../../src/session/barge-in/barge-in-detector.js';

const LEVELS: Record<string, number> = { '#': 0.3, '+': 0.08, '.': 0.01, _: 0 };

class LoudnessModel implements SpeechProbabilityModel {
  readonly windowSamples = 256;
  readonly sampleRateHz = 8000;
  calls = 0;
  resets = 0;
  skips = 0;
  createStream(): SpeechProbabilityStream {
    return {
      score: (window, answer) => {
        this.calls++;
        answer(loudness(window));
      },
      skip: () => void this.skips++,
      reset: () => void this.resets++,
    };
  }
}

function loudness(window: Float32Array): number {
  const peak = window.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
  return peak > 0.2 ? 0.9 : peak > 0.05 ? 0.4 : 0.1;
}

/** The same answers, given only when the test releases them (as a model batching many calls' windows does). */
class DeferredModel implements SpeechProbabilityModel {
  readonly windowSamples = 256;
  readonly sampleRateHz = 8000;
  readonly waiting: (() => void)[] = [];
  createStream(): SpeechProbabilityStream {
    return {
      score: (window, answer) => {
        const p = loudness(window);
        this.waiting.push(() => answer(p));
      },
      skip: () => undefined,
      reset: () => undefined,
    };
  }
  /** Answers the oldest `count` requests (all by default). */
  release(count = this.waiting.length): void {
    for (const answer of this.waiting.splice(0, count)) answer();
  }
}

/** One 256-sample window per character, as a square wave of that level, mu-law encoded. */
function audio(pattern: string): Uint8Array {
  const pcm = new Int16Array(pattern.length * 256);
  [...pattern].forEach((char, w) => {
    const level = LEVELS[char];
    if (level === undefined) throw new Error(`bad pattern char ${char}`);
    for (let i = 0; i < 256; i++) pcm[w * 256 + i] = Math.round((i % 2 === 0 ? 1 : -1) * level * 32767);
  });
  return pcm16ToMulaw(pcm);
}

/** Feeds `bytes` in frames of `frameBytes`, each received when its audio is over (startMs + end offset / 8). */
function feed(detector: HeardDetector, bytes: Uint8Array, frameBytes = 160, startMs = 0): VoiceActivityEvent[] {
  const events: VoiceActivityEvent[] = [];
  for (let offset = 0; offset < bytes.length; offset += frameBytes) {
    const frame = bytes.subarray(offset, offset + frameBytes);
    events.push(...detector.pushMulaw(frame, startMs + (offset + frame.length) / 8));
  }
  return events;
}

async function setup(minSpeechMs = 250) {
  const model = new LoudnessModel();
  const factory = new BargeInDetectorFactory(model);
  await factory.ready();
  return { model, detector: new HeardDetector(factory, minSpeechMs) };
}

describe('BargeInDetector state machine', () => {
  it('exports the documented default', () => {
    expect(DEFAULT_MIN_SPEECH_MS).toBe(250);
  });

  it('confirms speech after minSpeechMs with the onset of the first speech window, and stops after the hangover', async () => {
    const { detector } = await setup(250);
    const events = feed(detector, audio(`..${'#'.repeat(8)}${'_'.repeat(20)}`));
    // Window 2 starts at 64 ms; the 8th speech window (index 9) ends at sample 2560, in the frame received at 320 ms.
    // Ten silent windows (320 ms >= 300 ms hangover) end with window 19 at sample 5120, in the frame at 640 ms.
    expect(events).toEqual([
      { type: 'speech_started', onsetMs: 64, atMs: 320 },
      { type: 'speech_stopped', atMs: 640, durationMs: 256 },
    ]);
    expect(detector.speaking).toBe(false);
  });

  it('ignores speech shorter than minSpeechMs (a filler)', async () => {
    const { detector } = await setup(250);
    expect(feed(detector, audio(`..${'#'.repeat(7)}${'_'.repeat(20)}`))).toEqual([]);
  });

  it('starts at the start threshold only, then holds speech down to the stop threshold (hysteresis)', async () => {
    const { detector } = await setup(250);
    expect(feed(detector, audio(`${'+'.repeat(12)}__`))).toEqual([]);
    const events = feed(detector, audio(`#${'+'.repeat(8)}${'.'.repeat(12)}`), 160, 1000);
    expect(events.map((e) => e.type)).toEqual(['speech_started', 'speech_stopped']);
    expect(events[0]).toMatchObject({ onsetMs: 1000 });
  });

  it('tolerates a pause of three windows before confirming, not four', async () => {
    const short = await setup(250);
    expect(feed(short.detector, audio(`###...#####${'_'.repeat(12)}`))[0]).toMatchObject({ type: 'speech_started', onsetMs: 0 });
    const long = await setup(250);
    expect(feed(long.detector, audio(`###....#####${'_'.repeat(12)}`))).toEqual([]);
  });

  it('keeps near-silent windows from the model and restarts its state after a long gated stretch', async () => {
    const { model, detector } = await setup();
    feed(detector, audio('_'.repeat(30)));
    expect(detector.stats).toEqual({ windows: 30, inferred: 0, gated: 30 });
    expect(model.calls).toBe(0);
    expect(model.skips).toBe(30);
    feed(detector, audio('....'));
    expect(detector.stats).toEqual({ windows: 34, inferred: 4, gated: 30 });
    expect(model.resets).toBe(1);
    feed(detector, audio('_.'));
    // A one-window gated stretch is too short to restart the state.
    expect(model.resets).toBe(1);
  });

  it('reports window times from the frames it was given, whatever the frame size', async () => {
    for (const frameBytes of [160, 320, 100, 1]) {
      const { detector } = await setup(64);
      const events = feed(detector, audio(`...##${'_'.repeat(10)}`), frameBytes, 5000);
      expect(events[0], `frame ${frameBytes}`).toMatchObject({ type: 'speech_started', onsetMs: 5096 });
      // atMs is the time of the frame that completed the confirming window (ends at sample 1280).
      const end = 1280;
      expect((events[0] as { atMs: number }).atMs, `frame ${frameBytes}`).toBe(5000 + (Math.ceil(end / frameBytes) * frameBytes) / 8);
    }
  });

  it('reset() drops a half-heard onset and buffered samples; close() silences the detector', async () => {
    const { detector } = await setup(250);
    feed(detector, audio('#####'));
    detector.reset();
    expect(feed(detector, audio(`####${'_'.repeat(12)}`))).toEqual([]);
    feed(detector, audio('#'.repeat(10)));
    expect(detector.speaking).toBe(true);
    detector.reset();
    expect(detector.speaking).toBe(false);
    detector.close();
    expect(feed(detector, audio('#'.repeat(12)))).toEqual([]);
  });

  it('with minSpeechMs 0 confirms on the first speech window', async () => {
    const { detector } = await setup(0);
    // 512 samples arrive as 160+160+160+32 bytes; the last, short frame completes the window at 64 ms.
    expect(feed(detector, audio('_#'))).toEqual([{ type: 'speech_started', onsetMs: 32, atMs: 64 }]);
  });
});

describe('BargeInDetector suspect layer (longSpeechMs set)', () => {
  async function suspecting(longSpeechMs = 500) {
    const model = new LoudnessModel();
    const factory = new BargeInDetectorFactory(model);
    await factory.ready();
    return { model, detector: new HeardDetector(factory, 250, longSpeechMs) };
  }

  it('one window at the suspect threshold opens a span, and the staggered stream sees it half a window sooner', async () => {
    const { detector } = await suspecting();
    // Window 2 (64-96 ms) is between thresholds: never speech for the main machine. The staggered stream's window
    // 48-80 ms holds half of it and is judged when the frame ending at 80 ms arrives, 20 ms before window 2 is.
    // The span's last speech ends with the staggered window 80-112 ms; 128 ms of silence after it ends the span.
    expect(feed(detector, audio(`..+....${'_'.repeat(10)}`))).toEqual([
      { type: 'suspect_started', onsetMs: 48, atMs: 80 },
      { type: 'suspect_ended', atMs: 240, extentMs: 64 },
    ]);
    expect(detector.speaking).toBe(false);
  });

  it('reports long speech once while it goes on, the span end, and the confirmed speech as before', async () => {
    const { detector } = await suspecting(500);
    expect(feed(detector, audio(`${'#'.repeat(20)}${'_'.repeat(10)}`))).toEqual([
      { type: 'suspect_started', onsetMs: 0, atMs: 40 },
      { type: 'speech_started', onsetMs: 0, atMs: 260 },
      // The first window ending 500 ms or more after the onset: the main stream's 480-512 ms.
      { type: 'suspect_long', atMs: 520, extentMs: 512 },
      // Speech ends with the staggered window 624-656 ms (half speech); its span ends 128 ms later.
      { type: 'suspect_ended', atMs: 800, extentMs: 656 },
      { type: 'speech_stopped', atMs: 960, durationMs: 640 },
    ]);
  });

  it('a new long threshold applies to the next span; without the layer there are no suspect events', async () => {
    const { detector } = await suspecting(500);
    detector.detector.setLongSpeechMs(200);
    const events = feed(detector, audio(`${'#'.repeat(8)}${'_'.repeat(10)}`));
    expect(events.filter((e) => e.type === 'suspect_long')).toEqual([{ type: 'suspect_long', atMs: 220, extentMs: 208 }]);
    expect(() => detector.detector.setLongSpeechMs(0)).toThrow(RangeError);
    const plain = await setup(250);
    expect(feed(plain.detector, audio(`${'#'.repeat(20)}${'_'.repeat(10)}`)).map((e) => e.type)).toEqual(['speech_started', 'speech_stopped']);
  });
});

describe('BargeInDetector with a model that answers later', () => {
  it('judges windows in order once their answers come, with the same events and times as an immediate model', async () => {
    const pattern = `..${'#'.repeat(8)}${'_'.repeat(4)}${'#'.repeat(2)}${'_'.repeat(16)}`;
    const immediate = await setup(250);
    const expected = feed(immediate.detector, audio(pattern));
    const model = new DeferredModel();
    const factory = new BargeInDetectorFactory(model);
    await factory.ready();
    const later = new HeardDetector(factory, 250);
    // Nothing is judged before its answer: gated windows behind an unanswered one wait too.
    expect(feed(later, audio(pattern))).toEqual([]);
    expect(later.stats.windows).toBe(0);
    // Answers released one at a time still give each event exactly once, in order.
    while (model.waiting.length > 0) model.release(1);
    expect(later.events).toEqual(expected);
    expect(later.stats).toEqual(immediate.detector.stats);
  });

  it('judges the two streams in the order their windows were spoken, however the answers come, and says how far', async () => {
    // The main stream answers at once, the staggered one only when released (a batch it missed): its windows must
    // still be judged between the main ones, or a span would end on a later quiet window before an earlier voiced one.
    const pattern = `..${'#'.repeat(5)}${'+'.repeat(2)}${'_'.repeat(6)}${'#'.repeat(3)}${'_'.repeat(12)}`;
    const run = async (model: SpeechProbabilityModel, release: () => void) => {
      const factory = new BargeInDetectorFactory(model);
      await factory.ready();
      const log: string[] = [];
      let judged = 0;
      const detector = factory.create({ minSpeechMs: 250, longSpeechMs: 500 }, (event) => log.push(`${event.type}@${event.atMs} judged=${judged}`), (atMs) => {
        expect(atMs).toBeGreaterThan(judged);
        judged = atMs;
      });
      const bytes = audio(pattern);
      for (let offset = 0; offset < bytes.length; offset += 160) {
        detector.pushMulaw(bytes.subarray(offset, offset + 160), (offset + 160) / 8);
        if ((offset / 160) % 5 === 4) release();
      }
      release();
      return { log, judged };
    };
    const immediate = await run(new LoudnessModel(), () => undefined);
    const held: (() => void)[] = [];
    let streams = 0;
    const staggeredLate: SpeechProbabilityModel = {
      windowSamples: 256,
      sampleRateHz: 8000,
      createStream: () => {
        const late = streams++ === 1;
        return {
          score: (window, answer) => {
            const p = loudness(window);
            if (late) held.push(() => answer(p));
            else answer(p);
          },
          skip: () => undefined,
          reset: () => undefined,
        };
      },
    };
    const late = await run(staggeredLate, () => held.splice(0).forEach((answer) => answer()));
    expect(immediate.log.length).toBeGreaterThan(2);
    expect(late).toEqual(immediate);
    expect(late.judged).toBe(audio(pattern).length / 8);
  });

  it('drops answers for windows a reset or close left behind', async () => {
    const model = new DeferredModel();
    const factory = new BargeInDetectorFactory(model);
    await factory.ready();
    const detector = new HeardDetector(factory, 64);
    feed(detector, audio('####'));
    detector.reset();
    model.release();
    expect(detector.events).toEqual([]);
    expect(detector.stats.windows).toBe(0);
    feed(detector, audio('####'));
    detector.close();
    model.release();
    expect(detector.events).toEqual([]);
  });
});

describe('BargeInDetectorFactory', () => {
  it('hears nothing until the model has loaded, then works', async () => {
    let resolve!: (model: SpeechProbabilityModel) => void;
    const factory = new BargeInDetectorFactory(new Promise<SpeechProbabilityModel>((r) => (resolve = r)));
    const detector = new HeardDetector(factory, 64);
    expect(feed(detector, audio('#'.repeat(6)))).toEqual([]);
    resolve(new LoudnessModel());
    await factory.ready();
    expect(feed(detector, audio('##'))).toHaveLength(1);
  });

  it('refuses a model with another window geometry, and bad settings', async () => {
    const wrong = { windowSamples: 512, sampleRateHz: 16000, createStream: () => new LoudnessModel().createStream() };
    await expect(new BargeInDetectorFactory(wrong).ready()).rejects.toThrow(/512 samples at 16000 Hz/);
    expect(() => new BargeInDetectorFactory(new LoudnessModel(), { startThreshold: 0.3, stopThreshold: 0.4 })).toThrow(RangeError);
    expect(() => new BargeInDetectorFactory(new LoudnessModel()).create({ minSpeechMs: -1 }, () => undefined)).toThrow(RangeError);
  });
});
