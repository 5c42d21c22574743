// "Pause fast, decide slow" (docs/telephony.md, "Barge-in"): the per-call state machine between the caller's voice
// activity and what the bot does. A suspect (speech likely, ~100 ms after onset) puts the call on HOLD: the caller
// stops hearing the bot, nothing is thrown away. Later the hold either COMMITS (the cut: the utterance is aborted,
// the agent told `interrupted`) or RESUMES (the held audio is re-sent from what the caller last heard). Only a
// commit loses content, so only a commit waits for certainty. call-barge-in.ts does the actions (BargeInActions).
// Its clock is the caller's audio (caller-audio-clock.ts): every limit here measures the caller's sound or silence, so
// it counts audio judged, never wall time; only a line that stops sending audio altogether is watched in real time.

import type { Clock, ClockTimer } from '../clock.js';

/**
 * What a held sound between short_max_ms and long_min_ms does without a verdict: `interrupt` (never talk over a
 * "stop"), `resume`, or `speech`: interrupt only when the VAD confirmed speech during the hold (speech_started, 250 ms
 * at the full threshold), the one-decision rule of barge_in_suspect=off, so the band loses no more fillers than it.
 */
export type AmbiguousDefault = 'interrupt' | 'resume' | 'speech';

export interface BargeInPolicy {
  /** A suspect that ended with less speech than this was a filler, a cough or a click: resume. */
  readonly shortMaxMs: number;
  /** Speech lasting this long commits while the caller is still talking: no backchannel is that long. */
  readonly longMinMs: number;
  /** An agent that gives verdicts has this long after the sound ended to give one (then its length decides). */
  readonly verdictDeadlineMs: number;
  /** The band's decision without a verdict; `interrupt` by default, so a "stop" is never talked over. */
  readonly ambiguousDefault: AmbiguousDefault;
  /** A hold never lasts longer than this: then speech still going on commits, otherwise its length decides. */
  readonly maxHoldMs: number;
}

export const DEFAULT_BARGE_IN_POLICY: BargeInPolicy = {
  // Probed on Silero: fillers reach 128-416 ms of speech extent, one-word commands 256-352 ms, so
  // length cannot separate them; bench/barge-in-policies.ts sweeps short_max_ms on half its voices: 200 ms loses 72 %
  // of fillers and misses 3.8 % of commands, 250 ms 53 % and 9.4 %, 300 ms 35 % and 26 %. 250 keeps a missed "stop"
  // rare; an agent's verdict is what saves the fillers.
  shortMaxMs: 250,
  longMinMs: 500,
  verdictDeadlineMs: 400,
  ambiguousDefault: 'interrupt',
  maxHoldMs: 1500,
};

/**
 * After a sound that would resume the bot, the bot waits until the caller has been quiet this long (caller audio,
 * from the `suspect_ended` of the sound): speech that starts sooner is the same caller going on ("stop, … I want to
 * talk to an agent"), and it continues the same hold, its speech added to the total, so the bot never starts again
 * over the caller's own sentence. Measured by bench/barge-in-pauses.ts with the real detector on eSpeak speech
 * (9 utterances of a command, a pause and a request, in English and Hindi; 16 voices; 0.8-1.5x; 576 clips): the gap
 * from `suspect_ended` to the next `suspect_started` inside one utterance is at most 140 ms at a comma, 180 ms at an
 * ellipsis and 440 ms at a full stop (p50 140, p95 340, at 0.8x); p99 of all 258 gaps 400 ms. 500 ms covers every one
 * with three frames to spare. A new backchannel is not a pause: it answers bot audio heard after the resume, so it
 * comes at least a network trip and a listener's reaction (~200 ms) after the resume, which is after this window.
 * The cost is the silence a resumed filler leaves: the bot waits up to this much longer (bench/barge-in.ts, fillers).
 * An echo resumes at once (the bot's silence is what ended it); an agent's verdict deadline already waits 400 ms.
 */
export const CONTINUATION_MS = 500;

/**
 * The one real-time limit: providers send caller audio every 20 ms for the whole call (silence included), so when
 * none has arrived for this long the line is stalled or dead and the caller's clock stands still; the hold is then
 * decided as the hold limit would decide it, so the bot is not left silent for ever. Far above any stall a loaded
 * machine makes (the e2e runs see bursts of a few hundred ms).
 */
export const LINE_STALL_MS = 2000;

/** What decided a commit: speech long enough, the agent's verdict, a key, the hold's time limit, or the band's policy. */
export type CommitCause = 'duration' | 'verdict' | 'dtmf' | 'timeout' | 'policy';
/** Why a hold resumed: speech too short, the bot's own echo stopping, the agent's verdict, or the band's policy. */
export type ResumeReason = 'short' | 'echo' | 'verdict' | 'policy';

export interface HeldSuspect {
  readonly id: string;
  /** Onset of the caller's sound on the call clock (the detector's first suspect window). */
  readonly onsetMs: number;
  /** When the hold began, on the controller's clock (the caller's audio). */
  readonly heldAtMs: number;
}

export interface BargeInActions {
  /** True when something interruptible is playing or about to: only then is there anything to hold. */
  canHold(): boolean;
  hold(suspect: HeldSuspect): void;
  resume(suspect: HeldSuspect, reason: ResumeReason): void;
  commit(suspect: HeldSuspect, cause: CommitCause): void;
}

/** Real time, and how long the line has sent no audio at all (LINE_STALL_MS). */
export interface LineWatch {
  readonly clock: Clock;
  quietForMs(): number;
}

interface Held extends HeldSuspect {
  /** The caller is making speech-like sound now (a span is open). */
  speaking: boolean;
  /** Speech of the spans that ended during this hold. */
  extentMs: number;
  /** A resume verdict given while the caller was still speaking: applied when the speech ends. */
  resumeVerdict: boolean;
  /** The VAD confirmed speech (speech_started) during this hold. */
  confirmed: boolean;
  /** When the caller's last span in this hold ended (controller clock). */
  endedAtMs: number | undefined;
  /** The verdict deadline, or a resume waiting out CONTINUATION_MS: either ends if the caller speaks again. */
  deadline: ClockTimer | undefined;
  limit: ClockTimer;
  /** Real time: the watch for a line that sends no audio. */
  stall: ClockTimer | undefined;
}

export type VerdictResult = 'applied' | 'deferred' | 'too_late';

/**
 * A noisy line (a TV, a street, a chatty backchanneler) makes the bot stutter: hold, resume, hold. After this many
 * resumes within BACKOFF_WINDOW_MS, only confirmed speech holds the bot for BACKOFF_MS.
 */
const BACKOFF_RESUMES = 3;
const BACKOFF_WINDOW_MS = 10_000;
const BACKOFF_MS = 30_000;

export class BargeInController {
  #held: Held | undefined;
  #suspects = 0;
  readonly #resumedAtMs: number[] = [];
  #backoffUntilMs = -Infinity;

  constructor(
    /** The caller's audio as it is judged (CallerAudioClock); any Clock whose time is that audio in tests. */
    private readonly clock: Clock,
    /** Read at each decision: the agent may change the call's policy mid-call (`config.barge_in`). */
    private readonly policyNow: () => BargeInPolicy,
    private readonly actions: BargeInActions,
    /** True when the agent opted in to verdicts: every held sound waits for one until the deadline. */
    private readonly verdicts: () => boolean,
    /** Absent: no real-time watch (a clock that always moves, as in the benches). */
    private readonly line?: LineWatch,
  ) {}

  private get policy(): BargeInPolicy {
    return this.policyNow();
  }

  /** The suspect on hold, if any. */
  get held(): HeldSuspect | undefined {
    return this.#held;
  }

  /** True while a noisy line has made suspects alone too cheap: only confirmed speech holds the bot. */
  get backingOff(): boolean {
    return this.clock.now() < this.#backoffUntilMs;
  }

  /** What made the line look noisy is now handled elsewhere (the bot's own echo, once the echo gate knows it). */
  endBackoff(): void {
    this.#backoffUntilMs = -Infinity;
    this.#resumedAtMs.length = 0;
  }

  /**
   * A span opened (`confirmed`: the detector's speech_started, only needed while backing off): hold if there is
   * something to hold; inside a hold (waiting for a verdict, or for the caller to stay quiet before resuming), the
   * caller is talking again: the same hold goes on.
   */
  suspectStarted(onsetMs: number, confirmed = false): void {
    const held = this.#held;
    if (held) {
      held.speaking = true;
      this.#clearDeadline(held);
      return;
    }
    if (this.backingOff && !confirmed) return;
    if (!this.actions.canHold()) return;
    const id = `s${++this.#suspects}`;
    const limit = this.clock.setTimeout(() => this.#limitReached(), this.policy.maxHoldMs);
    const stall = this.line?.clock.setTimeout(() => this.#watchLine(), LINE_STALL_MS);
    const next: Held = { id, onsetMs, heldAtMs: this.clock.now(), speaking: true, extentMs: 0, resumeVerdict: false, confirmed, endedAtMs: undefined, deadline: undefined, limit, stall };
    this.#held = next;
    this.actions.hold(next);
  }

  /**
   * Whether a suspect starting now would do anything: go on with the hold, or begin one (not while backing off, when
   * only confirmed speech holds). The detector hunts onsets with its second stream only while this is true.
   */
  get listening(): boolean {
    return this.#held !== undefined || (!this.backingOff && this.actions.canHold());
  }

  /** The VAD confirmed the held sound as speech (speech_started): what `ambiguous_default=speech` waits for. */
  speechConfirmed(): void {
    if (this.#held) this.#held.confirmed = true;
  }

  /** The open span reached longSpeechMs: certain enough. */
  suspectLong(): void {
    if (this.#held) this.#commit('duration');
  }

  /**
   * The open span ended after `extentMs` of speech: decide, or wait for the agent's verdict. `echo`: it ended one
   * echo delay after the bot went quiet, so it was the bot's own voice coming back: resume, never commit.
   */
  suspectEnded(extentMs: number, echo = false): void {
    const held = this.#held;
    if (!held) return;
    held.speaking = false;
    held.extentMs += extentMs;
    held.endedAtMs = this.clock.now();
    if (echo) return this.#resume('echo');
    if (held.extentMs >= this.policy.longMinMs) return this.#commit('duration');
    if (held.resumeVerdict) return this.#resumeAfterPause('verdict');
    // An agent that gives verdicts hears every held sound first: a short "no" is a command its recognizer knows.
    // Without a verdict by the deadline, the sound's length decides as it would have at once.
    if (this.verdicts()) {
      held.deadline = this.clock.setTimeout(() => this.#byLength(), this.policy.verdictDeadlineMs);
      return;
    }
    this.#byLength();
  }

  /** `final`: the hold is at its limit, so a resume does not wait out CONTINUATION_MS. */
  #byLength(final = false): void {
    const held = this.#held;
    if (!held) return;
    if (held.extentMs < this.policy.shortMaxMs) this.#resumeAfterPause('short', final);
    else this.#applyDefault(final);
  }

  /** Resumes once the caller has been quiet CONTINUATION_MS since the sound ended; speaking sooner keeps the hold. */
  #resumeAfterPause(reason: ResumeReason, final = false): void {
    const held = this.#held;
    if (!held) return;
    const waitMs = final || held.endedAtMs === undefined ? 0 : held.endedAtMs + CONTINUATION_MS - this.clock.now();
    if (waitMs <= 0) return this.#resume(reason);
    this.#clearDeadline(held);
    held.deadline = this.clock.setTimeout(() => this.#resume(reason), waitMs);
  }

  /** The agent's decision on suspect `id`; too late once that hold is over. */
  verdict(id: string, verdict: 'interrupt' | 'resume'): VerdictResult {
    const held = this.#held;
    if (!held || held.id !== id) return 'too_late';
    if (verdict === 'interrupt') {
      this.#commit('verdict');
      return 'applied';
    }
    // Never resume over a caller who is still talking: the verdict waits for the end of the speech.
    if (held.speaking) {
      held.resumeVerdict = true;
      return 'deferred';
    }
    this.#resumeAfterPause('verdict');
    return 'applied';
  }

  /** A key press during a hold commits it at once; false when nothing was held. */
  dtmf(): boolean {
    if (!this.#held) return false;
    this.#commit('dtmf');
    return true;
  }

  /** The hold ended some other way (cancel, hangup, transfer, the call's end): forget it, decide nothing. */
  drop(): void {
    const held = this.#held;
    if (!held) return;
    this.#clearTimers(held);
    this.#held = undefined;
  }

  #applyDefault(final: boolean): void {
    const { ambiguousDefault } = this.policy;
    if (ambiguousDefault === 'interrupt' || (ambiguousDefault === 'speech' && this.#held?.confirmed === true)) this.#commit('policy');
    else this.#resumeAfterPause('policy', final);
  }

  /** max_hold_ms of the caller's audio since the hold (so a VAD lagging behind the audio is never mistaken for speech). */
  #limitReached(): void {
    const held = this.#held;
    if (!held) return;
    if (held.speaking) this.#commit('timeout');
    else this.#byLength(true);
  }

  /** Real time: no caller audio for LINE_STALL_MS means no more is coming soon; decide as the hold limit would. */
  #watchLine(): void {
    const held = this.#held;
    const line = this.line;
    if (!held || !line) return;
    const quietMs = line.quietForMs();
    if (quietMs >= LINE_STALL_MS) return this.#limitReached();
    held.stall = line.clock.setTimeout(() => this.#watchLine(), LINE_STALL_MS - quietMs);
  }

  #commit(cause: CommitCause): void {
    const held = this.#take();
    if (held) this.actions.commit(held, cause);
  }

  #resume(reason: ResumeReason): void {
    const held = this.#take();
    if (!held) return;
    const now = this.clock.now();
    this.#resumedAtMs.push(now);
    while (this.#resumedAtMs.length > 0 && this.#resumedAtMs[0]! <= now - BACKOFF_WINDOW_MS) this.#resumedAtMs.shift();
    if (this.#resumedAtMs.length >= BACKOFF_RESUMES) {
      this.#backoffUntilMs = now + BACKOFF_MS;
      this.#resumedAtMs.length = 0;
    }
    this.actions.resume(held, reason);
  }

  #take(): Held | undefined {
    const held = this.#held;
    if (!held) return undefined;
    this.#clearTimers(held);
    this.#held = undefined;
    return held;
  }

  #clearDeadline(held: Held): void {
    if (held.deadline) this.clock.clearTimeout(held.deadline);
    held.deadline = undefined;
  }

  #clearTimers(held: Held): void {
    this.#clearDeadline(held);
    this.clock.clearTimeout(held.limit);
    if (held.stall) this.line?.clock.clearTimeout(held.stall);
  }
}
