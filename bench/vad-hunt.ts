// The staggered Silero stream on demand (barge-in-detector.ts: it runs only while an onset matters, i.e. while a
// suspect could hold the bot or one is held): does it change any barge-in decision? Every clip of a corpus (the
// embedded engine's voices in all eight languages saying commands, sentences, fillers, and a word, a pause and a
// sentence; noise bursts, coughs, breaths, babble), at four sub-frame offsets after 400 ms of line noise, goes through
// the real detector on real Silero v5 and the real controller, with the staggered stream always running (as before)
// and on demand. Per clip it compares every detector event up to a commit and every decision (hold, resume, commit
// and their times on the caller's audio), and counts the staggered stream's inferences. The bot is holdable from
// the start of the track (where the rule changes nothing by construction, so this checks the implementation), and
// for the speech clips also from 100 ms before to 400 ms after the clip's first audible sample: the bot's turn begins
// around or during the caller's sound, so the staggered stream joins late, from a fresh state. BENCH_HUNT_THRESHOLDS (say
// "0.05,0.1,0.2") also tries huntThreshold values (the main stream's score under which the staggered window after
// it is skipped too), with the bot holdable throughout; it also reports, for the spans the staggered stream opened
// before the main stream could, the main window's score just before. BENCH_QUICK=1: a smaller corpus.
// JSON: bench/results/vad-hunt.json.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pcm16ToMulaw } from '../src/audio/mulaw.js';
import { floatToPcm16, pcm16ToFloat } from '../src/audio/pcm.js';
import { mulawToPcm16 } from '../src/audio/mulaw.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { SileroVad } from '../src/engine/vad/silero-vad.js';
import type { VoiceActivityEvent } from '../src/session/barge-in/barge-in-contract.js';
import { BargeInController, DEFAULT_BARGE_IN_POLICY } from '../src/session/barge-in/barge-in-controller.js';
import { BargeInDetectorFactory, DEFAULT_BARGE_IN_TUNING, type SpeechProbabilityModel, type SpeechProbabilityStream } from '../src/session/barge-in/barge-in-detector.js';
import type { LanguageCode } from '../src/languages.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { FakeClock } from '../test/helpers/fake-clock.js';
import { atLevel, breath, cough, lineNoise, mixInto, noiseBurst, RATE_HZ, seeded } from './lib/line-signals.js';
import { COMMANDS, FILLERS } from './lib/caller-phrases.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const THRESHOLDS = (process.env.BENCH_HUNT_THRESHOLDS ?? '').split(',').filter((value) => value !== '').map(Number);
/** When the bot becomes holdable, after the clip's first audible sample (undefined: from the start of the track). */
const HOLDABLE_FROM: readonly (number | undefined)[] = QUICK ? [undefined, 60, 200] : [undefined, -100, 0, 30, 60, 100, 200, 400];
const PHASES = [0, 56, 104, 152];
const LEAD_MS = 400;
const TAIL_MS = 2500;
const FRAME_BYTES = 160;
const FRAME_MS = 20;

const CONTINUING: Partial<Record<LanguageCode, string>> = { 'en-IN': 'Stop. I want to talk to an agent.', 'hi-IN': 'रुको। मुझे किसी से बात करनी है।' };
const LANGUAGES = Object.keys(COMMANDS) as LanguageCode[];

const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = join(root, 'models/raaga-v1/manifest.json');
const voiceNames = loadVoiceCatalog(manifest).voices().map((voice) => voice.name);
const caller = await CallerVoice.start(manifest);
const toFloat = (mulaw: Uint8Array): Float32Array => pcm16ToFloat(mulawToPcm16(mulaw));
const say = async (text: string, language: LanguageCode, voice: string, speed = 1) => toFloat(await caller.say({ text, language, voice, speed }));

// ---- corpus -------------------------------------------------------------------------------------------------------
const clips: { readonly cls: string; readonly label: string; readonly audio: Float32Array }[] = [];
for (const [li, language] of LANGUAGES.entries()) {
  const voices = QUICK ? [voiceNames[li % voiceNames.length]!] : [voiceNames[(2 * li) % 16]!, voiceNames[(2 * li + 9) % 16]!];
  for (const voice of voices) {
    for (const text of COMMANDS[language]) for (const speed of QUICK ? [1] : [1, 1.3]) clips.push({ cls: 'command', label: `${text} ${voice} ${speed}x`, audio: await say(text, language, voice, speed) });
    for (const text of FILLERS[language]) for (const speed of QUICK ? [1] : [1, 1.5]) clips.push({ cls: 'filler', label: `${text} ${voice} ${speed}x`, audio: await say(text, language, voice, speed) });
    clips.push({ cls: 'sentence', label: `sentence ${language} ${voice}`, audio: await say(SAMPLE_TEXTS[language].split(/[.।]/)[0]!, language, voice) });
    const continuing = CONTINUING[language];
    if (continuing) clips.push({ cls: 'continuing', label: `${continuing} ${voice}`, audio: await say(continuing, language, voice, 1.25) });
  }
}
for (let seed = 1; seed <= (QUICK ? 6 : 24); seed++) {
  const random = seeded(seed);
  const kinds = ['white', 'pink', 'brown'] as const;
  clips.push({ cls: 'noise', label: `${kinds[seed % 3]} noise ${seed}`, audio: noiseBurst(kinds[seed % 3]!, [50, 150, 300, 600][seed % 4]!, [-35, -25, -15][seed % 3]!, random) });
  clips.push({ cls: 'cough', label: `cough ${seed}`, audio: cough(random, [-25, -18, -12][seed % 3]!) });
  if (seed % 3 === 0) clips.push({ cls: 'breath', label: `breath ${seed}`, audio: breath(random, 400, -35) });
}
for (let b = 0; b < (QUICK ? 1 : 4); b++) {
  const parts = await Promise.all([0, 1, 2].map((k) => say(SAMPLE_TEXTS[LANGUAGES[(b + k) % 8]!], LANGUAGES[(b + k) % 8]!, voiceNames[(b * 3 + k) % 16]!)));
  const length = Math.min(...parts.map((part) => part.length), RATE_HZ * 2);
  const mix = new Float32Array(length);
  for (const part of parts) mixInto(mix, part.subarray(0, length), 0);
  clips.push({ cls: 'babble', label: `babble ${b}`, audio: atLevel(mix, -32) });
}
await caller.close();

/** The clip at `phase` samples after LEAD_MS, under line noise, as mu-law. */
function track(audio: Float32Array, phase: number, seed: number): Uint8Array {
  const at = (LEAD_MS * RATE_HZ) / 1000 + phase;
  const total = at + audio.length + (TAIL_MS * RATE_HZ) / 1000;
  const line = lineNoise((total * 1000) / RATE_HZ, seeded(seed));
  const out = new Float32Array(Math.ceil(total / FRAME_BYTES) * FRAME_BYTES);
  out.set(line.subarray(0, out.length));
  mixInto(out, audio, at);
  return pcm16ToMulaw(floatToPcm16(out));
}

// ---- one run ------------------------------------------------------------------------------------------------------
const vad = await SileroVad.load();

interface Run {
  readonly events: string[];
  readonly decisions: string[];
  readonly staggeredInferred: number;
  readonly mainInferred: number;
  /** Main-stream probability by window (0: gated). */
  readonly main: number[];
}

/** `always`: the staggered stream runs on every audible window, as before the rule (huntThreshold 0, onsets always matter). */
async function run(mulaw: Uint8Array, huntThreshold: number, always: boolean, holdableFromMs = 0): Promise<Run> {
  const main: number[] = [];
  let streams = 0;
  // Records the main stream's scores by window (score or skip, in order); the model itself answers at once.
  const recording: SpeechProbabilityModel = {
    windowSamples: vad.windowSamples,
    sampleRateHz: vad.sampleRateHz,
    createStream(): SpeechProbabilityStream {
      const inner = vad.createStream();
      const isMain = streams++ === 0;
      return {
        score: (window, answer) =>
          inner.score(window, (p) => {
            if (isMain) main.push(p);
            answer(p);
          }),
        skip: (window) => {
          if (isMain) main.push(0);
          inner.skip(window);
        },
        reset: () => inner.reset(),
      };
    },
  };
  const factory = new BargeInDetectorFactory(recording, { huntThreshold });
  await factory.ready();
  const clock = new FakeClock(0);
  const decisions: string[] = [];
  let committed = false;
  const controller = new BargeInController(
    clock,
    () => DEFAULT_BARGE_IN_POLICY,
    {
      canHold: () => !committed && clock.now() >= holdableFromMs,
      hold: (s) => decisions.push(`held ${s.id} onset ${s.onsetMs} at ${clock.now()}`),
      resume: (s, reason) => decisions.push(`resumed ${s.id} ${reason} at ${clock.now()}`),
      commit: (s, cause) => {
        committed = true;
        decisions.push(`committed ${s.id} ${cause} at ${clock.now()}`);
      },
    },
    () => false,
  );
  const events: string[] = [];
  const advance = (atMs: number): void => clock.advanceSync(Math.max(0, atMs - clock.now()));
  const onEvent = (event: VoiceActivityEvent): void => {
    advance(event.atMs);
    events.push(JSON.stringify(event));
    if (event.type === 'suspect_started') controller.suspectStarted(event.onsetMs);
    else if (event.type === 'suspect_long') controller.suspectLong();
    else if (event.type === 'suspect_ended') controller.suspectEnded(event.extentMs);
    else if (event.type === 'speech_started') controller.speechConfirmed();
  };
  const detector = factory.create({ minSpeechMs: 250, longSpeechMs: DEFAULT_BARGE_IN_POLICY.longMinMs, onsetMatters: always ? () => true : () => controller.listening }, onEvent, advance);
  for (let offset = 0, i = 1; offset < mulaw.length; offset += FRAME_BYTES, i++) detector.pushMulaw(mulaw.subarray(offset, offset + FRAME_BYTES), i * FRAME_MS);
  clock.advanceSync(mulaw.length / 8 + 3000 - clock.now());
  const staggered = detector.staggeredStats!;
  const mainInferred = detector.stats.inferred;
  detector.close();
  return { events, decisions, staggeredInferred: staggered.inferred, mainInferred, main };
}

/** The clip's first sample at -40 dBFS or more, in ms from the start of its track. */
function firstAudibleMs(audio: Float32Array, phase: number): number {
  const first = audio.findIndex((v) => Math.abs(v) >= 0.01);
  return LEAD_MS + ((phase + Math.max(0, first)) * 1000) / RATE_HZ;
}

// ---- compare ------------------------------------------------------------------------------------------------------
const startedAt = performance.now();
const results: Record<string, unknown>[] = [];
/** For spans the staggered stream opened (always-on run): the main window's score just before it. */
const beforeStaggeredOnset: number[] = [];
let seed = 100;
const SPEECH = new Set(['command', 'filler', 'sentence', 'continuing']);
const tracks = clips.flatMap((clip) => PHASES.map((phase) => ({ ...clip, phase, mulaw: track(clip.audio, phase, seed++), audibleMs: firstAudibleMs(clip.audio, phase) })));
const always = new Map<string, Run>();
for (const t of tracks) {
  for (const from of HOLDABLE_FROM) {
    if (from !== undefined && !SPEECH.has(t.cls)) continue;
    const before = await run(t.mulaw, 0, true, from === undefined ? 0 : t.audibleMs + from);
    always.set(`${t.label}@${t.phase}@${from}`, before);
    if (from !== undefined) continue;
    for (const line of before.events) {
      const event = JSON.parse(line) as VoiceActivityEvent;
      if (event.type !== 'suspect_started') continue;
      // Main windows start on multiples of 32 ms; a span opened by the staggered stream starts 16 ms later.
      if (event.onsetMs % 32 === 16) beforeStaggeredOnset.push(before.main[(event.onsetMs - 16) / 32] ?? 0);
    }
  }
}
const scenarios = [
  ...HOLDABLE_FROM.map((from) => ({ name: from === undefined ? 'on demand, bot holdable throughout' : `on demand, bot holdable from ${from} ms into the sound`, from, huntThreshold: DEFAULT_BARGE_IN_TUNING.huntThreshold })),
  ...THRESHOLDS.map((huntThreshold) => ({ name: `huntThreshold ${huntThreshold}, bot holdable throughout`, from: undefined, huntThreshold })),
];
for (const { name, from, huntThreshold } of scenarios) {
  const byClass: Record<string, { tracks: number; sameEvents: number; sameDecisions: number; staggeredBefore: number; staggeredAfter: number; main: number }> = {};
  const differences: Record<string, unknown>[] = [];
  for (const t of tracks) {
    if (from !== undefined && !SPEECH.has(t.cls)) continue;
    const before = always.get(`${t.label}@${t.phase}@${from}`)!;
    const after = await run(t.mulaw, huntThreshold, false, from === undefined ? 0 : t.audibleMs + from);
    const row = (byClass[t.cls] ??= { tracks: 0, sameEvents: 0, sameDecisions: 0, staggeredBefore: 0, staggeredAfter: 0, main: 0 });
    row.tracks++;
    // After a commit nothing more is decided, and the rule stops the staggered stream: events are compared up to it.
    const sameEvents = JSON.stringify(untilCommit(before)) === JSON.stringify(untilCommit(after));
    const sameDecisions = JSON.stringify(before.decisions) === JSON.stringify(after.decisions);
    if (sameEvents) row.sameEvents++;
    if (sameDecisions) row.sameDecisions++;
    row.staggeredBefore += before.staggeredInferred;
    row.staggeredAfter += after.staggeredInferred;
    row.main += before.mainInferred;
    if (!sameDecisions || !sameEvents) {
      differences.push({ cls: t.cls, label: t.label, phase: t.phase, sameDecisions, before: before.decisions, after: after.decisions, eventsBefore: before.events.length, eventsAfter: after.events.length, firstEventDifference: firstDifference(untilCommit(before), untilCommit(after)) });
    }
  }
  const total = Object.values(byClass).reduce((sum, row) => ({ tracks: sum.tracks + row.tracks, sameEvents: sum.sameEvents + row.sameEvents, sameDecisions: sum.sameDecisions + row.sameDecisions, staggeredBefore: sum.staggeredBefore + row.staggeredBefore, staggeredAfter: sum.staggeredAfter + row.staggeredAfter, main: sum.main + row.main }));
  results.push({ scenario: name, huntThreshold, holdableFromMs: from, total, byClass, differences });
  console.log(`${name}: ${total.tracks} tracks, same events ${total.sameEvents}, same decisions ${total.sameDecisions}; staggered inferences ${total.staggeredBefore} → ${total.staggeredAfter} (main ${total.main})`);
  for (const [cls, row] of Object.entries(byClass)) console.log(`  ${cls}: ${row.tracks} tracks, same events ${row.sameEvents}, same decisions ${row.sameDecisions}, staggered ${row.staggeredBefore} → ${row.staggeredAfter}`);
  for (const difference of differences.slice(0, 20)) console.log(`  differs: ${JSON.stringify(difference)}`);
}

function untilCommit(r: Run): string[] {
  const commit = r.decisions.find((d) => d.startsWith('committed'));
  if (commit === undefined) return r.events;
  const atMs = Number(commit.split(' at ')[1]);
  return r.events.filter((line) => (JSON.parse(line) as { atMs: number }).atMs <= atMs);
}

function firstDifference(a: string[], b: string[]): unknown {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return { index: i, before: a[i], after: b[i] };
  return undefined;
}

const sortedBefore = [...beforeStaggeredOnset].sort((x, y) => x - y);
console.log(`spans opened by the staggered stream: ${sortedBefore.length}; main score just before: min ${round(sortedBefore[0] ?? NaN, 3)}, p5 ${round(sortedBefore[Math.floor(sortedBefore.length * 0.05)] ?? NaN, 3)}, p50 ${round(sortedBefore[Math.floor(sortedBefore.length / 2)] ?? NaN, 3)}`);
vad.close();
writeResult('vad-hunt', {
  tracks: tracks.length,
  clips: clips.length,
  phases: PHASES,
  staggeredOnsets: { count: sortedBefore.length, mainScoreBefore: summary(sortedBefore), lowest: sortedBefore.slice(0, 10).map((p) => round(p, 4)) },
  results,
  seconds: round((performance.now() - startedAt) / 1000, 1),
});
