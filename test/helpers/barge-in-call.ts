// One call's barge-in, the whole of it and nothing else: the real CallBargeIn (echo gate, Silero detector with its two
// staggered streams, the hold controller on the caller's audio clock) against a port that plays a fixed bot prompt
// frame by frame, holds it, re-sends it from where it stopped, or cuts it. Deterministic: a fake clock moves 20 ms
// per caller frame, and Silero answers each window at once. What it reports is what the caller heard of the bot
// after the first hold, and how each hold ended. Used by bench/barge-in-callers.ts and test/integration/session/barge-in-other-speakers.test.ts.

import { mulawToPcm16, PHONE_FRAME_BYTES, PHONE_FRAME_MS } from '../../src/audio/mulaw.js';
import type { BargeInSettings, VoiceActivityDetectorFactory } from '../../src/session/barge-in/barge-in-contract.js';
import { DEFAULT_BARGE_IN_POLICY } from '../../src/session/barge-in/barge-in-controller.js';
import { CallBargeIn, type BargeInPort, type BotAudio } from '../../src/session/barge-in/call-barge-in.js';
import type { CallEvent } from '../../src/session/call-events.js';
import type { CallerTrack } from '../../src/sim/caller-audio.js';
import { FakeClock } from './fake-clock.js';

export interface HeldCallOutcome {
  /** Holds (provider clears) in the call. */
  readonly holds: number;
  /** The hold ended in a cut (the utterance aborted). */
  readonly committed: boolean;
  /** How each hold that resumed ended (`short`, `echo`, ...), in order. */
  readonly resumes: readonly string[];
  /** Bot audio played after the first hold (re-sent or new), ms: the caller heard the bot again. */
  readonly botMsAfterFirstHold: number;
  /** The decisions as the agent would see them with barge_in_events=2, one line each. */
  readonly decisions: readonly string[];
}

export interface HeldCallOptions {
  readonly factory: VoiceActivityDetectorFactory;
  /** The bot's utterance, 8 kHz mu-law; it plays from the start of the call. */
  readonly prompt: Uint8Array;
  readonly caller: CallerTrack;
  /** Caller audio after the track's end that is still heard (decisions that wait for quiet). */
  readonly tailMs?: number;
  readonly events?: 1 | 2;
  readonly settings?: Partial<BargeInSettings>;
}

/** Plays the call to the end of the caller's track (and its tail) and says what barge-in did. */
export function runHeldCall(options: HeldCallOptions): HeldCallOutcome {
  const clock = new FakeClock(1_000_000);
  const frames = Math.floor(options.prompt.length / PHONE_FRAME_BYTES);
  /** The next prompt frame to play; a hold stops it, a resume goes back to where the caller last heard. */
  let next = 0;
  let held = false;
  let cut = false;
  let firstHoldAt: number | undefined;
  let botMsAfterFirstHold = 0;
  const decisions: string[] = [];
  const resumes: string[] = [];
  let holds = 0;
  const port: BargeInPort = {
    botAudio: (): BotAudio => (cut || next >= frames ? 'none' : 'interruptible'),
    holdPlayback: () => {
      held = true;
      holds++;
      firstHoldAt ??= next;
      return { confirmedMs: next * PHONE_FRAME_MS, estimatedMs: next * PHONE_FRAME_MS };
    },
    resumePlayback: (position) => {
      held = false;
      next = position.confirmedMs / PHONE_FRAME_MS;
      return position.confirmedMs;
    },
    locate: (positionMs) => ({ utteranceId: 'prompt', offsetMs: positionMs }),
    stopSpeaking: () => {
      cut = true;
      held = false;
    },
    tell: (event: CallEvent) => {
      if (event.type === 'interruption_suspected') decisions.push(`held ${event.suspectId}`);
      if (event.type === 'resumed') {
        decisions.push(`resumed ${event.suspectId} ${event.reason}`);
      }
    },
    agentAttached: true,
    ended: false,
  };
  const bargeIn = new CallBargeIn(
    {
      clock,
      vad: options.factory,
      settings: { mode: 'any', minSpeechMs: 250, onlyWhileBotSpeaking: true, suspect: 'vad', policy: DEFAULT_BARGE_IN_POLICY, events: options.events ?? 1, ...options.settings },
      logger: { info: () => undefined },
      metrics: {
        bargeIn: () => undefined,
        bargeInHold: (outcome: string, reason: string) => {
          if (outcome === 'resumed') resumes.push(reason);
          if (outcome === 'committed') decisions.push(`committed ${reason}`);
        },
      },
    },
    port,
  );
  const echo = bargeIn.echoGate;
  const endMs = options.caller.endMs() + (options.tailMs ?? 2000);
  for (let n = 0; n * PHONE_FRAME_MS < endMs; n++) {
    // The bot's frame n plays during the caller's frame n (a loopback line, no echo).
    if (!held && !cut && next < frames) {
      const frame = options.prompt.subarray(next * PHONE_FRAME_BYTES, (next + 1) * PHONE_FRAME_BYTES);
      echo?.played(mulawToPcm16(frame), clock.now());
      if (firstHoldAt !== undefined) botMsAfterFirstHold += PHONE_FRAME_MS;
      next++;
    }
    clock.advanceSync(PHONE_FRAME_MS);
    bargeIn.heard(options.caller.frame(n), (n + 1) * PHONE_FRAME_MS);
  }
  bargeIn.close();
  return { holds, committed: cut, resumes, botMsAfterFirstHold, decisions };
}
