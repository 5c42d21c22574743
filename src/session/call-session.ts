// One phone call, transport-agnostic: a SynthesisSession speaking 20 ms mu-law frames paced against the playout
// clock, marks into the playback ledger (call-playback.ts sends them, with the frames), voice activity and DTMF turned
// into barge-in, and the agent's or API's words and call control. Barge-in pauses fast and decides slow
// (barge-in-controller.ts): a suspect holds the playback (the provider cleared, the pacer frozen, the audio kept on a
// tape); a commit aborts the utterance (`interrupted`), a resume sends the tape again from the last position the
// provider confirmed. Barge-in's time is the caller's audio as judged (caller-audio-clock.ts), never the wall clock.
// Provider bridges (src/telephony/<provider>/) feed it parsed events and give it the ports.

import type { Metrics } from '../metrics/metrics.js';
import { MULAW_SILENCE, mulawToPcm16, PHONE_FRAME_MS } from '../audio/mulaw.js';
import { DEFAULT_BARGE_IN_TUNING } from './barge-in-detector.js';
import { ApiError } from '../errors.js';
import type { AfterStream } from '../store/call-control-bus.js';
import type { Account } from '../store/store.js';
import type { BargeInOverrides, BargeInSettings, VoiceActivityDetector, VoiceActivityDetectorFactory, VoiceActivityEvent } from './barge-in-contract.js';
import { BargeInController, type CommitCause, type HeldSuspect, type ResumeReason } from './barge-in-controller.js';
import { CallerAudioClock } from './caller-audio-clock.js';
import type { CallAgentPort, CallControlPort, CallInfo, CallMediaPort, InterruptCause, InterruptDecision, TransferOptions } from './call-events.js';
import { sleep } from './clock.js';
import { CallTextQueue } from './call-text-queue.js';
import { PlaybackLedger } from './playback-ledger.js';
import { CallPlayback, type HeldPosition } from './call-playback.js';
import { DtmfGather, type GatherRequest, type GatherResult } from './dtmf-gather.js';
import { EchoGate } from './echo-gate.js';
import { PlayoutClock } from './playout-clock.js';
import type { ClientEvent, ServerMessage, SessionConfig } from './session-messages.js';
import type { SessionSink } from './session-sink.js';
import { SynthesisSession, type SessionDeps, type SessionPlayout, type TurnInfo } from './synthesis-session.js';
import type { TurnPlayout } from './utterance-turn.js';

/** Texts an agent or API may queue behind the one speaking. */
const MAX_QUEUED_TEXTS = 16;
/** A draining hangup waits at most this long for the queued audio to play. */
const MAX_DRAIN_MS = 30_000;
const DRAIN_POLL_MS = 50;
/** A span ends after this much quiet (the detector's), so its last speech was this long before `suspect_ended`. */
const SUSPECT_END_SILENCE_MS = DEFAULT_BARGE_IN_TUNING.suspectEndMs;
/** What the call knows about a hold while it lasts. */
interface Hold extends HeldPosition {
  readonly suspect: HeldSuspect;
  /** When the provider was cleared, on the caller's audio axis: the bot's echo stops one echo delay later. */
  readonly clearedAtMs: number;
}

export interface CallSettings {
  /** mulaw 8000: the call's audio; the agent may replace voice, language and speed. */
  readonly config: SessionConfig;
  readonly bargeIn: BargeInSettings;
  readonly greeting: { readonly text: string; readonly interruptible: boolean; readonly thenHangUp?: boolean } | undefined;
  /** Spoken if the agent goes away; empty: hang up at once. */
  readonly fallbackMessage: string;
}

export interface CallSessionDeps extends Omit<SessionDeps, 'playout' | 'limits' | 'usage'> {
  /** Undefined: no voice activity detection (speech barge-in off; DTMF still works). */
  readonly vad: VoiceActivityDetectorFactory | undefined;
  readonly playoutAheadMs: number;
  /** Told each gather's result, after the agent (an outbound call's status webhook gets it). */
  readonly onGathered?: ((result: GatherResult) => void) | undefined;
  /** Active calls, barge-ins, first audio per turn, refused texts (GET /metrics); absent: not measured. */
  readonly metrics?: Pick<Metrics, 'sessionOpened' | 'sessionClosed' | 'bargeIn' | 'bargeInHold' | 'timeToFirstAudio' | 'sessionError'> | undefined;
}

export type CallStart = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export class CallSession {
  readonly #deps: CallSessionDeps;
  readonly #settings: CallSettings;
  readonly #media: CallMediaPort;
  readonly #control: CallControlPort;
  readonly #session: SynthesisSession;
  readonly #playout: PlayoutClock;
  readonly #ledger = new PlaybackLedger();
  /** Barge-in's clock: the caller's audio as the detector judges it. */
  readonly #axis: CallerAudioClock;
  readonly #echo: EchoGate;
  readonly #playback: CallPlayback;
  /** What the VAD hears instead of a frame the echo explains. */
  #silent: Int16Array | undefined;
  #echoKnown = false;
  readonly #detector: VoiceActivityDetector | undefined;
  readonly #controller: BargeInController;
  #bargeInSettings: BargeInSettings;
  #hold: Hold | undefined;
  #agent: CallAgentPort | undefined;
  #agentAudio = false;
  #endReason: string | undefined;
  #finished = false;
  #speaking = false;
  /** On the caller's audio axis: the caller's speech was confirmed; the running turn started. */
  #speechConfirmedAtMs = 0;
  #turnStartedAtMs = 0;
  #resolveStart: ((result: CallStart) => void) | undefined;
  #utteranceCount = 0;
  #bargeIns = 0;
  readonly #gather: DtmfGather;
  /** A transfer made by ending the stream: what the provider should dial once it asks (afterStream). */
  #afterStream: AfterStream | undefined;
  #gatherCount = 0;

  constructor(
    deps: CallSessionDeps,
    account: Account,
    readonly info: CallInfo,
    settings: CallSettings,
    media: CallMediaPort,
    control: CallControlPort,
  ) {
    this.#deps = deps;
    this.#settings = settings;
    this.#bargeInSettings = settings.bargeIn;
    this.#media = media;
    this.#control = control;
    this.#playout = new PlayoutClock(deps.clock, deps.playoutAheadMs);
    this.#axis = new CallerAudioClock(deps.clock);
    // What plays is scheduled in real time; the gate compares it with the caller's audio on the caller's axis.
    this.#echo = new EchoGate((realMs) => this.#axis.toAxisMs(realMs));
    this.#playback = new CallPlayback(media, this.#ledger, this.#playout, deps.clock, deps.vad ? this.#echo : undefined, () => this.#holdsPossible());
    const playout: SessionPlayout = { frameMs: PHONE_FRAME_MS, forTurn: (turn) => this.#turnPlayout(turn) };
    this.#session = new SynthesisSession(
      {
        ...deps,
        playout,
        textQueue: new CallTextQueue(MAX_QUEUED_TEXTS),
        limits: { idleTimeoutMs: null, configTimeoutMs: null },
        usage: { keyId: null, endpoint: 'call', callId: info.callSid },
      },
      account,
      this.#sessionSink(),
    );
    this.#controller = new BargeInController(
      this.#axis,
      () => this.#bargeInSettings.policy,
      {
        canHold: () => this.#holdsPossible() && this.#interruptibleOutstanding() && !this.#speakingSinceBeforeTurn(),
        hold: (suspect) => this.#holdPlayback(suspect),
        resume: (suspect, reason) => this.#resumePlayback(suspect, reason),
        commit: (suspect, cause) => this.#commitHold(suspect, cause),
      },
      () => this.#bargeInSettings.events === 2 && this.#agent !== undefined,
      this.#axis.line,
    );
    this.#gather = new DtmfGather(deps.clock, (result) => this.#gathered(result));
    // VAD runs when something listens to it: barge-in by speech, or an agent that wants speech events.
    this.#detector = deps.vad?.create(
      { minSpeechMs: settings.bargeIn.minSpeechMs, longSpeechMs: settings.bargeIn.policy.longMinMs },
      (event) => this.#voiceActivity(event),
      (atMs) => {
        if (!this.ended) this.#axis.advanceTo(atMs);
      },
    );
  }

  /**
   * The transfer to dial after the stream, when the call ended its stream to transfer (no provider REST): Twilio's
   * <Connect action> request asks for it, even after the call ended. Undefined otherwise (the provider hangs up).
   */
  get afterStream(): AfterStream | undefined {
    return this.#afterStream;
  }

  /** Resolves when the call is over and its slot and credits are settled. */
  get closed(): Promise<void> {
    return this.#session.closed;
  }

  get ended(): boolean {
    return this.#endReason !== undefined;
  }

  /** Playout gaps inside utterances so far (the bench's "zero underruns"). */
  get underruns(): number {
    return this.#playout.underruns;
  }

  /** Utterances the call started (greeting, agent and REST texts). */
  get utterances(): number {
    return this.#session.utterances;
  }

  get bargeIns(): number {
    return this.#bargeIns;
  }

  /** Takes the concurrency slot with the call's config, then speaks the greeting. */
  async start(): Promise<CallStart> {
    const started = new Promise<CallStart>((resolve) => (this.#resolveStart = resolve));
    this.#session.open();
    this.#session.receive({ type: 'config', config: this.#settings.config });
    const result = await started;
    const { metrics } = this.#deps;
    if (result.ok && metrics) {
      metrics.sessionOpened('call');
      void this.closed.then(() => metrics.sessionClosed('call'));
    }
    const { greeting } = this.#settings;
    if (result.ok && greeting && greeting.text.trim() !== '') {
      this.say({ text: greeting.text, utteranceId: 'greeting', interruptible: greeting.interruptible });
      // A message call (an OTP, a reminder, a voicemail): the call ends once the greeting has played.
      if (greeting.thenHangUp) void this.hangup(true);
    }
    return result;
  }

  /** The agent's socket is open: it gets `call_started` and from then on every event. */
  attachAgent(agent: CallAgentPort, wantsAudio: boolean): void {
    if (this.ended) {
      agent.close();
      return;
    }
    this.#agent = agent;
    this.#agentAudio = wantsAudio;
    const { info } = this;
    agent.event({ type: 'call_started', info });
  }

  /** The agent's socket failed or closed mid-call: the documented fallback (message, then hangup). */
  agentLost(): void {
    this.#agent = undefined;
    if (this.ended) return;
    this.#deps.logger.warn({}, 'call agent lost; speaking the fallback and hanging up');
    const message = this.#settings.fallbackMessage.trim();
    this.#session.interrupt(true);
    this.#cutPlayback(undefined);
    if (message !== '') this.say({ text: message, utteranceId: 'fallback', interruptible: false });
    void this.hangup(true);
  }

  // ---- words and control from the agent or the REST API ------------------------------------------

  /** config / text / cancel / ping from the agent (parsed as on /v1/tts/websocket). */
  receive(event: ClientEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case 'cancel':
        this.cancel();
        return;
      case 'text':
        this.say(event);
        return;
      case 'disconnect':
        return; // the agent closes its own socket; the call goes on until hangup
      default:
        this.#session.receive(event);
    }
  }

  /** An agent message that could not be parsed: answered with `error`, in order. */
  receiveInvalid(error: Parameters<SynthesisSession['receiveInvalid']>[0]): void {
    if (!this.ended) this.#session.receiveInvalid(error);
  }

  /** Queues a text; returns the utterance id its replies and playback events carry. */
  say(event: { readonly text: string; readonly utteranceId?: string | undefined; readonly interruptible?: boolean | undefined }): string {
    const utteranceId = event.utteranceId ?? `utt_${++this.#utteranceCount}`;
    if (!this.ended) {
      this.#session.receive({ type: 'text', text: event.text, utteranceId, interruptible: event.interruptible !== false });
    }
    return utteranceId;
  }

  /** Stops what is speaking (even non-interruptible text) and drops the queue; audio at the provider is cleared. */
  cancel(): void {
    if (this.ended) return;
    const stopped = this.#session.interrupt(true);
    if (!stopped) this.#session.receive({ type: 'cancel' });
    this.#cutPlayback('cancel');
  }

  /** Ends the call; with `drain`, after what is queued has played (at most 30 s). */
  async hangup(drain: boolean): Promise<void> {
    if (this.ended) return;
    if (drain) await this.#drained();
    if (this.ended) return;
    this.#endReason = 'hangup';
    await this.#runControl('hangup', () => this.#control.hangup());
  }

  async transfer(to: string, options: TransferOptions = {}): Promise<void> {
    if (this.ended) return;
    this.#endReason = 'transfer';
    this.#session.interrupt(true);
    this.#cutPlayback(undefined);
    await this.#runControl('transfer', async () => {
      // Kept before the stream closes: the provider may ask for it the moment it does (Twilio's <Connect action>).
      this.#afterStream = { to, ...options };
      if ((await this.#control.transfer(to, options)) === 'redirected') this.#afterStream = undefined;
    });
  }

  /**
   * Collects keys (docs/telephony.md, "Gather"): speaks `prompt` first when given, and returns the gather's id; the
   * result goes to the agent (`gather_result`) and stays readable through gatherResult / whenGathered.
   */
  gather(request: GatherRequest): string {
    const gatherId = request.gatherId ?? `gather_${++this.#gatherCount}`;
    if (this.ended) return gatherId;
    const { prompt, interruptible } = request;
    const prompting = prompt !== undefined && prompt.trim() !== '';
    const spec = { gatherId, numDigits: request.numDigits, finishOnKey: request.finishOnKey, timeoutMs: request.timeoutMs, interDigitTimeoutMs: request.interDigitTimeoutMs };
    this.#gather.start(spec, prompting ? { interruptible } : undefined);
    if (prompting) this.say({ text: prompt, utteranceId: gatherId, interruptible });
    return gatherId;
  }

  /** A gather's result, `pending` while it runs, undefined when this call has no such gather. */
  gatherResult(gatherId: string): GatherResult | 'pending' | undefined {
    return this.#gather.result(gatherId);
  }

  /** Resolves once the gather is decided; undefined when this call has no such gather. */
  whenGathered(gatherId: string): Promise<GatherResult> | undefined {
    return this.#gather.whenDecided(gatherId);
  }

  #gathered(result: GatherResult): void {
    this.#agent?.event({ type: 'gather_result', result });
    this.#deps.onGathered?.(result);
  }

  /** A gather's prompt (its utterance id is the gather's) is over, however it ended: the caller's turn to type. */
  #gatherPromptOver(utteranceId: string | null | undefined): void {
    if (utteranceId) this.#gather.promptOver(utteranceId);
  }

  // ---- events from the provider --------------------------------------------------------------------

  /** One inbound frame (8 kHz mu-law) at `atMs` on the call's media clock. */
  inboundAudio(frame: Uint8Array, atMs: number): void {
    if (this.ended) return;
    if (this.#agentAudio) this.#agent?.sendAudio(frame);
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

  #silentFrame(samples: number): Int16Array {
    if (this.#silent?.length !== samples) this.#silent = new Int16Array(samples);
    return this.#silent;
  }

  #voiceActivity(event: VoiceActivityEvent): void {
    if (this.ended) return;
    // The event speaks of the audio up to its frame: barge-in's time is there now (what fell due before it, first).
    this.#axis.advanceTo(event.atMs);
    switch (event.type) {
      case 'suspect_started':
        if (this.#holdsPossible()) this.#controller.suspectStarted(event.onsetMs);
        return;
      case 'suspect_long': {
        // An echo can run past long_min_ms (a late hold on a loaded machine, a long echo path): the bot's own voice
        // never commits. It stops one delay after the hold, and suspect_ended resumes it then.
        if (this.#controller.held && this.#echo.soundsLikeEcho(event.atMs - this.#bargeInSettings.policy.longMinMs, event.atMs)) return;
        this.#controller.suspectLong();
        return;
      }
      case 'suspect_ended': {
        // The sound's last speech ended the span's closing silence ago; one echo delay after the hold, or following
        // the bot's envelope as an echo does, it was echo.
        const hold = this.#hold;
        const endedAtMs = event.atMs - SUSPECT_END_SILENCE_MS;
        const startedAtMs = endedAtMs - event.extentMs;
        const echo = hold !== undefined && (this.#echo.endedLikeEcho(startedAtMs, hold.clearedAtMs, endedAtMs) || this.#echo.soundsLikeEcho(startedAtMs, endedAtMs));
        this.#controller.suspectEnded(event.extentMs, echo);
        return;
      }
      case 'speech_started':
        this.#speaking = true;
        this.#speechConfirmedAtMs = event.atMs;
        this.#agent?.event({ type: 'speech_started', onsetMs: event.onsetMs });
        // With holds, confirmed speech is the agent's event (the controller decides), except on a line noisy enough
        // that only confirmed speech may hold the bot for a while.
        if (!this.#holdsPossible()) this.#bargeIn('speech');
        else if (this.#controller.backingOff) this.#controller.suspectStarted(event.onsetMs, true);
        else this.#controller.speechConfirmed();
        return;
      case 'speech_stopped':
        this.#speaking = false;
        this.#agent?.event({ type: 'speech_stopped', atMs: event.atMs, durationMs: event.durationMs });
        return;
    }
  }

  /** The agent's verdict on a hold (`barge_in_verdict`, with barge_in_events=2). */
  bargeInVerdict(suspectId: string, verdict: 'interrupt' | 'resume'): void {
    if (this.ended) return;
    if (this.#bargeInSettings.events !== 2) {
      this.#session.receiveInvalid(new ApiError('validation_error', 'barge_in_verdict needs barge_in_events=2 (a call parameter, or barge_in.events in config).'));
      return;
    }
    if (this.#controller.verdict(suspectId, verdict) === 'too_late') {
      this.#session.receiveInvalid(
        new ApiError('validation_error', `Suspect '${suspectId}' is not on hold (already resumed or interrupted); a verdict counts only between interruption_suspected and its outcome.`),
      );
    }
  }

  /**
   * The agent changed the call's barge-in settings (`config.barge_in`); they apply from the next decision. Throws
   * ApiError (`validation_error`) when short_max_ms would exceed long_min_ms, changing nothing.
   */
  configureBargeIn(overrides: BargeInOverrides): void {
    const { suspect, events, ...policy } = overrides;
    const current = this.#bargeInSettings;
    const merged = { ...current.policy, ...policy };
    if (merged.shortMaxMs > merged.longMinMs) {
      throw new ApiError('validation_error', `barge_in.short_max_ms (${merged.shortMaxMs}) must not exceed barge_in.long_min_ms (${merged.longMinMs}).`);
    }
    this.#bargeInSettings = { ...current, suspect: suspect ?? current.suspect, events: events ?? current.events, policy: merged };
    if (policy.longMinMs !== undefined) this.#detector?.setLongSpeechMs(merged.longMinMs);
  }

  dtmf(digit: string): void {
    if (this.ended) return;
    this.#agent?.event({ type: 'dtmf', digit });
    // A running gather takes the key; its first key cuts an interruptible prompt, and nothing else is cut.
    const taken = this.#gather.key(digit);
    if (taken === 'cut-prompt') this.cancel();
    if (taken !== 'none') return;
    // A key commits a hold at once (when keys may interrupt); otherwise it cuts as it always has.
    if (this.#modeAllows('dtmf') && this.#controller.dtmf()) return;
    this.#bargeIn('dtmf');
  }

  /** The provider echoed a mark: playback confirmed (or a cleared one, ignored). */
  markEchoed(name: string): void {
    const result = this.#ledger.echoed(name);
    this.#playback.confirmed();
    if (result.kind === 'played' && result.final) {
      this.#agent?.event({ type: 'utterance_played', utteranceId: result.utteranceId, durationMs: result.durationMs });
      this.#gatherPromptOver(result.utteranceId);
    }
  }

  /** The stream is over (provider `stop`, drop, timeout, shutdown): bills produced audio, frees the slot. */
  end(reason: string): Promise<void> {
    this.#finish(reason);
    return this.#session.closed;
  }

  /** Server shutdown: close after the current utterance (the session's drain rule). */
  beginShutdown(): void {
    this.#session.beginShutdown();
  }

  // ---- internals ---------------------------------------------------------------------------------------

  #modeAllows(cause: 'speech' | 'dtmf'): boolean {
    const { mode } = this.#bargeInSettings;
    return mode === 'any' || mode === cause;
  }

  /** Speech may hold the bot: speech barge-in with suspects on, and a detector to raise them. */
  #holdsPossible(): boolean {
    return this.#detector !== undefined && this.#bargeInSettings.suspect === 'vad' && this.#modeAllows('speech');
  }

  /**
   * The caller was already talking (confirmed speech, not yet stopped) when the running turn began: with
   * barge_in_only_while_speaking, a pause in that speech does not make its next words hold the new turn.
   */
  #speakingSinceBeforeTurn(): boolean {
    return this.#speaking && this.#bargeInSettings.onlyWhileBotSpeaking && this.#speechConfirmedAtMs <= this.#turnStartedAtMs;
  }

  /** Bot audio is playing or about to, and nothing of it is protected from barge-in. */
  #interruptibleOutstanding(): boolean {
    const outstanding = this.#ledger.outstanding() || this.#session.currentTurn !== undefined || this.#session.pendingTexts > 0;
    if (!outstanding) return false;
    const turn = this.#session.currentTurn;
    return !this.#ledger.protectedOutstanding() && (turn === undefined || turn.interruptible);
  }

  /** The one-decision barge-in: a key, or confirmed speech when holds are off. */
  #bargeIn(cause: 'speech' | 'dtmf'): void {
    if (!this.#modeAllows(cause)) return;
    // Without outstanding audio there is nothing to cut. `onlyWhileBotSpeaking` off adds one case: speech already
    // under way when the next utterance starts cuts it (see #turnPlayout).
    if (!this.#interruptibleOutstanding()) {
      const outstanding = this.#ledger.outstanding() || this.#session.currentTurn !== undefined || this.#session.pendingTexts > 0;
      if (outstanding) this.#deps.logger.info({ cause }, 'barge-in ignored: non-interruptible utterance playing');
      return;
    }
    this.#bargeIns++;
    this.#deps.metrics?.bargeIn(cause);
    // Abort first (no frame of the utterance can leave after this returns), then clear what the provider holds.
    this.#session.interrupt();
    this.#cutPlayback(cause, { suspectId: null, decidedBy: cause === 'dtmf' ? 'dtmf' : 'duration', decisionMs: 0 });
  }

  /** HOLD: the caller stops hearing the bot; the turn, its queue and the audio sent stay (on the tape). */
  #holdPlayback(suspect: HeldSuspect): void {
    const held = this.#playback.hold();
    this.#hold = { suspect, ...held, clearedAtMs: this.#axis.toAxisMs(this.#deps.clock.now()) };
    this.#deps.metrics?.bargeInHold('held', 'suspect');
    if (this.#bargeInSettings.events !== 2) return;
    const at = this.#ledger.locate(held.confirmedMs);
    this.#agent?.event({ type: 'interruption_suspected', suspectId: suspect.id, onsetMs: suspect.onsetMs, at });
  }

  /** RESUME: re-sends the tape from the last confirmed position (first frame faded in); the turn goes on. */
  #resumePlayback(suspect: HeldSuspect, reason: ResumeReason): void {
    const hold = this.#hold;
    this.#hold = undefined;
    if (!hold) return;
    const fromMs = this.#playback.resume(hold);
    this.#deps.metrics?.bargeInHold('resumed', reason);
    if (this.#bargeInSettings.events !== 2) return;
    const at = this.#ledger.locate(fromMs);
    this.#agent?.event({ type: 'resumed', suspectId: suspect.id, from: at, gapMs: this.#axis.now() - suspect.heldAtMs, reason });
  }

  /** COMMIT: the barge-in it was (abort, `cancellation`, `interrupted`); the provider was cleared at the hold. */
  #commitHold(suspect: HeldSuspect, cause: CommitCause): void {
    const interruptCause = cause === 'dtmf' ? 'dtmf' : 'speech';
    this.#bargeIns++;
    this.#deps.metrics?.bargeIn(interruptCause);
    this.#deps.metrics?.bargeInHold('committed', cause);
    this.#session.interrupt();
    this.#cutPlayback(interruptCause, { suspectId: suspect.id, decidedBy: cause, decisionMs: this.#axis.now() - suspect.heldAtMs });
  }

  /** Clears the provider's buffer if anything may still play (a hold already did), and tells the agent what was heard. */
  #cutPlayback(cause: InterruptCause | undefined, decision?: InterruptDecision): void {
    const hold = this.#hold;
    this.#hold = undefined;
    this.#controller.drop();
    const interrupted = this.#playback.cut(hold);
    if (interrupted === undefined || cause === undefined) return;
    const decided = this.#bargeInSettings.events === 2 ? decision : undefined;
    for (const utterance of interrupted) this.#agent?.event({ type: 'interrupted', utterance, cause, decision: decided });
  }

  #turnPlayout(turn: TurnInfo): TurnPlayout {
    const playout = this.#playout;
    const ledger = this.#ledger;
    ledger.begin(turn, playout.sentMs);
    // From the turn's start (text admitted, nothing ahead of it), not its arrival: queued texts wait by design.
    const turnStartedMs = this.#deps.clock.now();
    this.#turnStartedAtMs = this.#axis.toAxisMs(turnStartedMs);
    let first = true;
    return {
      padByte: MULAW_SILENCE,
      waitForRoom: (ms, signal) => playout.waitForRoom(ms, signal),
      sent: (ms) => {
        playout.push(ms, !first);
        ledger.audioSent(turn.seq, ms);
        this.#playback.counted();
        if (first) {
          first = false;
          this.#deps.metrics?.timeToFirstAudio('call', this.#deps.clock.now() - turnStartedMs);
          // A caller already talking when the bot starts: with onlyWhileBotSpeaking off, that speech counts now.
          if (this.#speaking && !this.#settings.bargeIn.onlyWhileBotSpeaking) queueMicrotask(() => this.#bargeIn('speech'));
        }
      },
      chunksSent: (lastChunk, final) => this.#playback.chunkMark(turn.seq, lastChunk, final),
      // Its final mark will never come: without this a draining hangup would wait its full 30 s, and a failed
      // non-interruptible turn would shield every later utterance from barge-in.
      abandoned: () => ledger.abandon(turn.seq),
    };
  }

  /** The session's output: audio to the provider, replies to the agent, its close ends the call. */
  #sessionSink(): SessionSink {
    return {
      sendJson: (message: ServerMessage) => this.#onSessionMessage(message),
      sendAudio: (bytes) => this.#playback.frame(bytes),
      close: (_code, reason) => this.#finish(`session closed: ${reason}`),
      bufferedBytes: () => this.#media.bufferedBytes(),
    };
  }

  #onSessionMessage(message: ServerMessage): void {
    if (message.type === 'connected') return;
    if (message.type === 'cancellation' || message.type === 'error') this.#gatherPromptOver(message.utterance_id);
    if (message.type === 'error') {
      this.#deps.metrics?.sessionError('call', message.error.code);
      // A refused text (rate limit, credits, a full engine) also reaches the log: a REST `say` may have no agent.
      if (!this.#resolveStart) {
        this.#deps.logger.warn({ code: message.error.code, utteranceId: message.utterance_id ?? null, detail: message.error.message }, 'call utterance refused');
      }
    }
    if (this.#resolveStart) {
      if (message.type === 'configured') {
        this.#resolveStart({ ok: true });
        this.#resolveStart = undefined;
      } else if (message.type === 'error') {
        this.#resolveStart({ ok: false, reason: `${message.error.code}: ${message.error.message}` });
        this.#resolveStart = undefined;
        return;
      }
    }
    this.#agent?.reply(message);
  }

  async #drained(): Promise<void> {
    const deadline = this.#deps.clock.now() + MAX_DRAIN_MS;
    const never = new AbortController().signal;
    while (!this.ended && this.#deps.clock.now() < deadline) {
      if (this.#session.quiet && !this.#ledger.outstanding()) return;
      await sleep(this.#deps.clock, DRAIN_POLL_MS, never);
    }
  }

  async #runControl(what: string, action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      // The provider refused (bad credentials, call already over): end our side so nothing is left holding a slot.
      this.#deps.logger.warn({ err: error, action: what }, 'call control failed; closing the stream');
      this.#media.close(`${what} failed`);
    }
  }

  #finish(reason: string): void {
    if (this.#resolveStart) {
      this.#resolveStart({ ok: false, reason });
      this.#resolveStart = undefined;
    }
    if (this.#finished) return;
    this.#finished = true;
    // A hangup or transfer we started keeps its name when the stream then closes.
    this.#endReason ??= reason;
    this.#controller.drop();
    this.#hold = undefined;
    this.#gather.callEnded();
    this.#detector?.close();
    this.#session.peerClosed();
    this.#media.close(this.#endReason);
    this.#agent?.event({ type: 'call_ended', reason: this.#endReason });
    this.#agent?.close();
    this.#agent = undefined;
  }
}
