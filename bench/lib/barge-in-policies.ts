// The anchors' barge-in rules and Raaga's own, run as policies on the same inbound audio (research/barge-in.md §4.3:
// "implement the decision rules, not the products"). Every policy sees the caller's line as 20 ms mu-law frames while
// the bot talks, with Silero v5 scores from one shared pass, and reports when the bot's audio stopped at the provider
// and whether it was then cut for good (content lost) or resumed (content kept).

import { mulawToPcm16 } from '../../src/audio/mulaw.js';
import { BargeInController, DEFAULT_BARGE_IN_POLICY, type BargeInPolicy } from '../../src/session/barge-in/barge-in-controller.js';
import { BargeInDetectorFactory, DEFAULT_BARGE_IN_TUNING, type SpeechProbabilityModel, type SpeechProbabilityStream } from '../../src/session/barge-in/barge-in-detector.js';
import type { VoiceActivityEvent } from '../../src/session/barge-in/barge-in-contract.js';
import { FakeClock } from '../../test/helpers/fake-clock.js';

export const FRAME_MS = 20;
const FRAME_BYTES = 160;

/** What a policy did with one event. Times are ms on the track's clock (the frame arrival that decided). */
export interface PolicyOutcome {
  /** The caller stopped hearing the bot (a hold or a cut reached the provider). */
  readonly stoppedAtMs: number | undefined;
  /** The bot was cut for good: the rest of its utterance is lost. */
  readonly committedAtMs: number | undefined;
  /** A hold ended and the bot went on where it stopped. */
  readonly resumedAtMs: number | undefined;
}

export type VerdictOracle = (suspectEndedAtMs: number) => { readonly atMs: number; readonly verdict: 'interrupt' | 'resume' } | undefined;

export interface Policy {
  readonly name: string;
  readonly describe: string;
  run(track: Uint8Array, scores: RecordedScores, verdict?: VerdictOracle): Promise<PolicyOutcome>;
}

/** Silero's answers for one track, per stream, in request order (gated windows are not asked). */
export interface RecordedScores {
  readonly byStream: number[][];
  /** Main stream, one per 32 ms window, 0 where the gate kept the window from the model. */
  readonly mainWindows: number[];
}

/** Runs the real model once over a track, the way the detector asks it (two staggered streams, energy gate). */
export async function scoreTrack(model: SpeechProbabilityModel, track: Uint8Array): Promise<RecordedScores> {
  const byStream: number[][] = [];
  const mainWindows: number[] = [];
  const recording: SpeechProbabilityModel = {
    windowSamples: model.windowSamples,
    sampleRateHz: model.sampleRateHz,
    createStream(): SpeechProbabilityStream {
      const inner = model.createStream();
      const answers: number[] = [];
      const index = byStream.push(answers) - 1;
      return {
        score: (window, answer) =>
          inner.score(window, (p) => {
            answers.push(p);
            if (index === 0) mainWindows.push(p);
            answer(p);
          }),
        skip: (window) => {
          if (index === 0) mainWindows.push(0);
          inner.skip(window);
        },
        reset: () => inner.reset(),
      };
    },
  };
  const factory = new BargeInDetectorFactory(recording);
  await factory.ready();
  const detector = factory.create({ minSpeechMs: 250, longSpeechMs: DEFAULT_BARGE_IN_POLICY.longMinMs }, () => undefined);
  forEachFrame(track, (frame, atMs) => detector.pushMulaw(frame, atMs));
  detector.close();
  return { byStream, mainWindows };
}

/** A model that answers with recorded scores, stream by stream in creation order: the same detector, no inference. */
function replayModel(scores: RecordedScores): SpeechProbabilityModel {
  let next = 0;
  return {
    windowSamples: 256,
    sampleRateHz: 8000,
    createStream(): SpeechProbabilityStream {
      const answers = scores.byStream[next++] ?? [];
      let at = 0;
      return { score: (_window, answer) => answer(answers[at++] ?? 0), skip: () => undefined, reset: () => undefined };
    },
  };
}

function forEachFrame(track: Uint8Array, each: (frame: Uint8Array, atMs: number) => void): void {
  for (let offset = 0, i = 1; offset < track.length; offset += FRAME_BYTES, i++) each(track.subarray(offset, offset + FRAME_BYTES), i * FRAME_MS);
}

/** Raaga's "pause fast, decide slow" (barge-in-controller.ts), with the detector's suspect layer. */
export function raagaHold(name: string, policy: BargeInPolicy = DEFAULT_BARGE_IN_POLICY): Policy {
  return {
    name,
    describe: `hold at one window ≥ ${DEFAULT_BARGE_IN_TUNING.suspectThreshold} (two staggered streams); commit at ${policy.longMinMs} ms of speech; resume under ${policy.shortMaxMs} ms; band → ${policy.ambiguousDefault} (or the verdict, when given)`,
    async run(track, scores, verdict) {
      const clock = new FakeClock(0);
      let stoppedAtMs: number | undefined;
      let committedAtMs: number | undefined;
      let resumedAtMs: number | undefined;
      let heldId: string | undefined;
      const controller = new BargeInController(
        clock,
        () => policy,
        {
          canHold: () => committedAtMs === undefined,
          hold: (s) => {
            stoppedAtMs ??= clock.now();
            heldId = s.id;
          },
          resume: () => {
            resumedAtMs = clock.now();
          },
          commit: () => {
            committedAtMs = clock.now();
          },
        },
        () => verdict !== undefined,
      );
      const factory = new BargeInDetectorFactory(replayModel(scores));
      const onEvent = (event: VoiceActivityEvent): void => {
        if (event.type === 'suspect_started') controller.suspectStarted(event.onsetMs);
        else if (event.type === 'suspect_long') controller.suspectLong();
        else if (event.type === 'speech_started') controller.speechConfirmed();
        else if (event.type === 'suspect_ended') {
          controller.suspectEnded(event.extentMs);
          const given = verdict?.(event.atMs);
          const id = heldId;
          if (given && id !== undefined) clock.setTimeout(() => controller.verdict(id, given.verdict), Math.max(0, given.atMs - clock.now()));
        }
      };
      return runDetector(factory, { minSpeechMs: 250, longSpeechMs: policy.longMinMs }, track, clock, onEvent, () => ({ stoppedAtMs, committedAtMs, resumedAtMs }));
    },
  };
}

/** One threshold that stops and cuts at once: Raaga before holds (250 ms), Vapi's voiceSeconds 0.2 (200 ms). */
export function cutAfter(name: string, minSpeechMs: number, describe: string): Policy {
  return {
    name,
    describe,
    async run(track, scores) {
      const clock = new FakeClock(0);
      let cutAtMs: number | undefined;
      const factory = new BargeInDetectorFactory(replayModel(scores));
      return runDetector(
        factory,
        { minSpeechMs, longSpeechMs: DEFAULT_BARGE_IN_POLICY.longMinMs },
        track,
        clock,
        (event) => {
          if (event.type === 'speech_started') cutAtMs ??= event.atMs;
        },
        () => ({ stoppedAtMs: cutAtMs, committedAtMs: cutAtMs, resumedAtMs: undefined }),
      );
    },
  };
}

async function runDetector(
  factory: BargeInDetectorFactory,
  settings: { minSpeechMs: number; longSpeechMs: number },
  track: Uint8Array,
  clock: FakeClock,
  onEvent: (event: VoiceActivityEvent) => void,
  outcome: () => PolicyOutcome,
): Promise<PolicyOutcome> {
  await factory.ready();
  // The clock is the caller's audio as judged, as in a call (caller-audio-clock.ts, call-session.ts): it moves to each
  // event's frame before the event, and to each frame once all of it is judged.
  const advance = (atMs: number): void => clock.advanceSync(Math.max(0, atMs - clock.now()));
  const detector = factory.create(
    settings,
    (event) => {
      advance(event.atMs);
      onEvent(event);
    },
    advance,
  );
  forEachFrame(track, (frame, atMs) => detector.pushMulaw(frame, atMs));
  clock.advanceSync(track.length / 8 + 5000 - clock.now());
  detector.close();
  return outcome();
}

/**
 * pipecat's VADAnalyzer defaults (vad_analyzer.py): 6 consecutive windows (round(0.2 / 0.032)) each with confidence
 * ≥ 0.7 and volume ≥ 0.6 start speech, and the Twilio serializer clears at once; nothing resumes. Volume is pipecat's
 * loudness mapped from -110…-10 LUFS onto 0…1 and smoothed (factor 0.2); here the window's RMS in dBFS stands in for
 * LUFS (close for telephone speech).
 */
export const pipecatDefault: Policy = {
  name: 'pipecat-default',
  describe: '6 consecutive windows at p ≥ 0.7 and volume ≥ 0.6, then clear; no resume',
  async run(track, scores) {
    const pcm = mulawToPcm16(track);
    let run = 0;
    let volume = 0;
    for (let w = 0; w < scores.mainWindows.length; w++) {
      let sum = 0;
      for (let i = w * 256; i < (w + 1) * 256 && i < pcm.length; i++) sum += (pcm[i]! / 32768) ** 2;
      const dbfs = 10 * Math.log10(sum / 256 + 1e-12);
      volume = 0.2 * Math.min(1, Math.max(0, (dbfs + 110) / 100)) + 0.8 * volume;
      run = scores.mainWindows[w]! >= 0.7 && volume >= 0.6 ? run + 1 : 0;
      if (run === 6) {
        const atMs = frameArrival((w + 1) * 256);
        return { stoppedAtMs: atMs, committedAtMs: atMs, resumedAtMs: undefined };
      }
    }
    return { stoppedAtMs: undefined, committedAtMs: undefined, resumedAtMs: undefined };
  },
};

/**
 * LiveKit Agents' VAD mode (agent_activity.py, turn.py defaults): Silero speech (activation 0.5, min 50 ms) lasting
 * min_duration 0.5 s pauses the agent, but the 200 ms already queued still plays; a final transcript interrupts; no
 * transcript within false_interruption_timeout (2 s) after the speech ends (0.55 s of silence) resumes. The transcript
 * is simulated from the ground truth: speech events produce one (when their speech ended), non-speech never does.
 */
export function livekitVad(transcribes: boolean): Policy {
  return {
    name: 'livekit-vad',
    describe: 'pause after 0.5 s of VAD speech (+200 ms queued still heard); transcript → interrupt; none within 2 s of the speech end → resume',
    async run(_track, scores) {
      const windowMs = 32;
      let speechMs = 0;
      let silenceMs = 0;
      let inSpeech = false;
      let pausedAtMs: number | undefined;
      let speechEndMs: number | undefined;
      for (let w = 0; w < scores.mainWindows.length; w++) {
        const p = scores.mainWindows[w]!;
        const endMs = frameArrival((w + 1) * 256);
        if (!inSpeech) {
          if (p >= 0.5) {
            inSpeech = true;
            speechMs = windowMs;
            silenceMs = 0;
          }
        } else if (p >= 0.35) {
          speechMs += windowMs;
          silenceMs = 0;
        } else {
          silenceMs += windowMs;
          if (silenceMs >= 550) {
            inSpeech = false;
            if (pausedAtMs !== undefined && speechEndMs === undefined) speechEndMs = endMs;
          }
        }
        if (inSpeech && pausedAtMs === undefined && speechMs >= 500) pausedAtMs = endMs;
      }
      if (pausedAtMs === undefined) return { stoppedAtMs: undefined, committedAtMs: undefined, resumedAtMs: undefined };
      const stoppedAtMs = pausedAtMs + 200;
      if (transcribes) return { stoppedAtMs, committedAtMs: speechEndMs ?? stoppedAtMs, resumedAtMs: undefined };
      return { stoppedAtMs, committedAtMs: undefined, resumedAtMs: speechEndMs === undefined ? undefined : speechEndMs + 2000 };
    },
  };
}

/** When the frame holding sample `sampleEnd` (exclusive) arrives: frames of 160 samples, each at its end. */
function frameArrival(sampleEnd: number): number {
  return Math.ceil(sampleEnd / FRAME_BYTES) * FRAME_MS;
}
