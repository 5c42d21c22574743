// Barge-in with callers in voices Raaga does not ship (issue 42): Debian's espeak-ng voices and variants at 140, 175
// and 220 words a minute, Flite's built-in voices and Festival, all rendered here at run time (test/helpers/
// other-speakers.ts). Two classes, each at many offsets into the bot's speech:
//  - continuing: a command, a pause of 100-300 ms, then the request ("stop, … I want to talk to an agent"): one
//    interruption, so the caller must never hear the bot again after the first clear;
//  - fillers ("haan", "hmm", "ok"): the bot must resume, losing nothing, with no cut.
// Each call runs the real CallBargeIn (Silero detector, echo gate, controller) on a fake clock (test/helpers/
// barge-in-call.ts), with barge_in_events 1 (the default) and 2 (an agent that never answers a hold).

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { SileroVad } from '../src/engine/vad/silero-vad.js';
import { BargeInDetectorFactory } from '../src/session/barge-in/barge-in-detector.js';
import { CallerTrack } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { available, CONTINUING, corpusSpeakers, FILLERS, OtherSpeakers, speakerName, withPause } from '../test/helpers/other-speakers.js';
import { runHeldCall } from '../test/helpers/barge-in-call.js';
import { round, writeResult } from './lib/stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const PAUSES_MS = [100, 140, 200, 300];
/** Where the caller starts, ms into the bot's prompt: spread over its words and pauses, and over the 20 ms frame. */
const OFFSETS_MS = QUICK ? [1200, 2113] : Array.from({ length: 8 }, (_, i) => 1000 + i * 283 + (i % 4) * 5);

const root = fileURLToPath(new URL('../', import.meta.url));
const tools = available();
for (const tool of ['espeak-ng', 'flite', 'festival'] as const) if (!tools.has(tool)) console.warn(`barge-in-callers: ${tool} is not installed: its voices are left out (apt-get install ${tool === 'espeak-ng' ? 'espeak-ng' : tool})`);
const speakers = corpusSpeakers(tools);
const voice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const prompt = await voice.say({
  text: 'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है। कृपया लाइन पर बने रहें, हमारा प्रतिनिधि जल्द ही आपसे बात करेगा। इस बीच आप हमारी वेबसाइट पर भी जानकारी देख सकते हैं।',
  language: 'hi-IN',
});
await voice.close();
const vad = await SileroVad.load();
const factory = new BargeInDetectorFactory(vad);
await factory.ready();
const render = new OtherSpeakers();
const startedAt = performance.now();

interface Run {
  readonly cls: 'continuing' | 'filler';
  readonly label: string;
  readonly events: 1 | 2;
  readonly holds: number;
  readonly committed: boolean;
  readonly resumes: readonly string[];
  readonly botMsAfterFirstHold: number;
}
const runs: Run[] = [];
try {
  for (const speaker of speakers) {
    const name = speakerName(speaker);
    for (const { first, rest } of CONTINUING[speaker.language]) {
      const a = render.say(speaker, first);
      const b = render.say(speaker, rest);
      for (const pauseMs of PAUSES_MS) {
        const clip = withPause(a, pauseMs, b);
        for (const atMs of OFFSETS_MS) {
          for (const events of [1, 2] as const) {
            const outcome = runHeldCall({ factory, prompt, caller: new CallerTrack([{ atMs, mulaw: clip, label: first }]), events });
            runs.push({ cls: 'continuing', label: `${name} "${first} ${rest}" pause ${pauseMs} at ${atMs}`, events, ...outcome });
          }
        }
      }
    }
    for (const text of FILLERS[speaker.language]) {
      const clip = render.say(speaker, text);
      for (const atMs of OFFSETS_MS) {
        for (const events of [1, 2] as const) {
          const outcome = runHeldCall({ factory, prompt, caller: new CallerTrack([{ atMs, mulaw: clip, label: text }]), events });
          runs.push({ cls: 'filler', label: `${name} "${text}" at ${atMs}`, events, ...outcome });
        }
      }
    }
  }
} finally {
  render.close();
  vad.close();
}

const continuing = runs.filter((r) => r.cls === 'continuing');
const fillers = runs.filter((r) => r.cls === 'filler');
const heardAgain = continuing.filter((r) => r.botMsAfterFirstHold > 0);
const held = (rs: Run[]) => rs.filter((r) => r.holds > 0);
const byEvents = (rs: Run[], events: 1 | 2) => rs.filter((r) => r.events === events);
const result = {
  what: 'callers in voices Raaga does not ship (espeak-ng, flite, festival), real CallBargeIn on a fake clock; continuing = command, pause, request (one interruption); fillers must resume',
  speakers: speakers.map(speakerName),
  tools: [...tools],
  pausesMs: PAUSES_MS,
  offsetsMs: OFFSETS_MS,
  continuing: {
    calls: continuing.length,
    held: held(continuing).length,
    committed: continuing.filter((r) => r.committed).length,
    callsThatHeardTheBotAgain: heardAgain.length,
    byEvents: { 1: byEvents(heardAgain, 1).length, 2: byEvents(heardAgain, 2).length },
    worst: heardAgain.slice(0, 20).map((r) => ({ label: r.label, events: r.events, holds: r.holds, resumes: r.resumes, botMs: r.botMsAfterFirstHold })),
  },
  fillers: {
    calls: fillers.length,
    held: held(fillers).length,
    /** Held and resumed, never cut: the bot went on from where the caller last heard it. */
    kept: held(fillers).filter((r) => !r.committed).length,
    cut: fillers.filter((r) => r.committed).length,
    cutLabels: fillers.filter((r) => r.committed).map((r) => `${r.label} events=${r.events}`),
  },
  loadAverage1m: round(loadavg()[0] ?? NaN, 2),
  seconds: round((performance.now() - startedAt) / 1000, 1),
};
const file = await writeResult('barge-in-callers', result);
console.log(
  `barge-in-callers: ${speakers.length} speakers; continuing ${continuing.length} calls, heard the bot again after the first clear in ${heardAgain.length} ` +
    `(events=1: ${result.continuing.byEvents[1]}, events=2: ${result.continuing.byEvents[2]}); fillers ${fillers.length} calls, held ${result.fillers.held}, ` +
    `kept ${result.fillers.kept}, cut ${result.fillers.cut} → ${file}`,
);
for (const w of result.continuing.worst) console.log('  ', JSON.stringify(w));
