// Barge-in voice activity detection: Silero VAD cost per 32 ms window on the event-loop thread, alone and in the
// batches many calls make (silero-batcher.ts), the detector's cost per 20 ms Twilio frame (speech vs gated silence), its reaction (true speech onset → speech_started) on synthesized
// sentences in every language, and the minSpeechMs sweep over fillers vs short commands behind DEFAULT_MIN_SPEECH_MS.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulawToPcm16 } from '../src/audio/mulaw.js';
import { SILERO_WINDOW_SAMPLES, SileroVad } from '../src/engine/vad/silero-vad.js';
import { LANGUAGE_CODES, type LanguageCode } from '../src/languages.js';
import { BargeInDetectorFactory, DEFAULT_MIN_SPEECH_MS } from '../src/session/barge-in/barge-in-detector.js';
import { PHONE_FRAME_MS as FRAME_MS } from '../src/audio/mulaw.js';
import { CallerTrack, onsetOffsetMs } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { round, summary, writeResult } from './lib/stats.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { HeardDetector } from '../test/helpers/heard-detector.js';

const WINDOW_RUNS = Number(process.env.BENCH_VAD_WINDOWS ?? 5000);
const BATCH_SIZES = [1, 2, 8, 32, 64, 150];
const BATCH_RUNS = 200;
const SWEEP_MS = [150, 200, 250, 300, 350, 400, 500];

/** Quick backchannels a listener makes while the bot talks: they should not interrupt. */
const FILLERS: readonly { text: string; language: LanguageCode; voice: string; speed: number }[] = [
  { text: 'हाँ', language: 'hi-IN', voice: 'meera', speed: 1.5 },
  { text: 'हाँ', language: 'hi-IN', voice: 'aarav', speed: 1 },
  { text: 'haan', language: 'hi-IN', voice: 'aarav', speed: 1.5 },
  { text: 'hmm', language: 'en-IN', voice: 'meera', speed: 1.5 },
  { text: 'hm', language: 'en-IN', voice: 'aarav', speed: 1.5 },
  { text: 'हम्म', language: 'hi-IN', voice: 'meera', speed: 1.5 },
  { text: 'ok', language: 'en-IN', voice: 'aarav', speed: 1.5 },
  { text: 'अच्छा', language: 'hi-IN', voice: 'aarav', speed: 1.5 },
  { text: 'अच्छा', language: 'hi-IN', voice: 'meera', speed: 1 },
  { text: 'हाँ जी', language: 'hi-IN', voice: 'meera', speed: 1.5 },
];

/** One-word interruptions said plainly: they should interrupt. */
const COMMANDS: readonly { text: string; language: LanguageCode; voice: string; speed: number }[] = [
  { text: 'रुको', language: 'hi-IN', voice: 'meera', speed: 1 },
  { text: 'रुको', language: 'hi-IN', voice: 'aarav', speed: 1 },
  { text: 'नहीं', language: 'hi-IN', voice: 'meera', speed: 1 },
  { text: 'stop', language: 'en-IN', voice: 'meera', speed: 1 },
  { text: 'stop', language: 'en-IN', voice: 'aarav', speed: 1 },
  { text: 'wait', language: 'en-IN', voice: 'meera', speed: 1 },
  { text: 'no no, wait', language: 'en-IN', voice: 'aarav', speed: 1 },
  { text: 'रुकिए, मुझे कुछ पूछना है', language: 'hi-IN', voice: 'meera', speed: 1 },
];

const root = fileURLToPath(new URL('../', import.meta.url));
const voice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const vad = await SileroVad.load();
const factory = new BargeInDetectorFactory(vad);
await factory.ready();

try {
  const sentences = new Map<LanguageCode, Uint8Array>();
  for (const language of LANGUAGE_CODES) sentences.set(language, await voice.say({ text: SAMPLE_TEXTS[language], language, voice: 'meera' }));

  // 1. Model cost per window, on real speech windows (the case the gate lets through).
  const speechFloat = new Float32Array(mulawToPcm16(sentences.get('hi-IN')!)).map((v) => v / 32768);
  const windows: Float32Array[] = [];
  for (let o = 0; o + SILERO_WINDOW_SAMPLES <= speechFloat.length; o += SILERO_WINDOW_SAMPLES) windows.push(speechFloat.slice(o, o + SILERO_WINDOW_SAMPLES));
  const stream = vad.createStream();
  for (let i = 0; i < 200; i++) stream.probability(windows[i % windows.length]!);
  const windowUs: number[] = [];
  for (let i = 0; i < WINDOW_RUNS; i++) {
    const t0 = performance.now();
    stream.probability(windows[i % windows.length]!);
    windowUs.push((performance.now() - t0) * 1000);
  }

  // 1b. Cost per window when N calls' windows run as one batch (each call its own state).
  const batchWindowUs: Record<string, unknown> = {};
  for (const size of BATCH_SIZES) {
    const jobs = Array.from({ length: size }, (_, b) => ({ input: new Float32Array(vad.contextSamples + SILERO_WINDOW_SAMPLES), state: vad.createState(), window: b }));
    const perWindow: number[] = [];
    for (let run = 0; run < BATCH_RUNS + 20; run++) {
      for (const job of jobs) job.input.set(windows[(run + job.window) % windows.length]!, vad.contextSamples);
      const t0 = performance.now();
      vad.inferBatch(jobs);
      if (run >= 20) perWindow.push(((performance.now() - t0) * 1000) / size);
    }
    batchWindowUs[String(size)] = summary(perWindow);
  }

  // 2. Detector cost per 20 ms frame: speech (model runs ~every 1.6 frames) and silence (gated).
  const frameUs = (track: CallerTrack, frames: number): number[] => {
    const detector = new HeardDetector(factory, DEFAULT_MIN_SPEECH_MS);
    const out: number[] = [];
    for (let n = 0; n < frames; n++) {
      const frame = track.frame(n);
      const t0 = performance.now();
      detector.pushMulaw(frame, (n + 1) * FRAME_MS);
      out.push((performance.now() - t0) * 1000);
    }
    return out;
  };
  const hindi = sentences.get('hi-IN')!;
  const speechFrames = frameUs(new CallerTrack([{ atMs: 0, mulaw: hindi, label: 'hi' }]), Math.floor(hindi.length / 160));
  const silenceFrames = frameUs(new CallerTrack(), 1000);

  // 3. Reaction on sentences in every language at several offsets (frame phases).
  const reactionMs: number[] = [];
  const onsetErrorMs: number[] = [];
  const perLanguage: Record<string, unknown> = {};
  for (const language of LANGUAGE_CODES) {
    const clip = sentences.get(language)!;
    const reactions: number[] = [];
    for (const atMs of [500, 507, 513, 526, 531, 1009, 1017, 1024]) {
      const realOnset = atMs + (onsetOffsetMs(clip) ?? 0);
      const track = new CallerTrack([{ atMs, mulaw: clip, label: language }]);
      const detector = new HeardDetector(factory, DEFAULT_MIN_SPEECH_MS);
      for (let n = 0; n * FRAME_MS < atMs + 3000; n++) {
        const started = detector.pushMulaw(track.frame(n), (n + 1) * FRAME_MS).find((e) => e.type === 'speech_started');
        if (started?.type === 'speech_started') {
          reactions.push(started.atMs - realOnset);
          onsetErrorMs.push(started.onsetMs - realOnset);
          break;
        }
      }
    }
    reactionMs.push(...reactions);
    perLanguage[language] = summary(reactions);
  }

  // 4. The minSpeechMs sweep: which fillers and which commands would interrupt.
  const interrupts = async (items: typeof FILLERS, minSpeechMs: number): Promise<string[]> => {
    const hits: string[] = [];
    for (const item of items) {
      const mulaw = await voice.say(item);
      const track = new CallerTrack([{ atMs: 300, mulaw, label: item.text }]);
      const detector = new HeardDetector(factory, minSpeechMs);
      let hit = false;
      for (let n = 0; n * FRAME_MS < 300 + mulaw.length / 8 + 500; n++) {
        if (detector.pushMulaw(track.frame(n), (n + 1) * FRAME_MS).some((e) => e.type === 'speech_started')) hit = true;
      }
      if (hit) hits.push(`${item.text} (${item.voice} x${item.speed})`);
    }
    return hits;
  };
  const sweep: Record<string, unknown> = {};
  for (const minSpeechMs of SWEEP_MS) {
    const fillers = await interrupts(FILLERS, minSpeechMs);
    const commands = await interrupts(COMMANDS, minSpeechMs);
    sweep[String(minSpeechMs)] = { fillersInterrupting: fillers.length, fillers, commandsInterrupting: commands.length, commands };
  }

  const window = summary(windowUs);
  const windowsPerSecond = 1000 / ((SILERO_WINDOW_SAMPLES / 8000) * 1000);
  const file = await writeResult('vad', {
    model: { variant: vad.variant, path: vad.modelPath.replace(root, ''), intraOpNumThreads: 1, thread: 'event loop (synchronous)' },
    windowInferenceUs: window,
    batchedWindowInferenceUsBySize: batchWindowUs,
    frameUs: { speech: summary(speechFrames), silenceGated: summary(silenceFrames) },
    cpuPerTalkingCallerPercentOfCore: round((window.p50 * windowsPerSecond) / 1e4, 3),
    minSpeechMs: DEFAULT_MIN_SPEECH_MS,
    reactionMs: summary(reactionMs),
    onsetErrorMs: summary(onsetErrorMs),
    reactionPerLanguageMs: perLanguage,
    sweep: { fillers: FILLERS.length, commands: COMMANDS.length, byMinSpeechMs: sweep },
  });
  const at = sweep[String(DEFAULT_MIN_SPEECH_MS)] as { fillersInterrupting: number; commandsInterrupting: number };
  const reaction = summary(reactionMs);
  console.log(
    `VAD: window p50 ${window.p50.toFixed(0)} µs p95 ${window.p95.toFixed(0)} µs; onset→speech_started p50 ${reaction.p50.toFixed(0)} ms p95 ${reaction.p95.toFixed(0)} ms at minSpeech ${DEFAULT_MIN_SPEECH_MS} ms; ` +
      `fillers interrupting ${at.fillersInterrupting}/${FILLERS.length}, commands ${at.commandsInterrupting}/${COMMANDS.length} → ${file}`,
  );
} finally {
  vad.close();
  await voice.close();
}
