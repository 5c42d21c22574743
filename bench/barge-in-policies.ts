// Barge-in policies side by side on one corpus (research/barge-in.md §4): Raaga's "pause fast, decide slow" (with
// and without an agent's verdict), Raaga's rule before holds (250 ms, cut), a 200 ms cut (Vapi's voiceSeconds),
// pipecat's defaults and LiveKit's VAD mode. The corpus is made here: the embedded engine's 16 voices in all eight
// languages saying commands, sentences, fillers and backchannels (singly, doubled, fast), Debian's espeak-ng (and
// festival's Hindi voice when installed) as other speakers, noise bursts, cough and breath proxies, ringback, hum,
// babble, the bot's own echo alone and under a caller (double talk). Each event sits on a line at several sub-frame
// offsets, under -60 dBFS line noise, as 20 ms mu-law frames. Voices are split in two: half tuned the thresholds
// (research/barge-in.md's probes), the other half is what is reported ("report"); both are in the JSON.
//
// The echo classes here are open-loop (the echo goes on whatever the bot does) and no policy has an echo gate:
// Raaga's gate and the closed loop are measured end to end in bench/barge-in.ts.
//
// Per policy and class: how often the bot stopped, onset → stop (the caller stops hearing the bot; onset = first
// sample of the event ≥ -40 dBFS), how often it was cut for good (interruptions: should; anything else: content
// lost), onset → cut, and for holds that resumed the gap (stop → resume). Times are on the line's clock at the
// provider boundary, without network delay; bench/barge-in.ts measures the whole path over sockets.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pcm16ToMulaw } from '../src/audio/mulaw.js';
import { floatToPcm16, pcm16ToFloat } from '../src/audio/pcm.js';
import { mulawToPcm16 } from '../src/audio/mulaw.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { SileroVad } from '../src/engine/vad/silero-vad.js';
import { DEFAULT_BARGE_IN_POLICY } from '../src/session/barge-in/barge-in-controller.js';
import type { LanguageCode } from '../src/languages.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { wavToMulaw } from '../src/sim/caller-audio.js';
import { cutAfter, livekitVad, pipecatDefault, raagaHold, scoreTrack, type Policy, type PolicyOutcome } from './lib/barge-in-policies.js';
import { atLevel, breath, cough, echoOf, hum, lineNoise, mixInto, noiseBurst, RATE_HZ, ringback, seeded } from './lib/line-signals.js';
import { round, summary, writeResult } from './lib/stats.js';
import { COMMANDS, FILLERS } from './lib/caller-phrases.js';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from '../src/engine/espeak/espeak-languages.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';

const QUICK = process.env.BENCH_QUICK === '1';
/** Sub-frame offsets of each event on the line (samples): the 20 ms frame and 32 ms window grids fall differently. */
const PHASES = QUICK ? [0, 104] : [0, 56, 104, 152];
const LEAD_MS = 400;
const TAIL_MS = 3000;
/** An agent's speech recognition answering a hold: its final result this long after the caller stops. */
const VERDICT_LATENCY_MS = 300;
/** Interruptions not cut within this long after their onset count as missed. */
const MISS_AFTER_MS = 2000;
/** short_max_ms candidates tried on the tune half (long_min_ms stays 500). */
const SWEEP_SHORT_MAX_MS = [150, 200, 250, 300, 350, 400];

type Truth = 'interrupt' | 'keep';
interface CorpusEvent {
  readonly cls: string;
  readonly truth: Truth;
  readonly split: 'tune' | 'report';
  readonly label: string;
  /** Float samples at 8 kHz. */
  readonly audio: Float32Array;
  /** Bot echo under the event: the whole track gets it. */
  readonly echo?: { readonly delayMs: number; readonly erlDb: number; readonly taps: number };
}

const LANGUAGES = Object.keys(COMMANDS) as LanguageCode[];

const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = join(root, 'models/raaga-v1/manifest.json');
const catalog = loadVoiceCatalog(manifest);
const voiceNames = catalog.voices().map((voice) => voice.name);
const caller = await CallerVoice.start(manifest);
const vad = await SileroVad.load();
const loadBefore = loadavg()[0] ?? NaN;
const startedAt = performance.now();

const toFloat = (mulaw: Uint8Array): Float32Array => pcm16ToFloat(mulawToPcm16(mulaw));
const say = async (text: string, language: LanguageCode, voice: string, speed = 1) => toFloat(await caller.say({ text, language, voice, speed }));

// ---- corpus -------------------------------------------------------------------------------------------------------
const corpus: CorpusEvent[] = [];
for (const [li, language] of LANGUAGES.entries()) {
  // Two voices per language in each half: voice indices differ by language so every voice is used.
  for (const split of ['tune', 'report'] as const) {
    const offset = split === 'tune' ? 0 : 1;
    const voices = QUICK ? [voiceNames[(2 * li + offset) % voiceNames.length]!] : [voiceNames[(2 * li + offset) % 16]!, voiceNames[(2 * li + offset + 8) % 16]!];
    for (const voice of voices) {
      for (const text of COMMANDS[language]) {
        for (const speed of QUICK ? [1] : [1, 1.3]) corpus.push({ cls: 'command', truth: 'interrupt', split, label: `${text} ${voice} ${speed}x`, audio: await say(text, language, voice, speed) });
      }
      corpus.push({ cls: 'sentence', truth: 'interrupt', split, label: `sentence ${language} ${voice}`, audio: await say(SAMPLE_TEXTS[language].split(/[.।]/)[0]!, language, voice) });
      for (const text of FILLERS[language]) {
        for (const speed of QUICK ? [1] : [1, 1.5]) corpus.push({ cls: 'filler', truth: 'keep', split, label: `${text} ${voice} ${speed}x`, audio: await say(text, language, voice, speed) });
      }
      const first = FILLERS[language][0]!;
      corpus.push({ cls: 'filler-doubled', truth: 'keep', split, label: `${first} ${first} ${voice}`, audio: await say(`${first}, ${first}`, language, voice, 1.2) });
    }
  }
}

// Other speakers, held out entirely (report half): Debian's espeak-ng voices, and festival's Hindi voice if present.
const work = mkdtempSync(join(tmpdir(), 'raaga-bargein-'));
const external = (command: string, args: string[], wav: string): Float32Array => {
  execFileSync(command, args, { stdio: 'ignore' });
  return toFloat(wavToMulaw(readFileSync(wav)));
};
let otherSpeakers = 0;
for (const language of LANGUAGES) {
  const wav = join(work, 'espeak.wav');
  for (const text of COMMANDS[language]) corpus.push({ cls: 'command', truth: 'interrupt', split: 'report', label: `espeak-ng ${text}`, audio: external('espeak-ng', ['-v', DEFAULT_ESPEAK_LANGUAGE_IDS[language], '-w', wav, text], wav) });
  for (const text of FILLERS[language]) corpus.push({ cls: 'filler', truth: 'keep', split: 'report', label: `espeak-ng ${text}`, audio: external('espeak-ng', ['-v', DEFAULT_ESPEAK_LANGUAGE_IDS[language], '-w', wav, text], wav) });
  otherSpeakers += COMMANDS[language].length + FILLERS[language].length;
}
let festival = false;
try {
  execFileSync('text2wave', ['--help'], { stdio: 'ignore' });
  festival = true;
} catch {
  festival = false;
}
if (festival) {
  for (const [text, cls, truth] of [...COMMANDS['hi-IN'].map((t) => [t, 'command', 'interrupt'] as const), ...FILLERS['hi-IN'].map((t) => [t, 'filler', 'keep'] as const)]) {
    const txt = join(work, 'f.txt');
    const wav = join(work, 'festival.wav');
    execFileSync('sh', ['-c', `printf '%s' "$1" > "$2"`, 'sh', text, txt]);
    try {
      corpus.push({ cls, truth, split: 'report', label: `festival hi_nsk ${text}`, audio: external('text2wave', ['-eval', '(voice_hi_nsk)', '-o', wav, txt], wav) });
      otherSpeakers++;
    } catch {
      // festival's Hindi voice refuses some text: the corpus simply has fewer of its clips.
    }
  }
}

// Non-speech: half the seeds tune, half report.
for (let seed = 1; seed <= (QUICK ? 12 : 48); seed++) {
  const random = seeded(seed);
  const split = seed % 2 === 0 ? 'tune' : 'report';
  const kinds = ['white', 'pink', 'brown'] as const;
  const ms = [50, 150, 300, 600][seed % 4]!;
  const dbfs = [-35, -25, -15][seed % 3]!;
  corpus.push({ cls: 'noise', truth: 'keep', split, label: `${kinds[seed % 3]} ${ms} ms ${dbfs} dBFS`, audio: noiseBurst(kinds[seed % 3]!, ms, dbfs, random) });
  corpus.push({ cls: 'cough', truth: 'keep', split, label: `cough ${seed}`, audio: cough(random, [-25, -18, -12][seed % 3]!) });
  // Rarer sounds alternate halves by their own count, so both halves get some.
  const half = (n: number) => (n % 2 === 0 ? 'tune' : 'report');
  if (seed % 3 === 0) corpus.push({ cls: 'breath', truth: 'keep', split: half(seed / 3), label: `breath ${seed}`, audio: breath(random, 300 + (seed % 3) * 100, -35) });
  if (seed % 4 === 0) corpus.push({ cls: 'tone', truth: 'keep', split: half(seed / 4), label: `ringback ${seed}`, audio: ringback(1000, -20) });
  if (seed % 8 === 0) corpus.push({ cls: 'tone', truth: 'keep', split: half(seed / 8 + 1), label: `hum ${seed}`, audio: hum(1500, -30) });
}
// Babble: several voices at once, quietly (a TV, a crowd).
for (let b = 0; b < (QUICK ? 2 : 8); b++) {
  const parts = await Promise.all([0, 1, 2, 3].map((k) => say(SAMPLE_TEXTS[LANGUAGES[(b + k) % 8]!], LANGUAGES[(b + k) % 8]!, voiceNames[(b * 3 + k) % 16]!)));
  const length = Math.min(...parts.map((part) => part.length), RATE_HZ * 2);
  const mix = new Float32Array(length);
  for (const part of parts) mixInto(mix, part.subarray(0, length), 0);
  corpus.push({ cls: 'babble', truth: 'keep', split: b % 2 === 0 ? 'tune' : 'report', label: `babble ${b}`, audio: atLevel(mix, -32) });
}

// The bot's own voice: what the caller hears, which a speakerphone or a hybrid sends back.
const botPrompt = await say(SAMPLE_TEXTS['hi-IN'] + ' ' + SAMPLE_TEXTS['en-IN'], 'hi-IN', 'priya');
const ECHO_PATHS = QUICK
  ? [{ delayMs: 120, erlDb: -20, taps: 6 }]
  : [40, 120, 250].flatMap((delayMs) => [-10, -20, -30].map((erlDb) => ({ delayMs, erlDb, taps: delayMs === 40 ? 3 : 12 })));
for (const [i, echo] of ECHO_PATHS.entries()) corpus.push({ cls: 'echo', truth: 'keep', split: i % 2 === 0 ? 'tune' : 'report', label: `echo ${echo.delayMs} ms ${echo.erlDb} dB`, audio: new Float32Array(0), echo });
// Double talk: a command or a filler over a -20 dB echo.
for (const event of corpus.filter((e) => (e.cls === 'command' || e.cls === 'filler') && !e.label.startsWith('espeak') && !e.label.startsWith('festival')).slice(0, QUICK ? 8 : 64)) {
  corpus.push({ ...event, cls: `${event.cls}+echo`, label: `${event.label} over echo`, echo: { delayMs: 120, erlDb: -20, taps: 12 } });
}
rmSync(work, { recursive: true, force: true });
await caller.close();

// ---- run ----------------------------------------------------------------------------------------------------------
const POLICIES: Policy[] = [
  raagaHold('raaga-hold'),
  raagaHold('raaga-hold-speech', { ...DEFAULT_BARGE_IN_POLICY, ambiguousDefault: 'speech' }),
  cutAfter('raaga-250', 250, "Raaga before holds: 250 ms of confirmed speech cuts; no resume"),
  cutAfter('cut-200', 200, "Vapi's voiceSeconds 0.2 as a rule: 200 ms of speech cuts; no resume"),
  pipecatDefault,
];

interface Row {
  readonly cls: string;
  readonly truth: Truth;
  readonly split: string;
  readonly onsetMs: number;
  readonly durationMs: number;
  readonly outcomes: Record<string, PolicyOutcome>;
}
const rows: Row[] = [];
const random = seeded(7);
for (const event of corpus) {
  for (const phase of event.echo && event.audio.length === 0 ? [0] : PHASES) {
    const eventMs = event.audio.length / 8;
    const totalMs = event.echo && event.audio.length === 0 ? botPrompt.length / 8 : LEAD_MS + eventMs + TAIL_MS;
    const track = lineNoise(totalMs, random);
    const at = LEAD_MS * 8 + phase;
    mixInto(track, event.audio, at);
    if (event.echo) mixInto(track, echoOf(botPrompt.subarray(0, track.length), event.echo.delayMs, event.echo.erlDb, event.echo.taps), 0);
    const mulaw = pcm16ToMulaw(floatToPcm16(track.map((v) => Math.max(-1, Math.min(0.999, v)))));
    let first = event.audio.findIndex((v) => Math.abs(v) >= 0.01);
    if (first < 0) first = 0;
    const onsetMs = event.audio.length === 0 ? 0 : (at + first) / 8;
    const scores = await scoreTrack(vad, mulaw);
    const outcomes: Record<string, PolicyOutcome> = {};
    for (const policy of POLICIES) outcomes[policy.name] = await policy.run(mulaw, scores);
    // With an agent's verdict: its recognizer knows what was said, VERDICT_LATENCY_MS after the caller stops.
    outcomes['raaga-hold+verdict'] = await POLICIES[0]!.run(mulaw, scores, (endedAtMs) => ({ atMs: endedAtMs + VERDICT_LATENCY_MS, verdict: event.truth === 'interrupt' ? 'interrupt' : 'resume' }));
    const speech = event.truth === 'interrupt' || event.cls.startsWith('filler');
    outcomes['livekit-vad'] = await livekitVad(speech).run(mulaw, scores);
    // The sweep behind short_max_ms, run on the tune half only.
    if (event.split === 'tune' && !event.echo) {
      for (const shortMaxMs of SWEEP_SHORT_MAX_MS) outcomes[`sweep-${shortMaxMs}`] = await raagaHold('sweep', { ...DEFAULT_BARGE_IN_POLICY, shortMaxMs }).run(mulaw, scores);
    }
    rows.push({ cls: event.cls, truth: event.truth, split: event.split, onsetMs, durationMs: totalMs, outcomes });
  }
}

// ---- report -------------------------------------------------------------------------------------------------------
const POLICY_NAMES = ['raaga-hold', 'raaga-hold+verdict', 'raaga-hold-speech', 'raaga-250', 'cut-200', 'pipecat-default', 'livekit-vad'];
const pct = (n: number, of: number) => (of === 0 ? null : round((100 * n) / of, 1));

function table(split: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const classes = [...new Set(rows.filter((r) => r.split === split).map((r) => r.cls))];
  for (const name of POLICY_NAMES) {
    const perClass: Record<string, unknown> = {};
    for (const cls of classes) {
      const these = rows.filter((r) => r.split === split && r.cls === cls);
      const outs = these.map((r) => ({ row: r, o: r.outcomes[name]! }));
      const stopped = outs.filter(({ o }) => o.stoppedAtMs !== undefined);
      const committed = outs.filter(({ o }) => o.committedAtMs !== undefined);
      const resumed = outs.filter(({ o }) => o.resumedAtMs !== undefined && o.committedAtMs === undefined);
      const truth = these[0]!.truth;
      const minutes = these.reduce((sum, r) => sum + r.durationMs, 0) / 60_000;
      perClass[cls] = {
        events: these.length,
        stopped_pct: pct(stopped.length, these.length),
        ...(truth === 'interrupt'
          ? {
              onset_to_stop_ms: summary(stopped.map(({ row, o }) => o.stoppedAtMs! - row.onsetMs)),
              onset_to_cut_ms: summary(committed.map(({ row, o }) => o.committedAtMs! - row.onsetMs)),
              missed_pct: pct(outs.filter(({ row, o }) => o.committedAtMs === undefined || o.committedAtMs - row.onsetMs > MISS_AFTER_MS).length, these.length),
            }
          : {
              // Cut for good on something that was not an interruption: the rest of the bot's answer is lost.
              false_interrupt_pct: pct(committed.length, these.length),
              resumed_pct: pct(resumed.length, these.length),
              gap_ms: summary(resumed.map(({ o }) => o.resumedAtMs! - o.stoppedAtMs!)),
              ...(cls === 'echo' ? { stops_per_minute: round(stopped.length / minutes, 2) } : {}),
            }),
      };
    }
    out[name] = perClass;
  }
  return out;
}

// What short_max_ms trades on the tune half: fillers cut for good (content lost) against commands resumed (missed).
const tuneRows = rows.filter((r) => r.split === 'tune' && r.outcomes[`sweep-${SWEEP_SHORT_MAX_MS[0]}`] !== undefined);
const sweep = Object.fromEntries(
  SWEEP_SHORT_MAX_MS.map((shortMaxMs) => {
    const key = `sweep-${shortMaxMs}`;
    const of = (cls: string) => tuneRows.filter((r) => r.cls === cls);
    const cut = (rs: Row[]) => rs.filter((r) => r.outcomes[key]!.committedAtMs !== undefined).length;
    return [shortMaxMs, { filler_lost_pct: pct(cut(of('filler')), of('filler').length), command_missed_pct: pct(of('command').length - cut(of('command')), of('command').length) }];
  }),
);

const counts = Object.fromEntries([...new Set(rows.map((r) => r.cls))].map((cls) => [cls, rows.filter((r) => r.cls === cls && r.split === 'report').length]));
const report = table('report');
const result = {
  description:
    'Barge-in policies on one corpus, offline: Silero v5 on 20 ms mu-law frames, no network. stopped = the caller stopped hearing the bot (hold or cut); ' +
    'cut = for good (content lost on anything but an interruption); onset = first event sample ≥ -40 dBFS. Report half only in `report`; `tune` is the other half.',
  policies: Object.fromEntries(
    [...POLICIES, { name: 'raaga-hold+verdict', describe: `raaga-hold with an agent verdict ${VERDICT_LATENCY_MS} ms after the caller stops (from the ground truth)` }, livekitVad(true)].map((p) => [p.name, p.describe]),
  ),
  corpus: { events_per_class_report: counts, phases: PHASES.length, other_speaker_clips: otherSpeakers, festival_hindi: festival },
  report,
  tune: table('tune'),
  short_max_sweep_tune: sweep,
  loadAvg1mBefore: round(loadBefore, 2),
  loadAvg1mAfter: round(loadavg()[0] ?? NaN, 2),
  seconds: round((performance.now() - startedAt) / 1000, 1),
};
const file = await writeResult('barge-in-policies', result);
const line = (name: string) => {
  const r = report[name] as Record<string, any>;
  return `${name}: command stop p50/p95 ${r.command?.onset_to_stop_ms.p50}/${r.command?.onset_to_stop_ms.p95} ms, cut ${100 - (r.command?.missed_pct ?? 0)}%; filler lost ${r.filler?.false_interrupt_pct}%, noise lost ${r.noise?.false_interrupt_pct}%`;
};
console.log(`barge-in-policies: ${rows.length} events → ${file}\n  ${POLICY_NAMES.map(line).join('\n  ')}`);
vad.close();
