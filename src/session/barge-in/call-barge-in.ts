// Barge-in on one call, in one place (docs/telephony.md, "Barge-in: pause fast, decide slow"): the caller's frames
// go through the echo gate (the bot's own voice is kept from the VAD) into the detector; its events move barge-in's
// clock (the caller's audio, caller-audio-clock.ts) and feed the controller, which holds, resumes or commits. This
// unit says when the bot may be held at all, cuts at once where holds are off (a key, barge_in_suspect=off), judges
// whether a held sound was the echo, counts what it decided, and tells the agent. It acts on the call through one
// port (BargeInPort): the playback to hold or resume, and the call's stop path to cut.

import { mulawToPcm16 } from '../../audio/mulaw.js';
import { ApiError } from '../../errors.js';
import type { Metrics } from '../../metrics/metrics.js';
import { DEFAULT_BARGE_IN_TUNING } from './barge-in-detector.js';
import type { CallEvent, InterruptDecision, UtteranceOffset } from '../call-events.js';
import type { HeldPosition } from '../call-playback.js';
import type { Clock } from '../clock.js';
import type { SessionLogger } from '../synthesis-session.js';
import { HOLD_EVENTS, type BargeInOverrides, type BargeInSettings, type VoiceActivityDetector, type VoiceActivityDetectorFactory, type VoiceActivityEvent } from './barge-in-contract.js';
import { BargeInController, type CommitCause, type HeldSuspect, type ResumeReason } from './barge-in-controller.js';
import { CallerAudioClock } from './caller-audio-clock.js';
import { EchoGate } from './echo-gate.js';

/** A span ends after this much quiet (the detector's), so its last speech was this long before `suspect_ended`. */
const SUSPECT_END_SILENCE_MS = DEFAULT_BARGE_IN_TUNING.suspectEndMs;

/** Bot audio playing or about to (sent and not yet played, a turn running, texts queued), as barge-in may treat it. */
export type BotAudio = 'none' | 'protected' | 'interruptible';

/** The call, as barge-in acts on it. */
export interface BargeInPort {
  /** Whether anything of the bot is outstanding, and whether a barge-in may cut it (no non-interruptible text). */
  botAudio(): BotAudio;
  /** HOLD: the caller stops hearing the bot; the turn, its queue and the audio sent stay (on the tape). */
  holdPlayback(): HeldPosition;
  /** RESUME: re-sends the tape from where the hold left it; returns the playout position it starts from. */
  resumePlayback(held: HeldPosition): number;
  /** Where a playout position falls in the utterances sent. */
  locate(positionMs: number): UtteranceOffset | undefined;
  /**
   * The call's stop path for a barge-in: aborts what is speaking (an interruptible text) and its queue, clears the
   * provider unless a hold did (it asks release() for the hold), and tells the agent `interrupted`.
   */
  stopSpeaking(cause: 'speech' | 'dtmf', decision: InterruptDecision | undefined): void;
  /** To the agent, when one is attached. */
  tell(event: CallEvent): void;
  /** An agent is attached: only then can a verdict come. */
  readonly agentAttached: boolean;
  /** The call is over or ending (hangup, transfer): nothing more is decided. */
  readonly ended: boolean;
}

export interface CallBargeInDeps {
  /** Real (monotonic) time: the playout's, and the line watch's (a line that sends no audio at all). */
  readonly clock: Clock;
  /** Undefined: no voice activity detection (speech barge-in off; keys still cut). */
  readonly vad: VoiceActivityDetectorFactory | undefined;
  readonly settings: BargeInSettings;
  readonly logger: Pick<SessionLogger, 'info'>;
  readonly metrics?: Pick<Metrics, 'bargeIn' | 'bargeInHold'> | undefined;
}

/** What barge-in knows about a hold while it lasts. */
interface Hold extends HeldPosition {
  readonly suspect: HeldSuspect;
  /** When the provider was cleared, on the caller's audio axis: the bot's echo stops one echo delay later. */
  readonly clearedAtMs: number;
}

export class CallBargeIn {
  readonly #deps: CallBargeInDeps;
  readonly #port: BargeInPort;
  #settings: BargeInSettings;
  /** Barge-in's clock: the caller's audio as the detector judges it. */
  readonly #axis: CallerAudioClock;
  readonly #echo: EchoGate;
  #echoKnown = false;
  /** What the VAD hears instead of a frame the echo explains. */
  #silent: Int16Array | undefined;
  readonly #detector: VoiceActivityDetector | undefined;
  readonly #controller: BargeInController;
  #hold: Hold | undefined;
  /** The caller's speech is confirmed and not yet stopped. */
  #speaking = false;
  /** On the caller's audio axis: the caller's speech was confirmed; the running turn started. */
  #speechConfirmedAtMs = 0;
  #turnStartedAtMs = 0;

  constructor(deps: CallBargeInDeps, port: BargeInPort) {
    this.#deps = deps;
    this.#port = port;
    this.#settings = deps.settings;
    this.#axis = new CallerAudioClock(deps.clock);
    // What plays is scheduled in real time; the gate compares it with the caller's audio on the caller's axis.
    this.#echo = new EchoGate((realMs) => this.#axis.toAxisMs(realMs));
    this.#controller = new BargeInController(
      this.#axis,
      () => this.#settings.policy,
      {
        canHold: () => this.holdsPossible && port.botAudio() === 'interruptible' && !this.#speakingSinceBeforeTurn(),
        hold: (suspect) => this.#held(suspect),
        resume: (suspect, reason) => this.#resumed(suspect, reason),
        commit: (suspect, cause) => this.#committed(suspect, cause),
      },
      () => this.#agentSeesHolds && port.agentAttached,
      this.#axis.line,
    );
    // VAD runs when something listens to it: barge-in by speech, or an agent that wants speech events.
    this.#detector = deps.vad?.create(
      {
        minSpeechMs: deps.settings.minSpeechMs,
        longSpeechMs: deps.settings.policy.longMinMs,
        // A suspect acts only on a hold or when it may begin one (canHold: holds possible, bot audio interruptible).
        onsetMatters: () => this.#controller.listening,
      },
      (event) => this.#voiceActivity(event),
      (atMs) => {
        if (!port.ended) this.#axis.advanceTo(atMs);
      },
    );
  }

  /** Learns what the bot plays and when (CallPlayback tells it); undefined without a VAD, as there is no echo to judge. */
  get echoGate(): EchoGate | undefined {
    return this.#detector ? this.#echo : undefined;
  }

  /** Speech may hold the bot: speech barge-in with suspects on, and a detector to raise them. */
  get holdsPossible(): boolean {
    return this.#detector !== undefined && this.#settings.suspect === 'vad' && this.#modeAllows('speech');
  }

  /** One inbound frame (8 kHz mu-law) at `atMs` on the call's media clock. */
  heard(frame: Uint8Array, atMs: number): void {
    if (!this.#detector) return;
    // The bot's own voice coming back is kept from the VAD; the agent still gets the line as it is.
    const pcm = mulawToPcm16(frame);
    this.#axis.arrived(atMs);
    const echo = this.#echo.heard(pcm, atMs);
    // The stutter an unknown echo caused (holds that resumed) is over once the gate knows it: no back-off for it.
    if (!this.#echoKnown && this.#echo.estimate) {
      this.#echoKnown = true;
      this.#controller.endBackoff();
    }
    this.#detector.pushPcm(echo ? this.#silentFrame(pcm.length) : pcm, atMs);
  }

  /** A key the call's gather did not take: it commits a hold at once (when keys may interrupt), or cuts. */
  key(): void {
    if (this.#modeAllows('dtmf') && this.#controller.dtmf()) return;
    this.#cutNow('dtmf');
  }

  /** The agent's verdict on a hold (`barge_in_verdict`); throws ApiError (`validation_error`) when it cannot count. */
  verdict(suspectId: string, verdict: 'interrupt' | 'resume'): void {
    if (!this.#agentSeesHolds) {
      throw new ApiError('validation_error', 'barge_in_verdict needs barge_in_events=2 (a call parameter, or barge_in.events in config).');
    }
    if (this.#controller.verdict(suspectId, verdict) === 'too_late') {
      throw new ApiError('validation_error', `Suspect '${suspectId}' is not on hold (already resumed or interrupted); a verdict counts only between interruption_suspected and its outcome.`);
    }
  }

  /**
   * The agent changed the call's barge-in settings (`config.barge_in`); they apply from the next decision. Throws
   * ApiError (`validation_error`) when short_max_ms would exceed long_min_ms, changing nothing.
   */
  configure(overrides: BargeInOverrides): void {
    const { suspect, events, ...policy } = overrides;
    const current = this.#settings;
    const merged = { ...current.policy, ...policy };
    if (merged.shortMaxMs > merged.longMinMs) {
      throw new ApiError('validation_error', `barge_in.short_max_ms (${merged.shortMaxMs}) must not exceed barge_in.long_min_ms (${merged.longMinMs}).`);
    }
    this.#settings = { ...current, suspect: suspect ?? current.suspect, events: events ?? current.events, policy: merged };
    if (policy.longMinMs !== undefined) this.#detector?.setLongSpeechMs(merged.longMinMs);
  }

  /** A turn starts (its text admitted, nothing ahead of it) at `realMs`. */
  turnStarted(realMs: number): void {
    this.#turnStartedAtMs = this.#axis.toAxisMs(realMs);
  }

  /** The turn's first audio left: a caller already talking then counts now when barge_in_only_while_speaking is off. */
  turnAudible(): void {
    if (this.#speaking && !this.#settings.onlyWhileBotSpeaking) queueMicrotask(() => this.#cutNow('speech'));
  }

  /** The call stops speaking, for whatever cause: a hold is over, undecided; returns where it left the playback. */
  release(): HeldPosition | undefined {
    const hold = this.#hold;
    this.#hold = undefined;
    this.#controller.drop();
    return hold;
  }

  /** The call is over: nothing more is heard or decided. */
  close(): void {
    this.release();
    this.#detector?.close();
  }

  // ---- internals ---------------------------------------------------------------------------------------

  /** barge_in_events=2: the agent hears every hold and its outcome, and may judge a hold with a verdict. */
  get #agentSeesHolds(): boolean {
    return this.#settings.events === HOLD_EVENTS;
  }

  #modeAllows(cause: 'speech' | 'dtmf'): boolean {
    const { mode } = this.#settings;
    return mode === 'any' || mode === cause;
  }

  /**
   * The caller was already talking (confirmed speech, not yet stopped) when the running turn began: with
   * barge_in_only_while_speaking, a pause in that speech does not make its next words hold the new turn.
   */
  #speakingSinceBeforeTurn(): boolean {
    return this.#speaking && this.#settings.onlyWhileBotSpeaking && this.#speechConfirmedAtMs <= this.#turnStartedAtMs;
  }

  #silentFrame(samples: number): Int16Array {
    if (this.#silent?.length !== samples) this.#silent = new Int16Array(samples);
    return this.#silent;
  }

  #voiceActivity(event: VoiceActivityEvent): void {
    if (this.#port.ended) return;
    // The event speaks of the audio up to its frame: barge-in's time is there now (what fell due before it, first).
    this.#axis.advanceTo(event.atMs);
    switch (event.type) {
      case 'suspect_started':
        if (this.holdsPossible) this.#controller.suspectStarted(event.onsetMs);
        return;
      case 'suspect_long': {
        // An echo can run past long_min_ms (a late hold on a loaded machine, a long echo path): the bot's own voice
        // never commits. It stops one delay after the hold, and suspect_ended resumes it then.
        const hold = this.#hold;
        if (this.#controller.held && hold && this.#echo.soundsLikeEcho(event.atMs - this.#settings.policy.longMinMs, event.atMs, hold.clearedAtMs)) return;
        this.#controller.suspectLong();
        return;
      }
      case 'suspect_ended': {
        // The sound's last speech ended the span's closing silence ago; one echo delay after the hold, or following
        // the bot's envelope as an echo does, it was echo.
        const hold = this.#hold;
        const endedAtMs = event.atMs - SUSPECT_END_SILENCE_MS;
        const startedAtMs = endedAtMs - event.extentMs;
        const echo = hold !== undefined && (this.#echo.endedLikeEcho(startedAtMs, hold.clearedAtMs, endedAtMs) || this.#echo.soundsLikeEcho(startedAtMs, endedAtMs, hold.clearedAtMs));
        this.#controller.suspectEnded(event.extentMs, echo);
        return;
      }
      case 'speech_started':
        this.#speaking = true;
        this.#speechConfirmedAtMs = event.atMs;
        this.#port.tell({ type: 'speech_started', onsetMs: event.onsetMs });
        // With holds, confirmed speech is the agent's event (the controller decides), except on a line noisy enough
        // that only confirmed speech may hold the bot for a while.
        if (!this.holdsPossible) this.#cutNow('speech');
        else if (this.#controller.backingOff) this.#controller.suspectStarted(event.onsetMs, true);
        else this.#controller.speechConfirmed();
        return;
      case 'speech_stopped':
        this.#speaking = false;
        this.#port.tell({ type: 'speech_stopped', atMs: event.atMs, durationMs: event.durationMs });
        return;
    }
  }

  /** The one-decision barge-in: a key, or confirmed speech when holds are off. */
  #cutNow(cause: 'speech' | 'dtmf'): void {
    if (!this.#modeAllows(cause)) return;
    // Without outstanding audio there is nothing to cut. `onlyWhileBotSpeaking` off adds one case: speech already
    // under way when the next utterance starts cuts it (turnAudible).
    const audio = this.#port.botAudio();
    if (audio !== 'interruptible') {
      if (audio === 'protected') this.#deps.logger.info({ cause }, 'barge-in ignored: non-interruptible utterance playing');
      return;
    }
    this.#deps.metrics?.bargeIn(cause);
    this.#stop(cause, { suspectId: null, decidedBy: cause === 'dtmf' ? 'dtmf' : 'duration', decisionMs: 0 });
  }

  /** HOLD (the controller decided): the playback is held; an agent that opted in hears of it. */
  #held(suspect: HeldSuspect): void {
    const held = this.#port.holdPlayback();
    this.#hold = { suspect, ...held, clearedAtMs: this.#axis.toAxisMs(this.#deps.clock.now()) };
    this.#deps.metrics?.bargeInHold('held', 'suspect');
    if (!this.#agentSeesHolds) return;
    this.#port.tell({ type: 'interruption_suspected', suspectId: suspect.id, onsetMs: suspect.onsetMs, at: this.#port.locate(held.confirmedMs) });
  }

  /** RESUME: the tape is re-sent from the last confirmed position (first frame faded in); the turn goes on. */
  #resumed(suspect: HeldSuspect, reason: ResumeReason): void {
    const hold = this.#hold;
    this.#hold = undefined;
    if (!hold) return;
    const fromMs = this.#port.resumePlayback(hold);
    this.#deps.metrics?.bargeInHold('resumed', reason);
    if (!this.#agentSeesHolds) return;
    this.#port.tell({ type: 'resumed', suspectId: suspect.id, from: this.#port.locate(fromMs), gapMs: this.#axis.now() - suspect.heldAtMs, reason });
  }

  /** COMMIT: the barge-in it was (abort, `cancellation`, `interrupted`); the provider was cleared at the hold. */
  #committed(suspect: HeldSuspect, cause: CommitCause): void {
    const interruptCause = cause === 'dtmf' ? 'dtmf' : 'speech';
    this.#deps.metrics?.bargeIn(interruptCause);
    this.#deps.metrics?.bargeInHold('committed', cause);
    this.#stop(interruptCause, { suspectId: suspect.id, decidedBy: cause, decisionMs: this.#axis.now() - suspect.heldAtMs });
  }

  /** What decided the cut reaches the agent only when it opted in to hold events. */
  #stop(cause: 'speech' | 'dtmf', decision: InterruptDecision): void {
    this.#port.stopSpeaking(cause, this.#agentSeesHolds ? decision : undefined);
  }
}
