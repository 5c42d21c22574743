// One Twilio Media Stream socket bound to one CallSession: Twilio's events in (connected, start, media, dtmf, mark,
// stop), media/mark/clear out. `start` is authenticated (call token or API key, plus a deferred signature check on
// the generic URL) before the call takes its slot. Bad input is logged once per kind and ignored; a stream that
// drops or goes silent ends the call like `stop` does, so nothing leaks.

import type { RawData, WebSocket } from 'ws';
import { MULAW_BYTES_PER_MS } from '../../audio/mulaw.js';
import type { TelephonyConfig } from '../../config.js';
import type { Admission } from '../../core/admission.js';
import type { SynthesisService } from '../../core/synthesis/synthesis-service.js';
import type { VoiceResolver } from '../../core/voice-resolver.js';
import type { VoiceActivityDetectorFactory } from '../../session/barge-in-contract.js';
import type { CallMediaPort } from '../../session/call-events.js';
import { CallSession, type CallSessionDeps } from '../../session/call-session.js';
import type { Clock, ClockTimer } from '../../session/clock.js';
import { hashApiKey, isWellFormedApiKey } from '../../store/api-key.js';
import type { CallCommand, CallCommandResult, CallControlBus } from '../../store/call-control-bus.js';
import type { Account, Store } from '../../store/store.js';
import { AgentLink } from '../agent/agent-link.js';
import { API_KEY_PARAMETER, CREDENTIAL_PARAMETERS, resolveCallParameters, TOKEN_PARAMETER } from '../call-parameters.js';
import { verifyCallToken } from '../call-token.js';
import { closeSocket, rawText } from '../../util/ws-socket.js';
import { twilioCallControl, twilioRestClient } from './twilio-call-control.js';
import { clearMessage, decodeMediaPayload, markMessage, mediaMessage, parseTwilioMessage, type TwilioStart } from './twilio-messages.js';
import { isValidTwilioSignature } from './twilio-signature.js';

export interface BridgeLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  child(bindings: Record<string, unknown>): BridgeLogger;
}

export interface TwilioBridgeDeps {
  readonly store: Store;
  readonly admission: Pick<Admission, 'admit'>;
  readonly voices: Pick<VoiceResolver, 'resolve'>;
  readonly synthesis: Pick<SynthesisService, 'utterance'>;
  readonly shutdown?: AbortSignal;
  /** Monotonic: playout pacing, stream timeouts. */
  readonly clock: Clock;
  /** Wall clock (epoch ms) for call-token expiry. */
  readonly now: () => number;
  readonly vad: VoiceActivityDetectorFactory | undefined;
  readonly config: TelephonyConfig;
  readonly callTokenSecret: string;
  readonly calls: CallControlBus;
  readonly twilioApiBaseUrl?: string | undefined;
  /** Passed to each call (active calls, barge-ins, first audio); absent: not measured. */
  readonly metrics?: CallSessionDeps['metrics'];
}

/** What the upgrade established before the socket opened. */
export interface UpgradeFacts {
  /** From the media path `/…/media/{accountId}`; undefined on the generic path. */
  readonly pathAccountId: string | undefined;
  /** True when the signature was already checked at the upgrade (account path with an auth token). */
  readonly signatureChecked: boolean;
  readonly signature: string | undefined;
  /** The wss URL Twilio signed. */
  readonly signedUrl: string;
}

type State = 'awaiting-start' | 'starting' | 'live' | 'stopped';

/** The close reason Twilio logs for our side; 1008 for refusals (policy), 1000 otherwise. */
const REFUSED = 1008;

export class TwilioMediaBridge implements CallMediaPort {
  #state: State = 'awaiting-start';
  #streamSid = '';
  #callSid: string | undefined;
  #call: CallSession | undefined;
  #agent: AgentLink | undefined;
  #unregister: (() => void) | undefined;
  #log: BridgeLogger;
  readonly #reported = new Set<string>();
  #lastMessageAt: number;
  #watchdog: ClockTimer | undefined;
  #stopReceived = false;
  #timedOut = false;
  #mediaAtMs = 0;
  readonly #done: Promise<void>;
  #resolveDone: () => void = () => undefined;

  constructor(
    private readonly deps: TwilioBridgeDeps,
    private readonly socket: WebSocket,
    private readonly upgrade: UpgradeFacts,
    logger: BridgeLogger,
  ) {
    this.#log = logger;
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#lastMessageAt = deps.clock.now();
    socket.on('message', (data: RawData, isBinary: boolean) => this.#onFrame(data, isBinary));
    socket.on('close', () => this.#onSocketClosed());
    socket.on('error', () => undefined);
    this.#armWatchdog();
  }

  /** Resolves when the socket is closed and the call (if any) has settled its credits and freed its slot. */
  get done(): Promise<void> {
    return this.#done;
  }

  get call(): CallSession | undefined {
    return this.#call;
  }

  /** Server shutdown: the call ends after its current utterance. */
  beginShutdown(): void {
    if (this.#call) this.#call.beginShutdown();
    else this.close('server shutting down');
  }

  // ---- CallMediaPort -------------------------------------------------------------------------------------

  sendMedia(bytes: Uint8Array): void {
    if (this.#open()) this.socket.send(mediaMessage(this.#streamSid, bytes));
  }

  sendMark(name: string): void {
    if (this.#open()) this.socket.send(markMessage(this.#streamSid, name));
  }

  sendClear(): void {
    if (this.#open()) this.socket.send(clearMessage(this.#streamSid));
  }

  bufferedBytes(): number {
    return this.socket.bufferedAmount;
  }

  close(reason: string, code = 1000): void {
    closeSocket(this.socket, code, reason);
  }

  // ---- inbound ---------------------------------------------------------------------------------------

  #open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  #onFrame(data: RawData, isBinary: boolean): void {
    this.#lastMessageAt = this.deps.clock.now();
    if (isBinary) return this.#problem('binary-frame', 'Twilio sends JSON text frames only');
    const parsed = parseTwilioMessage(rawText(data));
    if (!parsed.ok) return this.#problem(parsed.problem, parsed.detail);
    const message = parsed.message;
    if (this.#state === 'stopped') return this.#problem('after-stop', message.event);
    switch (message.event) {
      case 'connected':
        return;
      case 'start':
        if (this.#state !== 'awaiting-start') return this.#problem('second-start', 'a stream has one start');
        this.#state = 'starting';
        this.#streamSid = message.start.streamSid;
        this.#callSid = message.start.callSid;
        this.#log = this.#log.child({ callSid: message.start.callSid });
        void this.#start(message).catch((error: unknown) => {
          this.#log.error({ err: error }, 'twilio stream start failed');
          this.close('internal error', 1011);
        });
        return;
      case 'media': {
        if (this.#state === 'awaiting-start') return this.#problem('media-before-start', 'media before start');
        const decoded = decodeMediaPayload(message.media.payload);
        if (!decoded.ok) return this.#problem(decoded.problem, 'inbound media payload');
        // Twilio's timestamp is when the frame starts; the detector takes the time its last sample was spoken
        // (8 mu-law bytes per ms), so onset and reaction times are not 20 ms early.
        this.#mediaAtMs = (message.media.timestamp ?? this.#mediaAtMs) + decoded.audio.length / MULAW_BYTES_PER_MS;
        if (this.#state === 'live') this.#call?.inboundAudio(decoded.audio, this.#mediaAtMs);
        return;
      }
      case 'dtmf':
        if (this.#state === 'awaiting-start') return this.#problem('dtmf-before-start', 'dtmf before start');
        if (this.#state === 'live') this.#call?.dtmf(message.dtmf.digit);
        return;
      case 'mark':
        if (this.#state === 'awaiting-start') return this.#problem('mark-before-start', 'mark before start');
        this.#call?.markEchoed(message.mark.name);
        return;
      case 'stop':
        this.#stopReceived = true;
        this.#state = 'stopped';
        void this.#end('stop');
        return;
    }
  }

  /** Each kind of bad input is logged once per stream, with the CallSid when known; the stream goes on. */
  #problem(kind: string, detail: string): void {
    if (this.#reported.has(kind)) return;
    this.#reported.add(kind);
    this.#log.warn({ problem: kind, detail, callSid: this.#callSid, streamSid: this.#streamSid || undefined }, 'twilio stream: bad input ignored');
  }

  async #start(message: TwilioStart): Promise<void> {
    const { start } = message;
    const params = start.customParameters ?? {};
    const refused = (why: string): void => {
      this.#log.warn({ why }, 'twilio stream refused');
      this.#state = 'stopped';
      this.close(why, REFUSED);
    };
    const format = start.mediaFormat;
    if (format && (format.encoding !== 'audio/x-mulaw' || format.sampleRate !== 8000 || format.channels !== 1)) {
      return refused(`unsupported media format ${format.encoding}/${format.sampleRate}/${format.channels}`);
    }
    const account = await this.#authenticate(params, start.callSid);
    if (typeof account === 'string') return refused(account);
    if (this.upgrade.pathAccountId !== undefined && this.upgrade.pathAccountId !== account.id) {
      return refused('credentials belong to another account than the stream URL');
    }
    const settings = await this.deps.store.getTelephonySettings(account.id);
    if (settings?.twilioAuthToken && !this.upgrade.signatureChecked) {
      if (!isValidTwilioSignature(settings.twilioAuthToken, this.upgrade.signature, this.upgrade.signedUrl, {})) {
        return refused('invalid X-Twilio-Signature');
      }
    }
    const resolved = resolveCallParameters(this.deps.config, [settings?.defaults, params]);
    if (!resolved.ok) return refused(resolved.message);
    if (this.#stopReceived || !this.#open()) return this.#finishWithoutCall();
    const p = resolved.value;
    this.#log = this.#log.child({ accountId: account.id });
    const custom = Object.fromEntries(Object.entries(params).filter(([name]) => !CREDENTIAL_PARAMETERS.has(name)));
    const call = new CallSession(
      {
        admission: this.deps.admission,
        voices: this.deps.voices,
        synthesis: this.deps.synthesis,
        clock: this.deps.clock,
        logger: this.#log,
        ...(this.deps.shutdown ? { shutdown: this.deps.shutdown } : {}),
        vad: p.bargeIn === 'none' || p.bargeIn === 'dtmf' ? (p.agentUrl ? this.deps.vad : undefined) : this.deps.vad,
        playoutAheadMs: this.deps.config.playoutAheadMs,
        metrics: this.deps.metrics,
      },
      account,
      { callSid: start.callSid, streamSid: start.streamSid, providerAccountId: start.accountSid, from: p.from, to: p.to, customParameters: custom },
      {
        config: { modelId: 'raaga-v1', voice: p.voice, language: p.language, outputFormat: 'mulaw', sampleRateHz: 8000, speed: p.speed },
        bargeIn: { mode: p.bargeIn, minSpeechMs: p.minSpeechMs, onlyWhileBotSpeaking: p.onlyWhileBotSpeaking },
        greeting: p.greeting === undefined ? undefined : { text: p.greeting, interruptible: p.greetingInterruptible },
        fallbackMessage: p.fallbackMessage,
      },
      this,
      twilioCallControl(twilioRestClient(settings, { apiBaseUrl: this.deps.twilioApiBaseUrl }), start.callSid, (reason) => this.close(reason)),
    );
    this.#call = call;
    const started = await call.start();
    if (!started.ok) {
      // Over the concurrency limit, unknown voice, store down: the call cannot speak, so the stream ends and
      // Twilio goes on with the TwiML after <Connect>.
      this.#log.warn({ why: started.reason }, 'twilio call could not start');
      await this.#end('start refused');
      return;
    }
    this.#unregister = await this.deps.calls.register(start.callSid, account.id, (command) => this.#command(command));
    if (this.#stopReceived || call.ended) {
      await this.#end(this.#stopReceived ? 'stop' : 'ended');
      return;
    }
    this.#state = 'live';
    this.#log.info({ voice: p.voice, language: p.language, bargeIn: p.bargeIn, agent: p.agentUrl !== undefined }, 'twilio call started');
    if (p.agentUrl) {
      this.#agent = new AgentLink(call, {
        url: p.agentUrl,
        connectTimeoutMs: this.deps.config.agentConnectTimeoutMs,
        callSid: start.callSid,
        wantsAudio: p.agentAudio,
        logger: this.#log,
      });
    }
  }

  /** The account that pays: a valid call token bound to this CallSid, or an API key; else why not. */
  async #authenticate(params: Readonly<Record<string, string>>, callSid: string): Promise<Account | string> {
    const token = params[TOKEN_PARAMETER];
    const apiKey = params[API_KEY_PARAMETER];
    if (token !== undefined) {
      const claims = verifyCallToken(this.deps.callTokenSecret, token, this.deps.now());
      if (!claims) return 'invalid or expired call token';
      if (claims.callSid !== callSid) return 'call token was issued for another call';
      return (await this.deps.store.getAccount(claims.accountId)) ?? 'the call token names an unknown account';
    }
    if (apiKey !== undefined) {
      if (!isWellFormedApiKey(apiKey)) return 'malformed API key parameter';
      return (await this.deps.store.findAccountByKeyHash(hashApiKey(apiKey))) ?? 'unknown or revoked API key';
    }
    return `unauthenticated start: no ${TOKEN_PARAMETER} or ${API_KEY_PARAMETER} parameter`;
  }

  async #command(command: CallCommand): Promise<CallCommandResult> {
    const call = this.#call;
    if (!call || call.ended) return { ok: false, reason: 'not_found', message: 'The call has ended.' };
    switch (command.type) {
      case 'say':
        return { ok: true, utteranceId: call.say(command) };
      case 'cancel':
        call.cancel();
        return { ok: true };
      case 'hangup':
        void call.hangup(command.drain);
        return { ok: true };
    }
  }

  // ---- ending ----------------------------------------------------------------------------------------

  #onSocketClosed(): void {
    if (this.#watchdog) this.deps.clock.clearTimeout(this.#watchdog);
    if (!this.#stopReceived && !this.#timedOut && this.#call && !this.#call.ended) this.#problem('dropped', 'socket closed without stop');
    void this.#end(this.#stopReceived ? 'stop' : this.#timedOut ? 'stream timeout' : 'dropped');
  }

  /** Ends the call (bills produced audio, frees the slot) and the socket; safe to call repeatedly. */
  async #end(reason: string): Promise<void> {
    this.#state = 'stopped';
    const call = this.#call;
    if (!call) return this.#finishWithoutCall();
    await call.end(reason);
    this.#log.info({ reason, utterances: call.utterances }, 'twilio call ended');
    this.#unregister?.();
    this.#unregister = undefined;
    this.close(reason);
    this.#resolveDone();
  }

  #finishWithoutCall(): void {
    this.#state = 'stopped';
    this.close('stream ended');
    if (this.socket.readyState === this.socket.CLOSED) this.#resolveDone();
    else this.socket.once('close', () => this.#resolveDone());
  }

  /** Twilio sends media every 20 ms for the life of a call: a long silence means the stream is dead. */
  #armWatchdog(): void {
    const timeoutMs = this.deps.config.streamTimeoutMs;
    const check = (): void => {
      this.#watchdog = undefined;
      if (this.socket.readyState === this.socket.CLOSED) return;
      const idleMs = this.deps.clock.now() - this.#lastMessageAt;
      if (idleMs >= timeoutMs) {
        this.#problem('stream-silent', `no message for ${Math.round(idleMs)} ms`);
        this.#timedOut = true;
        this.close('stream timeout', REFUSED);
        this.socket.terminate();
        return;
      }
      this.#watchdog = this.deps.clock.setTimeout(check, Math.max(100, timeoutMs - idleMs));
    };
    this.#watchdog = this.deps.clock.setTimeout(check, timeoutMs);
  }
}
