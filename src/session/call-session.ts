// One phone call, transport-agnostic: it forwards. Provider frames, keys and marks come in from the bridge
// (src/telephony/<provider>/), words and call control from the agent or the REST API. A SynthesisSession speaks the
// texts as 20 ms mu-law frames paced against the playout clock; call-playback.ts sends them, with the marks the
// playback ledger names. Barge-in (barge-in/call-barge-in.ts) hears the caller and decides hold, resume or cut through
// its port; every cut goes through the one stop path here (#stop). Keys go to the running gather (dtmf-gather.ts) first.
// Streamed text (an LLM's tokens, `text_append` / `text_flush`) is spoken segment by segment (call-streamed-text.ts).

import type { Metrics } from '../metrics/metrics.js';
import { PHONE_FRAME_MS } from '../audio/mulaw.js';
import { isApiError } from '../errors.js';
import type { AfterStream } from '../call-commands.js';
import type { Account } from '../store/store.js';
import type { BargeInOverrides, BargeInSettings, VoiceActivityDetectorFactory } from './barge-in/barge-in-contract.js';
import { CallBargeIn, type BargeInPort, type BotAudio } from './barge-in/call-barge-in.js';
import type {
  CallAgentPort,
  CallControlPort,
  CallInfo,
  CallMediaPort,
  InterruptCause,
  InterruptDecision,
  SessionReply,
  TransferOptions,
} from './call-events.js';
import { CallEnding } from './call-ending.js';
import { SHUTDOWN_CLOSING_LINES } from './closing-lines.js';
import { CallTextQueue } from './call-text-queue.js';
import { CallStreamedText, type StreamOpening } from './call-streamed-text.js';
import { PlaybackLedger } from './playback-ledger.js';
import { CallPlayback } from './call-playback.js';
import { DtmfGather, type GatherRequest, type GatherResult } from './dtmf-gather.js';
import { PlayoutClock } from './playout-clock.js';
import type { ClientEvent, ServerMessage, SessionConfig } from './session-messages.js';
import type { SessionSink } from './session-sink.js';
import type { TurnInfo } from './call-turns.js';
import { SynthesisSession, type SessionDeps } from './synthesis-session.js';
import type { TurnPlayout } from './utterance-turn.js';

/** Texts an agent or API may queue behind the one speaking. */
const MAX_QUEUED_TEXTS = 16;
/** The closing line's utterance id, as the agent and the playback events see it. */
const SHUTDOWN_UTTERANCE_ID = 'utt_shutdown';

export interface CallSettings {
  /** mulaw 8000: the call's audio; the agent may replace voice, language and speed. */
  readonly config: SessionConfig;
  readonly bargeIn: BargeInSettings;
  readonly greeting: { readonly text: string; readonly interruptible: boolean; readonly thenHangUp?: boolean } | undefined;
  /** Spoken if the agent goes away; empty: hang up at once. */
  readonly fallbackMessage: string;
}

export interface CallSessionDeps extends Pick<SessionDeps, 'services' | 'clock' | 'logger' | 'promptCache'> {
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
  readonly #session: SynthesisSession;
  readonly #ending: CallEnding;
  readonly #ledger = new PlaybackLedger();
  readonly #playback: CallPlayback;
  readonly #bargeIn: CallBargeIn;
  readonly #gather: DtmfGather;
  /** Texts waiting behind the one speaking. */
  readonly #texts = new CallTextQueue(MAX_QUEUED_TEXTS);
  /** The agent's streamed text, and the whole texts waiting behind it. */
  readonly #streamed: CallStreamedText;
  /** The session's running turn, from its start until it is answered. */
  #turn: TurnInfo | undefined;
  #agent: CallAgentPort | undefined;
  #agentAudio = false;
  #finished = false;
  #utteranceCount = 0;

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
    this.#media = media;
    const { clock, logger } = deps;
    this.#ending = new CallEnding({ control, media, clock, logger, quiet: () => this.#session.quiet && !this.#ledger.outstanding() });
    this.#bargeIn = new CallBargeIn({ clock, vad: deps.vad, settings: settings.bargeIn, logger, metrics: deps.metrics }, this.#bargeInPort());
    const playout = new PlayoutClock(clock, deps.playoutAheadMs);
    this.#playback = new CallPlayback(media, this.#ledger, playout, clock, this.#bargeIn.echoGate, () => this.#bargeIn.holdsPossible);
    this.#session = new SynthesisSession(
      {
        services: deps.services,
        clock,
        logger,
        promptCache: deps.promptCache,
        turns: {
          queue: this.#texts,
          frameMs: PHONE_FRAME_MS,
          begin: (turn) => this.#beginTurn(turn),
          end: (seq) => {
            if (this.#turn?.seq === seq) this.#turn = undefined;
          },
        },
        limits: { idleTimeoutMs: null, configTimeoutMs: null },
        usage: { keyId: null, endpoint: 'call', callId: info.callSid },
      },
      account,
      this.#sessionSink(),
    );
    this.#gather = new DtmfGather(clock, (result) => this.#gathered(result));
    this.#streamed = new CallStreamedText(
      {
        speak: (request) => this.#session.speak(request),
        withdraw: (which) => this.#texts.withdraw(which),
        reply: (message) => this.#forwardReply(message),
        event: (event) => this.#agent?.event(event),
      },
      MAX_QUEUED_TEXTS,
    );
  }

  /** What the provider should dial once the stream is over, after a transfer made by ending it (CallEnding). */
  get afterStream(): AfterStream | undefined {
    return this.#ending.afterStream;
  }

  /** Resolves when the call is over and its slot and credits are settled. */
  get closed(): Promise<void> {
    return this.#session.closed;
  }

  /** A hangup or transfer began, or the stream is over. */
  get ended(): boolean {
    return this.#ending.ended;
  }

  /** Utterances the call started (greeting, agent and REST texts). */
  get utterances(): number {
    return this.#session.utterances;
  }

  /** Takes the concurrency slot with the call's config, then speaks the greeting. */
  async start(): Promise<CallStart> {
    this.#session.open();
    const configured = await this.#session.configure(this.#settings.config);
    const { metrics } = this.#deps;
    if (!configured.ok) {
      if (configured.code !== undefined) metrics?.sessionError('call', configured.code);
      return { ok: false, reason: configured.reason };
    }
    if (metrics) {
      metrics.sessionOpened('call');
      void this.closed.then(() => metrics.sessionClosed('call'));
    }
    const { greeting } = this.#settings;
    if (greeting && greeting.text.trim() !== '') {
      this.say({ text: greeting.text, utteranceId: 'greeting', interruptible: greeting.interruptible });
      // A message call (an OTP, a reminder, a voicemail): the call ends once the greeting has played.
      if (greeting.thenHangUp) void this.hangup(true);
    }
    return { ok: true };
  }

  /** The agent's socket is open: it gets `call_started` and from then on every event. */
  attachAgent(agent: CallAgentPort, wantsAudio: boolean): void {
    if (this.ended) {
      agent.close();
      return;
    }
    this.#agent = agent;
    this.#agentAudio = wantsAudio;
    agent.event({ type: 'call_started', info: this.info });
  }

  /** The agent's socket failed or closed mid-call: the documented fallback (message, then hangup). */
  agentLost(): void {
    this.#agent = undefined;
    if (this.ended) return;
    this.#deps.logger.warn({}, 'call agent lost; speaking the fallback and hanging up');
    const message = this.#settings.fallbackMessage.trim();
    this.#stop({ force: true });
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
      case 'config':
        // The agent changes voice, language or speed; the lexicons stay the call's (its `lexicons` parameter).
        this.#session.receive({ ...event, config: { ...event.config, ...lexiconsOf(this.#settings.config) } });
        return;
      default:
        this.#session.receive(event);
    }
  }

  /** An agent message that could not be parsed: answered with `error`, in order. */
  receiveInvalid(error: Parameters<SynthesisSession['receiveInvalid']>[0]): void {
    if (!this.ended) this.#session.receiveInvalid(error);
  }

  /** Queues a text (behind the streamed utterance, if one is open); returns the id its replies and events carry. */
  say(event: { readonly text: string; readonly utteranceId?: string | undefined; readonly interruptible?: boolean | undefined }): string {
    const utteranceId = event.utteranceId ?? this.#newUtteranceId();
    if (!this.ended) {
      this.#streamed.say({ text: event.text, utteranceId, interruptible: event.interruptible !== false });
    }
    return utteranceId;
  }

  /**
   * A piece of streamed text (`text_append`): spoken as soon as a sentence or clause of it is whole. Opens a streamed
   * utterance when none is open; one over its limit is answered with `error` and dropped, in order.
   */
  appendText(piece: string, opening: StreamOpening): void {
    if (this.ended) return;
    try {
      this.#streamed.append(piece, opening, () => this.#newUtteranceId());
    } catch (error) {
      if (!isApiError(error)) throw error;
      this.#session.receiveInvalid(error);
    }
  }

  /** Ends the streamed utterance (`text_flush`): what is pending is spoken last. */
  flushText(): void {
    if (!this.ended) this.#streamed.flush();
  }

  /** Stops what is speaking (even non-interruptible text) and drops the queue; audio at the provider is cleared. */
  cancel(): void {
    if (!this.ended) this.#stop({ force: true, cause: 'cancel' });
  }

  /** Ends the call; with `drain`, after what is queued has played (at most 30 s). */
  hangup(drain: boolean): Promise<void> {
    // What the agent streamed is queued too: it plays before the hangup.
    if (drain) this.#streamed.flush();
    return this.#ending.hangup(drain);
  }

  /** Moves the call; what was speaking stops first. */
  transfer(to: string, options: TransferOptions = {}): Promise<void> {
    return this.#ending.transfer(to, options, () => this.#stop({ force: true }));
  }

  /**
   * Collects keys (docs/telephony.md, "Gather"): speaks `prompt` first when given, and returns the gather's id; the
   * result goes to the agent (`gather_result`) and stays readable through whenGathered.
   */
  gather(request: GatherRequest): string {
    const gatherId = this.#gather.idFor(request);
    if (this.ended) return gatherId;
    const prompt = this.#gather.begin(gatherId, request);
    if (prompt !== undefined) this.say({ text: prompt, utteranceId: gatherId, interruptible: request.interruptible });
    return gatherId;
  }

  /** Resolves once the gather is decided; undefined when this call has no such gather. */
  whenGathered(gatherId: string): Promise<GatherResult> | undefined {
    return this.#gather.whenDecided(gatherId);
  }

  /** The agent's verdict on a hold (`barge_in_verdict`, with barge_in_events=2); one it cannot take is an `error`. */
  bargeInVerdict(suspectId: string, verdict: 'interrupt' | 'resume'): void {
    if (this.ended) return;
    try {
      this.#bargeIn.verdict(suspectId, verdict);
    } catch (error) {
      if (!isApiError(error)) throw error;
      this.#session.receiveInvalid(error);
    }
  }

  /**
   * The agent changed the call's barge-in settings (`config.barge_in`); they apply from the next decision. Throws
   * ApiError (`validation_error`) when short_max_ms would exceed long_min_ms, changing nothing.
   */
  configureBargeIn(overrides: BargeInOverrides): void {
    this.#bargeIn.configure(overrides);
  }

  // ---- events from the provider --------------------------------------------------------------------

  /** One inbound frame (8 kHz mu-law) at `atMs` on the call's media clock. */
  inboundAudio(frame: Uint8Array, atMs: number): void {
    if (this.ended) return;
    if (this.#agentAudio) this.#agent?.sendAudio(frame);
    this.#bargeIn.heard(frame, atMs);
  }

  dtmf(digit: string): void {
    if (this.ended) return;
    this.#agent?.event({ type: 'dtmf', digit });
    // A running gather takes the key; its first key cuts an interruptible prompt, and nothing else is cut.
    const taken = this.#gather.key(digit);
    if (taken === 'cut-prompt') this.cancel();
    if (taken === 'none') this.#bargeIn.key();
  }

  /** The provider echoed a mark: playback confirmed (or a cleared one, ignored). */
  markEchoed(name: string): void {
    const result = this.#ledger.echoed(name);
    this.#playback.confirmed();
    if (result.kind === 'played' && result.final) {
      if (!this.#streamed.played(result.utteranceId, result.durationMs)) {
        this.#agent?.event({ type: 'utterance_played', utteranceId: result.utteranceId, durationMs: result.durationMs });
      }
      this.#gather.utteranceOver(result.utteranceId);
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

  /**
   * The server's call drain limit is over: what is speaking stops, the closing line is said in the call's language
   * (not interruptible), and the call hangs up once it has played.
   */
  closeForShutdown(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.#stop({ force: true, cause: 'cancel' });
    const language = this.#session.language ?? this.#settings.config.language;
    this.say({ text: SHUTDOWN_CLOSING_LINES[language], utteranceId: SHUTDOWN_UTTERANCE_ID, interruptible: false });
    return this.hangup(true);
  }

  // ---- internals ---------------------------------------------------------------------------------------

  /**
   * The one way the call stops speaking (a cancel, a barge-in, a transfer, a lost agent). Abort first: no frame of
   * the utterance leaves after the session returns. Then a hold, if any, is over, and what the provider still holds
   * is cleared (a hold already did); the agent hears what each cut utterance got to play (`interrupted`, when there
   * is a `cause`). `force` stops even a non-interruptible text; a cancel is answered even when nothing was left to stop.
   */
  #stop({ force, cause, decision }: { readonly force: boolean; readonly cause?: InterruptCause; readonly decision?: InterruptDecision | undefined }): void {
    const epoch = this.#texts.epoch;
    this.#session.stop({ force, acknowledged: cause === 'cancel' });
    // The session dropped its queue (nothing protected it): the streamed text still to come goes with it.
    const streamsCut = this.#texts.epoch !== epoch ? this.#streamed.cut() : new Set<number>();
    const interrupted = this.#playback.cut(this.#bargeIn.release());
    if (cause === undefined || (interrupted === undefined && streamsCut.size === 0)) return;
    for (const utterance of this.#streamed.interrupted(interrupted ?? [], streamsCut)) this.#agent?.event({ type: 'interrupted', utterance, cause, decision });
  }

  /** The call as barge-in acts on it. */
  #bargeInPort(): BargeInPort {
    const call = this;
    return {
      botAudio: () => this.#botAudio(),
      holdPlayback: () => this.#playback.hold(),
      resumePlayback: (held) => this.#playback.resume(held),
      locate: (positionMs) => this.#ledger.locate(positionMs),
      stopSpeaking: (cause, decision) => this.#stop({ force: false, cause, decision }),
      tell: (event) => this.#agent?.event(this.#streamed.event(event)),
      get agentAttached() {
        return call.#agent !== undefined;
      },
      get ended() {
        return call.ended;
      },
    };
  }

  #botAudio(): BotAudio {
    const turn = this.#turn;
    if (!this.#ledger.outstanding() && turn === undefined && this.#texts.length === 0 && !this.#streamed.speechPending) return 'none';
    return this.#ledger.protectedOutstanding() || (turn !== undefined && !turn.interruptible) || this.#streamed.pendingProtected ? 'protected' : 'interruptible';
  }

  #gathered(result: GatherResult): void {
    this.#agent?.event({ type: 'gather_result', result });
    this.#deps.onGathered?.(result);
  }

  /** The session starts a turn: the call's playback sends it; barge-in learns when it began and first sounded. */
  #beginTurn(turn: TurnInfo): TurnPlayout {
    this.#turn = turn;
    // From the turn's start (text admitted, nothing ahead of it), not its arrival: queued texts wait by design.
    const startedMs = this.#deps.clock.now();
    this.#bargeIn.turnStarted(startedMs);
    return this.#playback.turn(turn, () => {
      this.#deps.metrics?.timeToFirstAudio('call', this.#deps.clock.now() - startedMs);
      this.#bargeIn.turnAudible();
    });
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
    // A segment's reply: its streamed utterance answers once for all of them (through #forwardReply).
    if (this.#streamed.reply(message)) return;
    this.#forwardReply(message);
  }

  #forwardReply(message: SessionReply): void {
    if (message.type === 'cancellation' || message.type === 'error') this.#gather.utteranceOver(message.utterance_id);
    if (message.type === 'error') {
      this.#deps.metrics?.sessionError('call', message.error.code);
      // A refused text (rate limit, credits, a full engine) also reaches the log: a REST `say` may have no agent.
      this.#deps.logger.warn({ code: message.error.code, utteranceId: message.utterance_id ?? null, detail: message.error.message }, 'call utterance refused');
    }
    this.#agent?.reply(message);
  }

  #newUtteranceId(): string {
    return `utt_${++this.#utteranceCount}`;
  }

  #finish(reason: string): void {
    if (this.#finished) return;
    this.#finished = true;
    const ended = this.#ending.streamEnded(reason);
    this.#bargeIn.close();
    this.#gather.callEnded();
    this.#session.peerClosed();
    this.#media.close(ended);
    this.#agent?.event({ type: 'call_ended', reason: ended });
    this.#agent?.close();
    this.#agent = undefined;
  }
}

/** The call's lexicons as a config carries them (none: no field, as the call was configured). */
function lexiconsOf(config: SessionConfig): Pick<SessionConfig, 'lexicons'> {
  return config.lexicons === undefined ? {} : { lexicons: config.lexicons };
}
