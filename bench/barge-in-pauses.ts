// What separates a caller who pauses and goes on ("stop, … I want to talk to an agent") from one who made a sound and
// stopped: the gap the barge-in controller sees between the end of one suspect span (`suspect_ended`) and the start
// of the next (`suspect_started`), measured with the real detector (Silero v5, two staggered streams, 20 ms frames)
// on eSpeak speech of every catalog voice at 0.8-1.5x. Continuing utterances: a command, a pause (comma, ellipsis,
// full stop), then the request. The continuation window (CONTINUATION_MS in src/session/barge-in/barge-in-controller.ts)
// must cover these gaps; every millisecond of it is added to the silence a filler costs.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SileroVad } from '../src/engine/vad/silero-vad.js';
import type { LanguageCode } from '../src/languages.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { DEFAULT_BARGE_IN_POLICY } from '../src/session/barge-in/barge-in-controller.js';
import { BargeInDetectorFactory, DEFAULT_MIN_SPEECH_MS } from '../src/session/barge-in/barge-in-detector.js';
import { CallerTrack } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { HeardDetector } from '../test/helpers/heard-detector.js';
import { percentile, round, summary, writeResult } from './lib/stats.js';

/** A command, a pause, and the rest of what the caller wanted to say. */
export const CONTINUING: readonly { readonly text: string; readonly language: LanguageCode; readonly pause: 'comma' | 'ellipsis' | 'stop' }[] = [
  { text: 'stop, … I want to talk to an agent.', language: 'en-IN', pause: 'ellipsis' },
  { text: 'stop, I want to talk to an agent.', language: 'en-IN', pause: 'comma' },
  { text: 'Stop. I want to talk to an agent.', language: 'en-IN', pause: 'stop' },
  { text: 'wait, … I have a question.', language: 'en-IN', pause: 'ellipsis' },
  { text: 'no no, that is not what I asked.', language: 'en-IN', pause: 'comma' },
  { text: 'रुको, … मुझे एजेंट से बात करनी है।', language: 'hi-IN', pause: 'ellipsis' },
  { text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN', pause: 'comma' },
  { text: 'नहीं। मेरा सवाल कुछ और है।', language: 'hi-IN', pause: 'stop' },
  { text: 'एक मिनट, … मैं बताता हूँ।', language: 'hi-IN', pause: 'ellipsis' },
];
const SPEEDS = [0.8, 1, 1.25, 1.5];
const FRAME_MS = 20;

const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = join(root, 'models/raaga-v1/manifest.json');
const voices = loadVoiceCatalog(manifest).voices().map((v) => v.name);
const caller = await CallerVoice.start(manifest);
const vad = await SileroVad.load();
const factory = new BargeInDetectorFactory(vad);
await factory.ready();

interface Gap {
  readonly text: string;
  readonly pause: string;
  readonly voice: string;
  readonly speed: number;
  /** suspect_ended → next suspect_started, as the controller sees them (frame arrival times). */
  readonly gapMs: number;
}
const gaps: Gap[] = [];
/** Utterances that made one span only (no gap the controller could see). */
let oneSpan = 0;
let clips = 0;
try {
  for (const item of CONTINUING) {
    for (const voice of voices) {
      for (const speed of SPEEDS) {
        const mulaw = await caller.say({ text: item.text, language: item.language, voice, speed });
        const track = new CallerTrack([{ atMs: 500, mulaw, label: item.text }]);
        const detector = new HeardDetector(factory, DEFAULT_MIN_SPEECH_MS, DEFAULT_BARGE_IN_POLICY.longMinMs);
        const endMs = track.endMs() + 1500;
        for (let n = 0; n * FRAME_MS < endMs; n++) detector.pushMulaw(track.frame(n), (n + 1) * FRAME_MS);
        detector.close();
        clips++;
        let endedAt: number | undefined;
        let spans = 0;
        for (const event of detector.events) {
          if (event.type === 'suspect_ended') endedAt = event.atMs;
          if (event.type === 'suspect_started') {
            spans++;
            if (endedAt !== undefined) gaps.push({ text: item.text, pause: item.pause, voice, speed, gapMs: event.atMs - endedAt });
          }
        }
        if (spans <= 1) oneSpan++;
      }
    }
  }
} finally {
  await caller.close();
  vad.close();
}

const byPause = Object.fromEntries(
  ['comma', 'ellipsis', 'stop'].map((pause) => [pause, summary(gaps.filter((g) => g.pause === pause).map((g) => g.gapMs))]),
);
const all = gaps.map((g) => g.gapMs);
const widest = [...gaps].sort((a, b) => b.gapMs - a.gapMs).slice(0, 5);
const file = await writeResult('barge-in-pauses', {
  what: 'suspect_ended → next suspect_started inside one continuing utterance (command, pause, request), real detector on eSpeak speech, 20 ms frames',
  clips,
  voices: voices.length,
  speeds: SPEEDS,
  clipsWithOneSpan: oneSpan,
  gapsMs: summary(all),
  p99Ms: round(percentile(all, 99)),
  byPause,
  widest,
});
console.log(`pauses inside continuing utterances (${clips} clips, ${gaps.length} gaps, ${oneSpan} clips one span): ${JSON.stringify(summary(all))} p99 ${percentile(all, 99)}; by pause ${JSON.stringify(byPause)} → ${file}`);
console.log('widest:', widest);
