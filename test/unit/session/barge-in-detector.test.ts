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

describe('BargeInDetector: the staggered stream runs only while an onset matters', () => {
  /** A LoudnessModel that counts each stream's runs and resets apart (stream 1 is the staggered one). */
  class CountingModel implements SpeechProbabilityModel {
    readonly windowSamples = 256;
    readonly sampleRateHz = 8000;
    readonly calls: number[] = [];
    readonly resets: number[] = [];
    readonly waiting: (() => void)[] = [];
    /** `lateStreams`: streams (by creation order) whose answers wait for release(). */
    constructor(private readonly lateStreams: ReadonlySet<number> = new Set()) {}
    createStream(): SpeechProbabilityStream {
      const index = this.calls.push(0) - 1;
      this.resets.push(0);
      return {
        score: (window, answer) => {
          this.calls[index]!++;
          const p = loudness(window);
          if (this.lateStreams.has(index)) this.waiting.push(() => answer(p));
          else answer(p);
        },
        skip: () => undefined,
        reset: () => void this.resets[index]!++,
      };
    }
    release(): void {
      for (const answer of this.waiting.splice(0)) answer();
    }
  }

  async function hunting(options: { huntThreshold?: number; onsetMatters?: (events: readonly VoiceActivityEvent[]) => boolean; model?: CountingModel } = {}) {
    const model = options.model ?? new CountingModel();
    const factory = new BargeInDetectorFactory(model, options.huntThreshold === undefined ? {} : { huntThreshold: options.huntThreshold });
    await factory.ready();
    const events: VoiceActivityEvent[] = [];
    const matters = options.onsetMatters;
    const detector = factory.create({ minSpeechMs: 250, longSpeechMs: 500, onsetMatters: matters && (() => matters(events)) }, (event) => events.push(event));
    let atMs = 0;
    /** Plays `pattern` on from where the last one ended; `each` runs after every frame. */
    const play = (pattern: string, each?: (frame: number) => void) => {
      const bytes = audio(pattern);
      for (let offset = 0; offset < bytes.length; offset += 160) {
        atMs += 20;
        detector.pushMulaw(bytes.subarray(offset, offset + 160), atMs);
        each?.(offset / 160);
      }
    };
    return { model, detector, events, play };
  }

  // Audible non-speech ('.', 0.1), then speech, then silence.
  const NOISE_THEN_SPEECH = `${'.'.repeat(10)}${'#'.repeat(10)}${'_'.repeat(12)}`;

  it('by default (an onset always matters): every audible staggered window runs, as before', async () => {
    const { model, detector, events, play } = await hunting();
    play(NOISE_THEN_SPEECH);
    // The staggered window 304-336 ms (half noise, half speech) opens the span half a window before the main one.
    expect(events[0]).toEqual({ type: 'suspect_started', onsetMs: 304, atMs: 340 });
    expect(detector.staggeredStats).toMatchObject({ inferred: 20, unheard: 0 });
    expect(model.calls).toEqual([20, 20]);
  });

  it('runs nothing while no onset matters; the main stream still gives every event it gives', async () => {
    const pattern = `..${'#'.repeat(10)}${'_'.repeat(12)}`;
    const off = await hunting({ onsetMatters: () => false });
    off.play(pattern);
    expect(off.model.calls[1]).toBe(0);
    expect(off.detector.staggeredStats).toMatchObject({ inferred: 0, unheard: 12 });
    // Spans open and end on main windows only (multiples of 32 ms); confirmed speech is the main stream's alone.
    expect(off.events).toEqual([
      { type: 'suspect_started', onsetMs: 64, atMs: 100 },
      { type: 'speech_started', onsetMs: 64, atMs: 320 },
      { type: 'suspect_ended', atMs: 520, extentMs: 320 },
      { type: 'speech_stopped', atMs: 720, durationMs: 320 },
    ]);
    const always = await hunting();
    always.play(pattern);
    expect(off.events.filter((e) => e.type.startsWith('speech'))).toEqual(always.events.filter((e) => e.type.startsWith('speech')));
  });

  it('runs again once an onset matters, from a fresh state: the model missed what came between', async () => {
    // Speech while nothing may be held (unheard), quiet noise, then the bot may be held and the caller speaks again.
    let matters = false;
    const rule = await hunting({ onsetMatters: () => matters });
    rule.play(`${'#'.repeat(3)}${'.'.repeat(8)}`);
    matters = true;
    rule.play(`${'.'.repeat(2)}${'#'.repeat(3)}${'_'.repeat(12)}`);
    expect(rule.detector.staggeredStats).toMatchObject({ unheard: 11, inferred: 5 });
    expect(rule.model.resets[1]).toBe(1);
    // Always on, nothing was missed and no gated stretch was long: no reset.
    const always = await hunting();
    always.play(`${'#'.repeat(3)}${'.'.repeat(10)}${'#'.repeat(3)}${'_'.repeat(12)}`);
    expect(always.model.resets[1]).toBe(0);
  });

  it('decides each staggered window when the main window before it is judged, however late the main stream answers', async () => {
    // An onset matters from the end of the first span on (a listener whose state moves with the events, as a call's).
    const onsetMatters = (events: readonly VoiceActivityEvent[]) => events.some((e) => e.type === 'suspect_ended');
    const pattern = `${'.'.repeat(6)}${'#'.repeat(4)}${'.'.repeat(9)}${'#'.repeat(9)}${'_'.repeat(12)}`;
    const immediate = await hunting({ onsetMatters });
    immediate.play(pattern);
    // The main stream answers only every 7 frames: staggered windows are cut before their decision is known.
    const late = await hunting({ onsetMatters, model: new CountingModel(new Set([0])) });
    late.play(pattern, (frame) => {
      if (frame % 7 === 6) late.model.release();
    });
    late.model.release();
    expect(immediate.events.filter((e) => e.type === 'suspect_started')).toHaveLength(2);
    expect(immediate.detector.staggeredStats!.unheard).toBeGreaterThan(0);
    expect(immediate.detector.staggeredStats!.inferred).toBeGreaterThan(0);
    expect(late.events).toEqual(immediate.events);
    expect(late.detector.staggeredStats).toEqual(immediate.detector.staggeredStats);
    expect(late.model.calls).toEqual(immediate.model.calls);
    expect(late.model.resets).toEqual(immediate.model.resets);
  });

  it('reset() forgets decisions not yet used: windows pair again from the start', async () => {
    const late = await hunting({ onsetMatters: () => true, model: new CountingModel(new Set([0])) });
    // Five windows (160 ms): the staggered windows cut wait for decisions that the reset drops.
    late.play('..###');
    expect(late.model.waiting.length).toBeGreaterThan(0);
    late.detector.reset();
    late.model.release();
    const fresh = await hunting({ onsetMatters: () => true });
    // Both go on from a call time of 160 ms, so that the windows' times agree.
    fresh.play('_____');
    late.play(NOISE_THEN_SPEECH);
    late.model.release();
    fresh.play(NOISE_THEN_SPEECH);
    expect(late.events).toEqual(fresh.events);
    expect(late.detector.staggeredStats).toMatchObject({ unheard: 0 });
  });

  it('a listener that resets the detector on an event starts both streams over, paired from their first windows', async () => {
    // The main stream answers late, so the event (and the reset) comes between frames, as a batch's answers do.
    const model = new CountingModel(new Set([0]));
    const factory = new BargeInDetectorFactory(model);
    await factory.ready();
    const events: VoiceActivityEvent[] = [];
    let resetOnce = true;
    // Says no right after the reset: a decision made for the window before it must not reach the new windows.
    let matters = true;
    const detector = factory.create({ minSpeechMs: 250, longSpeechMs: 500, onsetMatters: () => matters }, (event) => {
      events.push(event);
      if (event.type === 'suspect_started' && resetOnce) {
        resetOnce = false;
        detector.reset();
        matters = false;
      }
    });
    const first = audio('###..');
    for (let offset = 0; offset < first.length; offset += 160) detector.pushMulaw(first.subarray(offset, offset + 160), (offset + 160) / 8);
    model.release();
    matters = true;
    expect(events.map((e) => e.type)).toEqual(['suspect_started']);
    // A detector that hears only what comes after the reset.
    const freshFactory = new BargeInDetectorFactory(new CountingModel());
    await freshFactory.ready();
    const freshEvents: VoiceActivityEvent[] = [];
    const heard = freshFactory.create({ minSpeechMs: 250, longSpeechMs: 500, onsetMatters: () => true }, (event) => freshEvents.push(event));
    const rest = audio(NOISE_THEN_SPEECH);
    for (let offset = 0; offset < rest.length; offset += 160) {
      detector.pushMulaw(rest.subarray(offset, offset + 160), 160 + (offset + 160) / 8);
      model.release();
      heard.pushMulaw(rest.subarray(offset, offset + 160), 160 + (offset + 160) / 8);
    }
    expect(freshEvents.length).toBeGreaterThan(2);
    expect(events.slice(1)).toEqual(freshEvents);
    expect(detector.staggeredStats).toMatchObject({ unheard: 0, inferred: heard.staggeredStats!.inferred });
  });

  it('huntThreshold (off by default) also skips the windows after quiet main ones, unless a span is open', async () => {
    const { model, detector, events, play } = await hunting({ huntThreshold: 0.2 });
    play(NOISE_THEN_SPEECH);
    // Main windows of noise score 0.1: the staggered windows after them are unheard, the one over the onset too, so
    // the main stream sees the onset half a window later than always on.
    expect(events[0]).toEqual({ type: 'suspect_started', onsetMs: 320, atMs: 360 });
    expect(detector.staggeredStats).toMatchObject({ inferred: 10, unheard: 10 });
    expect(model.calls).toEqual([20, 10]);
    // The span keeps it running to the span's end: speech, a dip between thresholds, quiet noise.
    const pattern = `${'#'.repeat(6)}+${'.'.repeat(10)}${'_'.repeat(12)}`;
    const rule = await hunting({ huntThreshold: 0.2 });
    rule.play(pattern);
    const always = await hunting();
    always.play(pattern);
    expect(rule.events).toEqual(always.events);
    expect(rule.detector.staggeredStats!.unheard).toBeGreaterThan(0);
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
    // Released as the batcher answers: round after round until nothing waits (a staggered window is asked for only
    // once the main window before it is judged, which an answer may bring).
    const late = await run(staggeredLate, () => {
      while (held.length > 0) held.splice(0).forEach((answer) => answer());
    });
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
