// Barge-in judges the caller's audio, so its decisions must not depend on how that audio arrived: the same caller
// track (a filler, silence, a long interruption, silence) delivered smoothly (one 20 ms frame every 20 ms), in 100 ms
// bursts, and with 300 ms stalls each followed by a burst, through a real CallSession (real Silero VAD behind the
// process's batcher, real eSpeak bot) on the fake clock, gives the same holds, the same outcomes, the same suspect ids
// and the same decision times on the caller's audio. What the bot had played when a hold began is not compared: a
// stall really does let the bot play on until the audio that holds it arrives.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_FRAME_MS } from '../../../src/audio/mulaw.js';
import { SileroBatcher } from '../../../src/engine/vad/silero-batcher.js';
import { SileroVad } from '../../../src/engine/vad/silero-vad.js';
import { DEFAULT_BARGE_IN_POLICY } from '../../../src/session/barge-in/barge-in-controller.js';
import { BargeInDetectorFactory } from '../../../src/session/barge-in/barge-in-detector.js';
import { CallerTrack } from '../../../src/sim/caller-audio.js';
import { CallerVoice } from '../../../src/sim/caller-speech.js';
import { AHEAD_MS, bargeInDecisions, playCaller, smoothArrival, startCall, until } from '../../helpers/call-session-harness.js';
import { useEspeakEngine } from '../../helpers/espeak-engine.js';

const espeak = useEspeakEngine();
const MANIFEST = new URL('../../../models/raaga-v1/manifest.json', import.meta.url).pathname;
const LONG = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(4);
const HOLDS = { mode: 'any', minSpeechMs: 250, onlyWhileBotSpeaking: true, suspect: 'vad', policy: DEFAULT_BARGE_IN_POLICY, events: 2 } as const;

let vad: SileroVad;
let batcher: SileroBatcher;
let factory: BargeInDetectorFactory;
/** The caller's line in each scenario. */
const tracks: Record<string, CallerTrack> = {};

beforeAll(async () => {
  const voice = await CallerVoice.start(MANIFEST);
  try {
    // The clips of test/e2e/telephony-barge-in.test.ts: "हाँ" resumes, the sentence commits.
    const filler = await voice.say({ text: 'हाँ', language: 'hi-IN' });
    const interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
    tracks['a filler, then an interruption'] = new CallerTrack([
      { atMs: 1500, mulaw: filler, label: 'filler' },
      { atMs: 4000, mulaw: interruption, label: 'interruption' },
    ]);
    // A short word, a pause (eSpeak's own, at a full stop), and the rest: one interruption (bench/barge-in-pauses.ts).
    const continuing = await voice.say({ text: 'Stop. I want to talk to an agent.', language: 'en-IN', voice: 'vikram', speed: 1.25 });
    tracks['a caller who pauses and goes on'] = new CallerTrack([{ atMs: 1500, mulaw: continuing, label: 'continuing' }]);
  } finally {
    await voice.close();
  }
  vad = await SileroVad.load();
  batcher = new SileroBatcher(vad);
  factory = new BargeInDetectorFactory(batcher);
  await factory.ready();
});

afterAll(() => vad?.close());

/** When frame n (audio [20n, 20n + 20) ms of the call) reaches the server, on the clock, per arrival pattern. */
const ARRIVALS: Record<string, (n: number) => number> = {
  smooth: smoothArrival,
  'bursts of 100 ms': (n) => Math.ceil(((n + 1) * PHONE_FRAME_MS) / 100) * 100,
  // Every 700 ms, 300 ms in which nothing arrives; what was spoken meanwhile arrives at once at its end. The stalls
  // start at several phases, so that one lands on each edge of each sound.
  ...Object.fromEntries(
    [0, 100, 200, 300, 400, 500, 600].map((phaseMs) => [
      `300 ms stalls from ${phaseMs} ms`,
      (n: number) => {
        const endMs = (n + 1) * PHONE_FRAME_MS;
        const stallStartMs = Math.floor((endMs - phaseMs) / 700) * 700 + phaseMs;
        return endMs >= stallStartMs && endMs < stallStartMs + 300 ? stallStartMs + 300 : endMs;
      },
    ]),
  ),
};

/** Plays the caller track into a call speaking LONG, frames arriving as `arrival` says; returns its barge-in decisions. */
async function decisions(track: CallerTrack, arrival: (n: number) => number): Promise<string[]> {
  const { call, ports, clock } = await startCall(espeak.engine, factory, { bargeIn: HOLDS });
  call.say({ text: LONG, utteranceId: 'long' });
  await until(() => ports.mediaMs() >= AHEAD_MS, 'the bot speaking');
  await playCaller(call, clock, track, 2000, arrival);
  // The batcher answers on real time (at most one inference per 4 ms): the call ends once its last windows are judged.
  await until(() => batcher.waiting === 0, 'the VAD answering');
  await clock.advance(100);
  await call.end('stop');
  return bargeInDecisions(ports);
}

describe('barge-in decisions do not depend on how the caller audio arrives', () => {
  it('smooth, bursty and stalled arrival of the same caller audio decide the same', async () => {
    const each: Record<string, Record<string, string[]>> = {};
    for (const [scenario, track] of Object.entries(tracks)) {
      each[scenario] = {};
      for (const [name, arrival] of Object.entries(ARRIVALS)) each[scenario][name] = await decisions(track, arrival);
    }
    // The filler held the bot and gave it back; the interruption held it and cut it.
    expect(each['a filler, then an interruption']!.smooth).toEqual([
      expect.stringMatching(/^held s1 /),
      expect.stringMatching(/^resumed s1 short /),
      expect.stringMatching(/^held s2 /),
      expect.stringMatching(/^interrupted s2 (duration|policy) /),
    ]);
    const same = Object.fromEntries(Object.entries(each).map(([scenario, byArrival]) => [scenario, Object.fromEntries(Object.keys(ARRIVALS).map((name) => [name, byArrival.smooth]))]));
    expect(each).toEqual(same);
  }, 240_000);
});
