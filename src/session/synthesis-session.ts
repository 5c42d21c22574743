// One live synthesis session, transport-agnostic: the config → text → audio → end/cancel state machine
// behind /v1/tts/websocket and phone calls. States: connected → idle ⇄ speaking → cancelling → idle,
// and closed from anywhere. Client events are handled one at a time, in order; a running utterance does not
// block the queue, so `cancel` and `ping` are answered while audio streams. The session holds one concurrency
// slot from its first accepted config until it closes, and frees it (and settles any credits) on every path.
// The WebSocket route sends it the client's messages (receive); a phone call drives it through the typed calls
// (configure, speak, stop) and takes its turns through one seam (call-turns.ts: the queue, pacing and marks).
// A call's next streamed segment is admitted and starts synthesizing while the turn before it plays (#prepareNext).
// ~700 lines: one state machine whose every path must settle credits and free the slot; split, it would be harder to audit.

import type { Account } from '../store/store.js';
import type { Ticket, UsageSource } from '../core/admission.js';
import type { Utterance } from '../core/synthesis/utterance.js';
import type { AppliedLexicons } from '../core/lexicons/applied-lexicons.js';
import { chargeFor, type UtteranceOutcome } from '../core/synthesis/billing.js';
import { checkText, SPEC_TEXT } from '../core/text/text-limits.js';
import type { ResolvedVoice } from '../core/voice-resolver.js';
import { ApiError, isApiError, type ErrorCode } from '../errors.js';
import type { Clock } from './clock.js';
import type { CallTurns, TurnInfo } from './call-turns.js';
import { CLOSE_CODES } from './close-codes.js';
import { framePlanFor, toSeconds } from './frame-plan.js';
import { IdleTimer } from './idle-timer.js';
import { classifyTurnFailure, errorMessage } from './session-errors.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './session-limits.js';
import type { ClientEvent, ServerMessage, SessionConfig } from './session-messages.js';
import type { SessionServices } from './session-services.js';
import type { SessionSink } from './session-sink.js';
import type { CallTextQueue } from './call-text-queue.js';
import { UtteranceTurn, type TurnOutcome } from './utterance-turn.js';
import { WordTimingsReport } from './word-timings-report.js';

type SessionState = 'connected' | 'idle' | 'speaking' | 'cancelling' | 'closed';

/** The few log calls a session makes (a pino or Fastify child logger fits). */
export interface SessionLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface SessionDeps {
  readonly services: SessionServices;
  readonly clock: Clock;
  readonly logger: SessionLogger;
  readonly limits?: Partial<SessionLimits>;
  /** Phone calls: queued texts, paced and marked turns. Absent (the WebSocket): a text while speaking is refused. */
  readonly turns?: CallTurns;
  /** False: this session's utterances neither use nor fill the prompt cache (the client's `Cache-Control: no-store`). */
  readonly promptCache?: boolean;
  /** Where this session's usage records say the credits went (the voice and language come from each text's config). */
  readonly usage: Pick<UsageSource, 'keyId' | 'endpoint' | 'callId'>;
}

type TextEvent = Extract<ClientEvent, { type: 'text' }>;

/** A text as a call speaks it (the `text` message without its type). */
export type SpeakRequest = Omit<TextEvent, 'type'>;

/** What configure() did: applied, or why not (a refusal's error code, or the session closed meanwhile). */
export type Configured = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly code?: ErrorCode };

/**
 * Why a session or turn ended, as the AbortSignal reason. The client-caused ones bill the audio produced
 * so far (like an HTTP stream the client abandons); the server-caused ones bill nothing.
 */
export type EndReason =
  | 'client-cancel'
  | 'barge-in'
  | 'client-closed'
  | 'client-disconnect'
  | 'idle-timeout'
  | 'slow-client'
  | 'shutdown'
  | 'slot-lost'
  | 'engine-lost'
  | 'internal';

/** Why a session closed for the server's shutdown: the spec's 1011 asks the client to reconnect. */
const SHUTDOWN_CLOSE_REASON = 'server shutting down; reconnect';

const CLIENT_CAUSED: ReadonlySet<EndReason> = new Set(['client-cancel', 'barge-in', 'client-closed', 'client-disconnect', 'idle-timeout', 'slow-client']);

interface ActiveConfig {
  readonly config: SessionConfig;
  readonly voice: ResolvedVoice;
}

/** A call's next streamed segment, admitted and its first clause synthesizing while the running turn plays. */
interface PreparedText {
  readonly event: TextEvent;
  readonly credits: Ticket;
  readonly utterance: Utterance;
  readonly epoch: number | undefined;
  readonly active: ActiveConfig;
}

export class SynthesisSession {
  readonly #deps: SessionDeps;
  readonly #limits: SessionLimits;
  readonly #account: Account;
  readonly #sink: SessionSink;
  readonly #log: SessionLogger;
  #state: SessionState = 'connected';
  #active: ActiveConfig | undefined;
  #slot: Ticket | undefined;
  #turn: UtteranceTurn | undefined;
  #turnInfo: TurnInfo | undefined;
  #turnSeq = 0;
  #prepared: PreparedText | undefined;
  /** Phone calls only: the call's own queue of texts behind the running one. */
  readonly #textQueue: CallTextQueue | undefined;
  /** configure() calls not yet answered: the session's close answers them. */
  readonly #configuring = new Set<(configured: Configured) => void>();
  /** Settles once the current turn has been answered (end, error or close). */
  #turnAnswered: Promise<void> = Promise.resolve();
  /** Settles once the current turn's pump has stopped pulling audio. */
  #turnStopped: Promise<void> = Promise.resolve();
  /** Credit settlements still being made durable; closing waits for them. */
  readonly #settlements = new Set<Promise<void>>();
  #queue: Promise<void> = Promise.resolve();
  #pending = 0;
  readonly #idle: IdleTimer;
  /** Runs from `connected` until the first accepted config. */
  readonly #configDeadline: IdleTimer;
  #draining = false;
  #utterances = 0;
  readonly #closed: Promise<void>;
  #resolveClosed: () => void = () => undefined;
  readonly #onShutdown = (): void => this.#close(CLOSE_CODES.sessionLost, SHUTDOWN_CLOSE_REASON, 'shutdown');

  constructor(deps: SessionDeps, account: Account, sink: SessionSink) {
    this.#deps = deps;
    this.#limits = { ...DEFAULT_SESSION_LIMITS, ...deps.limits };
    this.#account = account;
    this.#sink = sink;
    this.#textQueue = deps.turns?.queue;
    this.#log = deps.logger;
    this.#closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    this.#idle = new IdleTimer(deps.clock, this.#limits.idleTimeoutMs, () => this.#close(CLOSE_CODES.normal, 'idle timeout', 'idle-timeout'));
    this.#configDeadline = new IdleTimer(deps.clock, this.#limits.configTimeoutMs, () => {
      this.#send(errorMessage(new ApiError('missing_websocket_config', `No config arrived within ${this.#limits.configTimeoutMs} ms of connecting; send config first.`)));
      this.#close(CLOSE_CODES.policyViolation, 'no config', 'idle-timeout');
    });
  }

  /** Resolves when the session is closed and its slot and credits are settled. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Greets the client (`connected`) and starts the idle timer. Call once, after authentication. */
  open(): void {
    if (this.#deps.services.shutdown?.aborted) {
      this.#close(CLOSE_CODES.sessionLost, SHUTDOWN_CLOSE_REASON, 'shutdown');
      return;
    }
    this.#deps.services.shutdown?.addEventListener('abort', this.#onShutdown, { once: true });
    this.#send({ type: 'connected', user_id: this.#account.id });
    this.#idle.arm();
    this.#configDeadline.arm();
  }

  receive(event: ClientEvent): void {
    this.#idle.touch();
    this.#enqueue(() => this.#handle(event));
  }

  /**
   * A config, as the `config` message gives one, for a transport that drives the session itself (a call): resolves
   * with the outcome instead of a `configured` or `error` reply; in order with the other events.
   */
  configure(config: SessionConfig): Promise<Configured> {
    if (this.#state === 'closed') return Promise.resolve(closedDuring('server shutting down'));
    return new Promise((resolve) => {
      const answer = (configured: Configured): void => {
        if (this.#configuring.delete(answer)) resolve(configured);
      };
      this.#configuring.add(answer);
      this.#enqueue(async () => {
        try {
          if (await this.#applyConfig(config)) answer({ ok: true });
        } catch (error) {
          if (!isApiError(error)) throw error;
          answer({ ok: false, reason: `${error.code}: ${error.message}`, code: error.code });
        }
      });
    });
  }

  /** A text, as the `text` message gives one; its replies carry its `utteranceId`. */
  speak(request: SpeakRequest): void {
    this.receive({ type: 'text', ...request });
  }

  /**
   * Stops the running utterance now, like a cancel (no frame leaves after this returns; billed by the audio
   * produced), and drops the queued texts; their `cancellation`s follow in order. A non-interruptible utterance is
   * left alone (and so is its queue) unless `force`. `acknowledged`: when nothing was left to stop, one
   * `cancellation` still answers, in order, as a cancel message always gets. Returns whether anything was stopped.
   */
  stop({ force, acknowledged }: { readonly force: boolean; readonly acknowledged: boolean }): boolean {
    const stopped = this.#interrupt(force);
    if (!stopped && acknowledged) this.receive({ type: 'cancel' });
    return stopped;
  }

  /** A client message the transport could not parse: answered with `error`, in order with the others. */
  receiveInvalid(error: ApiError): void {
    this.#idle.touch();
    this.#enqueue(() => this.#send(errorMessage(error)));
  }

  /** The transport is gone (close frame or dropped connection). */
  peerClosed(): void {
    this.#close(CLOSE_CODES.normal, 'client closed', 'client-closed');
  }

  /** The language of the config in force (a call's agent may have changed it), if any was accepted. */
  get language(): SessionConfig['language'] | undefined {
    return this.#active?.config.language;
  }

  /**
   * Server shutdown has begun: close now if idle, else right after the current utterance is answered, with the
   * spec's 1011 "session lost; reconnect", so the client reconnects (to another instance).
   */
  beginShutdown(): void {
    this.#draining = true;
    if (this.#state === 'connected' || this.#state === 'idle') {
      this.#close(CLOSE_CODES.sessionLost, SHUTDOWN_CLOSE_REASON, 'shutdown');
    }
  }

  // ---- event handling ------------------------------------------------------------------------------

  #enqueue(task: () => Promise<void> | void): void {
    if (this.#state === 'closed') return;
    if (this.#pending >= this.#limits.maxPendingEvents) {
      this.#close(CLOSE_CODES.policyViolation, 'too many messages in flight', 'slow-client');
      return;
    }
    this.#pending++;
    this.#queue = this.#queue
      .then(() => (this.#state === 'closed' ? undefined : task()))
      .catch((error: unknown) => this.#onHandlerError(error))
      .finally(() => this.#pending--);
  }

  async #handle(event: ClientEvent): Promise<void> {
    switch (event.type) {
      case 'config':
        if (await this.#applyConfig(event.config)) this.#send(configuredMessage(event.config));
        return;
      case 'text':
        return this.#onText(event);
      case 'cancel':
        return this.#onCancel();
      case 'ping':
        return this.#send({ type: 'pong' });
      case 'disconnect':
        return this.#close(CLOSE_CODES.normal, 'disconnect', 'client-disconnect');
    }
  }

  #onHandlerError(error: unknown): void {
    if (isApiError(error)) {
      this.#send(errorMessage(error));
      return;
    }
    this.#log.error({ err: error }, 'session failed');
    this.#close(CLOSE_CODES.internalError, 'internal server error', 'internal');
  }

  /** True once `config` is the active one; false when the session closed meanwhile. */
  async #applyConfig(config: SessionConfig): Promise<boolean> {
    if (this.#state === 'speaking' || this.#state === 'cancelling') {
      throw new ApiError(
        'validation_error',
        'The config cannot change while an utterance is being synthesized; wait for end_of_utterance or send cancel first.',
      );
    }
    const voice = await this.#deps.services.voices.resolve(this.#account, config.voice, config.language);
    // Lexicons the account lacks are refused with the config; each text reads them again (a change applies to the next).
    await this.#deps.services.synthesis.lexicons(this.#account.id, config.lexicons, config.language);
    if (this.#isClosed()) return false;
    if (!this.#slot) {
      const slot = await this.#deps.services.admission.admit({ account: this.#account, countRate: false, takeSlot: true, credits: 0 });
      if (this.#isClosed()) {
        await slot.release();
        return false;
      }
      this.#slot = slot;
      slot.lost.addEventListener('abort', () => this.#close(CLOSE_CODES.sessionLost, 'concurrency slot lost; reconnect', 'slot-lost'), {
        once: true,
      });
    }
    this.#active = { config, voice };
    this.#state = 'idle';
    this.#configDeadline.disarm();
    return true;
  }

  async #onText(event: TextEvent): Promise<void> {
    if (this.#state === 'connected' || !this.#active) throw missingConfig('text');
    const queue = this.#textQueue;
    if (this.#state === 'speaking' || this.#state === 'cancelling' || (queue?.length ?? 0) > 0) {
      if (!queue) {
        throw new ApiError(
          'validation_error',
          'An utterance is still in progress; wait for end_of_utterance or cancellation before sending the next text (texts are not queued).',
        );
      }
      checkText(event.text, SPEC_TEXT, ssmlOf(this.#active.config));
      if (!queue.offer(event)) {
        throw new ApiError('validation_error', `${queue.capacity} texts are already waiting; wait for end_of_utterance before sending more.`);
      }
      this.#prepareSoon();
      return;
    }
    await this.#startText(event);
  }

  /** The next queued text, in order with the other events; a refusal answers that text and moves on. */
  async #startQueued(): Promise<void> {
    if (this.#state !== 'idle') return;
    const next = this.#textQueue?.next();
    if (!next) return;
    try {
      await this.#startText(next);
    } catch (error) {
      if (!isApiError(error)) throw error;
      this.#send({ ...errorMessage(error), ...idOf(next) });
      if (this.#pendingTexts > 0) this.#enqueue(() => this.#startQueued());
    }
  }

  async #startText(event: TextEvent): Promise<void> {
    const active = this.#active;
    if (!active) throw missingConfig('text');
    const { text } = event;
    const { config } = active;
    const codePoints = checkText(text, SPEC_TEXT, ssmlOf(config));
    const admitted = this.#takePrepared(event) ?? (await this.#admitted(event, codePoints, active));
    if (!admitted) return;
    const { credits, utterance } = admitted;
    const limits = this.#limits;
    const { turns } = this.#deps;
    const info: TurnInfo = {
      seq: ++this.#turnSeq,
      utteranceId: event.utteranceId,
      text,
      chunks: utterance.chunks,
      words: utterance.wordBoundaries,
      interruptible: event.interruptible !== false,
    };
    const turn = new UtteranceTurn(
      utterance,
      credits,
      codePoints,
      framePlanFor(config.outputFormat, config.sampleRateHz, turns?.frameMs),
      this.#sink,
      this.#deps.clock,
      { highWaterBytes: limits.highWaterBytes, pollMs: limits.backpressurePollMs, stallTimeoutMs: limits.stallTimeoutMs },
      turns?.begin(info),
      config.wordTimings === true ? new WordTimingsReport(utterance, text, (message) => this.#send(message)) : undefined,
    );
    this.#turn = turn;
    this.#turnInfo = info;
    this.#state = 'speaking';
    this.#utterances++;
    this.#idle.disarm();
    const stopped = turn.run();
    this.#turnStopped = stopped.then(() => undefined);
    this.#turnAnswered = stopped.then((outcome) => this.#onTurnEnd(turn, outcome)).catch((error: unknown) => this.#onHandlerError(error));
    this.#prepareSoon();
  }

  /** The text admitted (a reservation of its credits) and its utterance; undefined when it will never start. */
  async #admitted(event: TextEvent, codePoints: number, active: ActiveConfig): Promise<Omit<PreparedText, 'event' | 'epoch' | 'active'> | undefined> {
    const epoch = this.#textQueue?.epoch;
    const lexicon = await this.#lexiconsFor(active);
    const credits = await this.#deps.services.admission.admit(this.#admission(codePoints, active));
    if (this.#isClosed()) {
      await credits.finish(0);
      return undefined;
    }
    if (epoch !== this.#textQueue?.epoch) {
      // The caller barged in while this queued text was being admitted: it never starts.
      await credits.finish(0);
      this.#send({ type: 'cancellation', characters_used: 0, duration_seconds: 0, ...idOf(event) });
      return undefined;
    }
    return { credits, utterance: this.#utteranceFor(event, active, lexicon) };
  }

  /** The lexicons the active config names and the account's default, as they are now (a change applies to the next text). */
  #lexiconsFor({ config }: ActiveConfig): Promise<AppliedLexicons> {
    return this.#deps.services.synthesis.lexicons(this.#account.id, config.lexicons, config.language);
  }

  #admission(codePoints: number, { config }: ActiveConfig): Parameters<SessionServices['admission']['admit']>[0] {
    return {
      account: this.#account,
      countRate: true,
      takeSlot: false,
      credits: codePoints,
      usage: { ...this.#deps.usage, voice: config.voice, language: config.language },
    };
  }

  #utteranceFor(event: TextEvent, { config, voice }: ActiveConfig, lexicon: AppliedLexicons): Utterance {
    return this.#deps.services.synthesis.utterance({
      text: event.text,
      language: config.language,
      voice,
      format: config.outputFormat,
      sampleRateHz: config.sampleRateHz,
      speed: config.speed,
      mode: 'streaming',
      cache: this.#deps.promptCache !== false,
      accountId: this.#account.id,
      lexicon,
      forCall: this.#deps.turns !== undefined,
      ...(event.segment ? { trailingPauseMs: event.segment.trailingPauseMs } : {}),
    });
  }

  /** A call's next streamed segment is prepared (below) once it waits behind a running turn. */
  #prepareSoon(): void {
    if (this.#state === 'speaking' && !this.#prepared && this.#textQueue?.peek()?.segment !== undefined) this.#enqueue(() => this.#prepareNext());
  }

  /**
   * While a turn plays, the call's next streamed segment is admitted and its first clause synthesized, so it follows
   * with no more silence than its pause: it was written to be spoken next. A refusal is left to its own start, which
   * answers it in order; a barge-in, cancel or close meanwhile gives the reservation back (#dropPrepared).
   */
  async #prepareNext(): Promise<void> {
    const active = this.#active;
    const next = this.#textQueue?.peek();
    if (this.#state !== 'speaking' || this.#prepared || !active || next?.segment === undefined) return;
    const epoch = this.#textQueue?.epoch;
    let credits: Ticket;
    let lexicon: AppliedLexicons;
    try {
      lexicon = await this.#lexiconsFor(active);
      credits = await this.#deps.services.admission.admit(this.#admission(checkText(next.text, SPEC_TEXT, ssmlOf(active.config)), active));
    } catch (error) {
      if (isApiError(error)) return;
      throw error;
    }
    if (this.#isClosed() || this.#prepared || epoch !== this.#textQueue?.epoch || this.#textQueue?.peek() !== next || this.#active !== active) {
      await credits.finish(0);
      return;
    }
    const utterance = this.#utteranceFor(next, active, lexicon);
    utterance.prefetch();
    this.#prepared = { event: next, credits, utterance, epoch, active };
  }

  /** The prepared text, when it is `event` (and nothing changed since); any other preparation is dropped. */
  #takePrepared(event: TextEvent): PreparedText | undefined {
    const prepared = this.#prepared;
    if (!prepared) return undefined;
    this.#prepared = undefined;
    if (prepared.event === event && prepared.epoch === this.#textQueue?.epoch && prepared.active === this.#active) return prepared;
    this.#release(prepared);
    return undefined;
  }

  /** A prepared text that will not start: its job is dropped, its reservation given back. */
  #dropPrepared(): void {
    const prepared = this.#prepared;
    this.#prepared = undefined;
    if (prepared) this.#release(prepared);
  }

  #release(prepared: PreparedText): void {
    prepared.utterance.abandon();
    this.#track(prepared.credits.finish(0));
  }

  async #onCancel(): Promise<void> {
    if (this.#state === 'connected') throw missingConfig('cancel');
    const dropped = this.#textQueue?.drain() ?? [];
    this.#dropPrepared();
    if (this.#stopTurn('client-cancel', dropped)) {
      await this.#turnAnswered;
      return;
    }
    // Nothing left to stop (idle, or the last frame already left): let the turn's own answer go first,
    // then acknowledge, so every cancel gets exactly one `cancellation`.
    await this.#turnAnswered;
    this.#send({ type: 'cancellation', characters_used: 0, duration_seconds: 0 });
    this.#answerDropped(dropped);
  }

  /**
   * The one way a running turn is stopped early (a client's cancel, a barge-in): aborted now, so no frame leaves
   * after this returns; billed the audio produced; answered with its `cancellation` (then the dropped texts') once
   * its pump has returned, which also means its engine job is gone. False when there is nothing left to stop.
   */
  #stopTurn(reason: 'client-cancel' | 'barge-in', dropped: readonly TextEvent[]): boolean {
    const turn = this.#turn;
    const info = this.#turnInfo;
    if (this.#state !== 'speaking' || !turn || turn.audioDone || !turn.claimReply()) return false;
    this.#state = 'cancelling';
    turn.abort(reason);
    // Frozen from here on: the utterance counts a chunk only if its audio was produced before the abort.
    const used = this.#settle(turn, 'cancelled');
    this.#turnAnswered = this.#turnStopped.then(() => {
      if (this.#isClosed()) return;
      this.#send({ type: 'cancellation', characters_used: used, duration_seconds: toSeconds(turn.sentMs), ...idOf(info) });
      this.#answerDropped(dropped);
      this.#endTurn();
    });
    return true;
  }

  /** Queued texts that will never start: each still gets its one reply. */
  #answerDropped(dropped: readonly TextEvent[]): void {
    for (const event of dropped) this.#send({ type: 'cancellation', characters_used: 0, duration_seconds: 0, ...idOf(event) });
  }

  /** stop() without the acknowledgement: false when nothing was stopped. */
  #interrupt(force: boolean): boolean {
    if (this.#state === 'closed' || this.#state === 'connected') return false;
    const turn = this.#turn;
    const info = this.#turnInfo;
    if (!force && turn && info && !info.interruptible && !turn.audioDone) return false;
    const dropped = this.#textQueue?.interrupt() ?? [];
    this.#dropPrepared();
    if (this.#stopTurn(force ? 'client-cancel' : 'barge-in', dropped)) return true;
    this.#answerDropped(dropped);
    return dropped.length > 0;
  }

  /** Utterances started so far (the transports log it when they close). */
  get utterances(): number {
    return this.#utterances;
  }

  get #pendingTexts(): number {
    return this.#textQueue?.length ?? 0;
  }

  /** Nothing running, queued or still being handled: a draining hangup may go ahead. */
  get quiet(): boolean {
    return this.#pending === 0 && this.#turn === undefined && this.#pendingTexts === 0;
  }

  async #onTurnEnd(turn: UtteranceTurn, outcome: TurnOutcome): Promise<void> {
    // A cancel or a close answered (and settled) this turn already.
    if (outcome.kind === 'aborted' || !turn.claimReply()) return;
    const { utterance } = turn;
    switch (outcome.kind) {
      case 'completed': {
        const used = this.#settle(turn, utterance.truncated ? 'truncated' : 'completed');
        this.#send({
          type: 'end_of_utterance',
          characters_used: used,
          duration_seconds: toSeconds(utterance.durationMs),
          truncated: utterance.truncated,
          ...(utterance.truncated ? { reason: 'step_budget_exceeded' as const } : {}),
          ...this.#ssmlIgnored(utterance),
          ...idOf(this.#turnInfo),
        });
        this.#endTurn();
        return;
      }
      case 'stalled':
        this.#settle(turn, 'cancelled');
        this.#close(CLOSE_CODES.policyViolation, 'client stopped reading audio', 'slow-client');
        return;
      case 'failed': {
        this.#settle(turn, 'failed');
        const failure = classifyTurnFailure(outcome.error);
        if (failure.kind === 'error') {
          this.#log.warn({ err: outcome.error }, 'utterance refused by the engine');
          this.#send({ ...errorMessage(failure.error), ...idOf(this.#turnInfo) });
          this.#endTurn();
        } else {
          this.#log.error({ err: outcome.error }, 'utterance failed');
          this.#close(failure.code, failure.reason, failure.code === CLOSE_CODES.sessionLost ? 'engine-lost' : 'internal');
        }
        return;
      }
    }
  }

  /**
   * The WebSocket's report of the SSML elements an utterance dropped, only when there were any (so the spec's message
   * is unchanged otherwise). A call's agent protocol has messages of its own, without it.
   */
  #ssmlIgnored(utterance: Utterance): { ssml_ignored?: readonly string[] } {
    if (this.#deps.turns !== undefined) return {};
    const ignored = utterance.ssmlIgnored;
    return ignored.length > 0 ? { ssml_ignored: ignored } : {};
  }

  /** Back to idle after a turn was answered; a draining session closes here. */
  #endTurn(): void {
    if (this.#state === 'closed') return;
    this.#turnOver();
    this.#state = 'idle';
    if (this.#draining) {
      this.#close(CLOSE_CODES.sessionLost, SHUTDOWN_CLOSE_REASON, 'shutdown');
      return;
    }
    if (this.#prepared && this.#textQueue?.peek() !== this.#prepared.event) this.#dropPrepared();
    if (this.#pendingTexts > 0) {
      this.#enqueue(() => this.#startQueued());
      return;
    }
    this.#idle.arm();
  }

  // ---- output, timers and closing ------------------------------------------------------------------

  /** A method, not a field read, so TypeScript does not narrow the state across awaits. */
  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #send(message: ServerMessage): void {
    if (this.#state === 'closed') return;
    if (this.#sink.bufferedBytes() > this.#limits.maxBufferedBytes) {
      this.#close(CLOSE_CODES.policyViolation, 'client is not reading messages', 'slow-client');
      return;
    }
    this.#sink.sendJson(message);
  }

  /**
   * Debits `used` and returns the rest of the turn's reservation. Replies do not wait for it: the debit is
   * applied at once and made durable in the background (a store may fsync), so `cancellation` and
   * `end_of_utterance` are not delayed by the disk. Closing waits for every settlement.
   */
  #settle(turn: UtteranceTurn, outcome: UtteranceOutcome): number {
    const { utterance } = turn;
    // Each chunk's audio is handed to the sink as it is produced: what was produced before the end is what the
    // client got. A stopped turn records the audio that left; a finished or failed one, what was produced.
    const { used, report } = chargeFor({
      outcome,
      totalCodePoints: turn.codePoints,
      deliveredCodePoints: utterance.codePointsSpoken,
      audioMs: outcome === 'cancelled' ? turn.sentMs : utterance.durationMs,
      engine: utterance.engineKind,
    });
    this.#track(turn.credits.settle(used, report));
    return used;
  }

  /** A settlement made durable in the background; closing waits for it. */
  #track(settlement: Promise<void>): void {
    const settling = settlement.catch((error: unknown) => this.#log.error({ err: error }, 'utterance settlement failed'));
    this.#settlements.add(settling);
    void settling.finally(() => this.#settlements.delete(settling));
  }

  #close(code: number, reason: string, why: EndReason): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#idle.disarm();
    this.#configDeadline.disarm();
    this.#deps.services.shutdown?.removeEventListener('abort', this.#onShutdown);
    const turn = this.#turn;
    this.#turnOver();
    turn?.abort(why);
    this.#dropPrepared();
    for (const answer of [...this.#configuring]) answer(closedDuring(reason));
    this.#sink.close(code, reason);
    void this.#releaseAll(turn, why);
  }

  /** The running turn, if any, is no longer the session's (its call stops counting it as speaking). */
  #turnOver(): void {
    if (this.#turn && this.#turnInfo) this.#deps.turns?.end(this.#turnInfo.seq);
    this.#turn = undefined;
  }

  async #releaseAll(turn: UtteranceTurn | undefined, why: EndReason): Promise<void> {
    if (turn?.claimReply()) {
      this.#settle(turn, turn.utterance.truncated ? 'truncated' : CLIENT_CAUSED.has(why) ? 'cancelled' : 'failed');
    }
    // Handlers still running (an admission in flight) see the closed state and give back what they got.
    await this.#queue;
    await this.#turnAnswered;
    await Promise.all(this.#settlements);
    try {
      await this.#slot?.release();
    } catch (error) {
      this.#log.error({ err: error }, 'session slot release failed');
    }
    this.#resolveClosed();
  }
}

function configuredMessage(config: SessionConfig): ServerMessage {
  return {
    type: 'configured',
    model_id: config.modelId,
    voice: config.voice,
    language: config.language,
    output_format: config.outputFormat,
    sample_rate: config.sampleRateHz,
    speed: config.speed,
    ...(config.wordTimings === true ? { word_timings: true as const } : {}),
    ...(config.ssmlStrict === true ? { ssml_strict: true as const } : {}),
  };
}

/** The SSML mode of a session's texts: lenient unless its config asked for the strict one. */
function ssmlOf(config: SessionConfig): { readonly strict: boolean } {
  return { strict: config.ssmlStrict === true };
}

function closedDuring(reason: string): Configured {
  return { ok: false, reason: `session closed: ${reason}` };
}

/** `utterance_id` for replies, only when the text carried one (never on /v1/tts/websocket). */
function idOf(event: { readonly utteranceId?: string | undefined } | undefined): { utterance_id?: string } {
  return event?.utteranceId === undefined ? {} : { utterance_id: event.utteranceId };
}

function missingConfig(what: 'text' | 'cancel'): ApiError {
  return new ApiError('missing_websocket_config', `Send a config message before '${what}': the session has no voice, language or format yet.`);
}
