// "Pause fast, decide slow" (research/barge-in.md §3): the per-call state machine between the caller's voice
// activity and what the bot does. A suspect (speech likely, ~100 ms after onset) puts the call on HOLD: the caller
// stops hearing the bot, nothing is thrown away. Later the hold either COMMITS (today's barge-in: the utterance is
// aborted, the agent told `interrupted`) or RESUMES (the held audio is re-sent from what the caller last heard).
// Only a commit loses content, so only a commit waits for certainty. The call session does the actions (port).

import type { Clock, ClockTimer } from './clock.js';

/**
 * What a held sound between short_max_ms and long_min_ms does without a verdict: `interrupt` (never talk over a
 * "stop"), `resume`, or `speech`: interrupt only when the VAD confirmed speech during the hold (speech_started, 250 ms
 * at the full threshold), the rule Raaga cut by before holds, so the band loses no more fillers than it did then.
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
  // research/barge-in.md §3.2 [probe]: fillers reach 128-416 ms of Silero extent, one-word commands 256-352 ms, so
  // length cannot separate them; bench/barge-in-policies.ts sweeps short_max_ms on half its voices: 200 ms loses 72 %
  // of fillers and misses 3.8 % of commands, 250 ms 53 % and 9.4 %, 300 ms 35 % and 26 %. 250 keeps a missed "stop"
  // rare; an agent's verdict is what saves the fillers.
  shortMaxMs: 250,
  longMinMs: 500,
  verdictDeadlineMs: 400,
  ambiguousDefault: 'interrupt',
  maxHoldMs: 1500,
};

/** How often a hold limit that found the VAD behind looks again: one Silero window. */
const CATCH_UP_POLL_MS = 32;

/** What decided a commit: speech long enough, the agent's verdict, a key, the hold's time limit, or the band's policy. */
export type CommitCause = 'duration' | 'verdict' | 'dtmf' | 'timeout' | 'policy';
/** Why a hold resumed: speech too short, the bot's own echo stopping, the agent's verdict, or the band's policy. */
export type ResumeReason = 'short' | 'echo' | 'verdict' | 'policy';

export interface HeldSuspect {
  readonly id: string;
  /** Onset of the caller's sound on the call clock (the detector's first suspect window). */
  readonly onsetMs: number;
  /** Monotonic time the hold began. */
  readonly heldAtMs: number;
}

export interface BargeInActions {
  /** True when something interruptible is playing or about to: only then is there anything to hold. */
  canHold(): boolean;
  hold(suspect: HeldSuspect): void;
  resume(suspect: HeldSuspect, reason: ResumeReason): void;
  commit(suspect: HeldSuspect, cause: CommitCause): void;
  /**
   * True while caller audio that already arrived is not judged yet (frames not yet read, windows the VAD has not
   * answered): what the detector says about speech is then behind the audio, so the hold limit waits for it.
   */
  audioBehind(): boolean;
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
  deadline: ClockTimer | undefined;
  limit: ClockTimer;
  /** The hold limit found the VAD behind: it waits for it, but not past this time. */
  catchUpUntilMs: number | undefined;
}

export type VerdictResult = 'applied' | 'deferred' | 'too_late';

/**
 * A noisy line (a TV, a street, a chatty backchanneler) makes the bot stutter: hold, resume, hold. After this many
 * resumes within BACKOFF_WINDOW_MS, only confirmed speech holds the bot for BACKOFF_MS (research/barge-in.md §3.4).
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
    private readonly clock: Clock,
    /** Read at each decision: the agent may change the call's policy mid-call (`config.barge_in`). */
    private readonly policyNow: () => BargeInPolicy,
    private readonly actions: BargeInActions,
    /** True when the agent opted in to verdicts: every held sound waits for one until the deadline. */
    private readonly verdicts: () => boolean,
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
   * something to hold; inside a hold, the caller is talking again.
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
    const next: Held = { id, onsetMs, heldAtMs: this.clock.now(), speaking: true, extentMs: 0, resumeVerdict: false, confirmed, deadline: undefined, limit, catchUpUntilMs: undefined };
    this.#held = next;
    this.actions.hold(next);
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
    if (echo) return this.#resume('echo');
    if (held.extentMs >= this.policy.longMinMs) return this.#commit('duration');
    if (held.resumeVerdict) return this.#resume('verdict');
    // An agent that gives verdicts hears every held sound first: a short "no" is a command its recognizer knows.
    // Without a verdict by the deadline, the sound's length decides as it would have at once.
    if (this.verdicts()) {
      held.deadline = this.clock.setTimeout(() => this.#byLength(), this.policy.verdictDeadlineMs);
      return;
    }
    this.#byLength();
  }

  #byLength(): void {
    const held = this.#held;
    if (!held) return;
    if (held.extentMs < this.policy.shortMaxMs) this.#resume('short');
    else this.#applyDefault();
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
    this.#resume('verdict');
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

  #applyDefault(): void {
    const { ambiguousDefault } = this.policy;
    if (ambiguousDefault === 'interrupt' || (ambiguousDefault === 'speech' && this.#held?.confirmed === true)) this.#commit('policy');
    else this.#resume('policy');
  }

  #limitReached(): void {
    const held = this.#held;
    if (!held) return;
    if (held.speaking && this.actions.audioBehind()) {
      // "Still speaking" may only be the VAD lagging on a loaded machine: a filler that already ended would then be
      // cut. Wait for the verdict of the audio (at most one more max_hold_ms), re-checking every window.
      held.catchUpUntilMs ??= this.clock.now() + this.policy.maxHoldMs;
      if (this.clock.now() < held.catchUpUntilMs) {
        held.limit = this.clock.setTimeout(() => this.#limitReached(), CATCH_UP_POLL_MS);
        return;
      }
    }
    if (held.speaking) this.#commit('timeout');
    else this.#byLength();
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
  }
}
