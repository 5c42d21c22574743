// One provider media stream bound to one call, the same for every provider: the codec turns frames into stream
// events; `start` must come and be authenticated within the start deadline (junk does not extend it: a socket that
// never starts is closed however much it sends); only then does the connection trade its pending place for one of
// the process's call slots (a stranger's socket never holds one), and the call is assembled; caller audio is
// re-framed into 20 ms frames with nothing dropped; the call's audio, marks and clears go back through the codec. Bad
// input is logged once per kind and ignored; a stream that drops or goes silent ends the call like `stop` does, so
// nothing leaks (the slot is freed and produced audio billed).

import type { CallMediaPort } from '../session/call-events.js';
import type { CallSession } from '../session/call-session.js';
import type { ConnectionTicket } from './call-admission.js';
import type { ClockTimer } from '../session/clock.js';
import type { Store } from '../store/store.js';
import { assembleCall, type CallAssemblyDeps, type CallLogger } from './call-assembly.js';
import { PHONE_FRAME_MS } from '../audio/mulaw.js';
import { FramePacer } from './frame-pacer.js';
import { authenticateStream } from './stream-authentication.js';
import type { StreamCodec, StreamEvent, StreamStart, WireFrame } from './stream-events.js';
import type { StreamAdmission, StreamProvider } from './stream-provider.js';
import type { StreamSocket } from './stream-socket.js';
import { InboundFramer, isSupportedWireFormat } from './wire-audio.js';

/** How long an ended call that transferred by ending its stream still answers what to dial (Twilio asks at once). */
const AFTER_STREAM_ANSWERABLE_MS = 30_000;

export interface MediaStreamDeps extends CallAssemblyDeps {
  /** Aborts when the server's call drain limit is over: a live call speaks its closing line and hangs up. */
  readonly callsEnding?: AbortSignal | undefined;
  readonly store: Pick<Store, 'getAccount' | 'findAccountByKeyHash' | 'getTelephonySettings' | 'holdKey' | 'releaseKey'>;
  /** Wall clock (epoch ms) for call-token expiry. */
  readonly now: () => number;
  readonly callTokenSecret: string;
}

type State = 'awaiting-start' | 'starting' | 'live' | 'stopped';

/** 1008 (policy) for refusals and timeouts, 1000 otherwise; 1011 when we failed. */
const REFUSED = 1008;
const INTERNAL_ERROR = 1011;
const MESSAGE_TOO_BIG = 1009;
/** RFC 6455's "try again later": authenticated, but the process's last call slot went to another call meanwhile. */
const TRY_AGAIN_LATER = 1013;

export class MediaStream implements CallMediaPort {
  readonly #deps: MediaStreamDeps;
  readonly #socket: StreamSocket;
  readonly #provider: StreamProvider;
  readonly #admission: StreamAdmission;
  readonly #ticket: Pick<ConnectionTicket, 'admit'>;
  readonly #codec: StreamCodec;
  /** Only for a self-paced provider: holds the call's audio and meters it out. */
  readonly #pacer: FramePacer | undefined;
  #state: State = 'awaiting-start';
  #start: StreamStart | undefined;
  #framer: InboundFramer | undefined;
  #call: CallSession | undefined;
  #unregister: (() => void) | undefined;
  #log: CallLogger;
  readonly #reported = new Set<string>();
  #lastMessageAt: number;
  #watchdog: ClockTimer | undefined;
  /** Until the start is authenticated (and a call slot taken), the start deadline runs. */
  #startDeadline: ClockTimer | undefined;
  #authenticated = false;
  #stopReceived = false;
  #socketClosed = false;
  #timedOut: string | undefined;
  readonly #done: Promise<void>;
  #resolveDone: () => void = () => undefined;

  /** `ticket`: the connection's pending place, traded for a call slot once its start is authenticated. */
  constructor(deps: MediaStreamDeps, socket: StreamSocket, provider: StreamProvider, admission: StreamAdmission, ticket: Pick<ConnectionTicket, 'admit'>, logger: CallLogger) {
    this.#deps = deps;
    this.#socket = socket;
    this.#provider = provider;
    this.#admission = admission;
    this.#ticket = ticket;
    this.#codec = provider.createCodec();
    this.#pacer =
      provider.playback === 'self-paced'
        ? new FramePacer({ clock: deps.clock, frameMs: PHONE_FRAME_MS, send: (frame) => this.#send([frame]), played: (name) => this.#onEvent({ type: 'played', name }) })
        : undefined;
    this.#log = logger.child({ provider: provider.name });
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#lastMessageAt = deps.clock.now();
    socket.onFrame((data, isBinary) => this.#onFrame(data, isBinary));
    socket.onClose((code) => this.#onSocketClosed(code));
    this.#startDeadline = deps.clock.setTimeout(() => this.#noStart(), deps.config.startTimeoutMs);
    this.#armWatchdog();
    deps.callsEnding?.addEventListener('abort', this.#onCallsEnding, { once: true });
    void this.#done.then(() => deps.callsEnding?.removeEventListener('abort', this.#onCallsEnding));
  }

  /** The call drain limit is over: the call says its closing line and hangs up; a stream with no call closes. */
  readonly #onCallsEnding = (): void => {
    if (this.#call && !this.#call.ended) void this.#call.closeForShutdown();
    else if (this.#state !== 'stopped') this.close('server shutting down');
  };

  /** Resolves when the connection is closed and the call (if any) has settled its credits and freed its slot. */
  get done(): Promise<void> {
    return this.#done;
  }

  get call(): CallSession | undefined {
    return this.#call;
  }

  /** The app closes (after the drain, or without one in tests): the call ends after its current utterance. */
  beginShutdown(): void {
    if (this.#call) this.#call.beginShutdown();
    else this.close('server shutting down');
  }

  // ---- CallMediaPort -------------------------------------------------------------------------------------

  sendMedia(bytes: Uint8Array): void {
    const frames = this.#codec.media(bytes);
    if (this.#pacer) this.#pacer.enqueueFrames(frames.filter((frame) => typeof frame !== 'string'));
    else this.#send(frames);
  }

  sendMark(name: string, final: boolean): void {
    if (this.#pacer) this.#pacer.enqueueMark(name);
    else this.#send(this.#codec.mark(name, final));
  }

  sendClear(): void {
    this.#pacer?.dropQueued();
    this.#send(this.#codec.clear());
    this.#socket.flush();
  }

  bufferedBytes(): number {
    return this.#socket.bufferedBytes();
  }

  close(reason: string, code = 1000): void {
    this.#pacer?.stop();
    this.#socket.close(code, reason);
  }

  #send(frames: readonly WireFrame[]): void {
    if (!this.#socket.open) return;
    for (const frame of frames) this.#socket.send(frame);
  }

  // ---- inbound ---------------------------------------------------------------------------------------

  #onFrame(data: Uint8Array, isBinary: boolean): void {
    this.#lastMessageAt = this.#deps.clock.now();
    const decoded = this.#codec.decode(data, isBinary);
    if (!decoded.ok) return this.#problem(decoded.problem, decoded.detail);
    this.#onEvent(decoded.event);
  }

  #onEvent(event: StreamEvent): void {
    if (this.#state === 'stopped') {
      if (event.type !== 'notice') this.#problem('after-stop', event.type);
      return;
    }
    const beforeStart = this.#state === 'awaiting-start';
    switch (event.type) {
      case 'notice':
        return;
      case 'start':
        if (!beforeStart) return this.#problem('second-start', 'a stream has one start');
        this.#state = 'starting';
        this.#start = event.start;
        this.#log = this.#log.child({ callSid: event.start.callId });
        void this.#begin(event.start).catch((error: unknown) => {
          this.#log.error({ err: error }, 'stream start failed');
          this.close('internal error', INTERNAL_ERROR);
        });
        return;
      case 'audio': {
        if (beforeStart) return this.#problem('media-before-start', 'media before start');
        const frames = this.#framer?.push(event.audio, event.atMs) ?? [];
        if (this.#state !== 'live') return;
        for (const frame of frames) this.#call?.inboundAudio(frame.mulaw, frame.endMs);
        return;
      }
      case 'dtmf':
        if (beforeStart) return this.#problem('dtmf-before-start', 'dtmf before start');
        if (this.#state === 'live') this.#call?.dtmf(event.digit);
        return;
      case 'played':
        if (beforeStart) return this.#problem('mark-before-start', 'playback acknowledgement before start');
        this.#call?.markEchoed(event.name);
        return;
      case 'stop':
        this.#stopReceived = true;
        this.#state = 'stopped';
        void this.#end('stop');
        return;
    }
  }

  /** Each kind of bad input is logged once per stream, with the call id when known; the stream goes on. */
  #problem(kind: string, detail: string): void {
    if (this.#reported.has(kind)) return;
    this.#reported.add(kind);
    this.#log.warn({ problem: kind, detail, callSid: this.#start?.callId, streamSid: this.#start?.streamId }, 'media stream: bad input ignored');
  }

  async #begin(start: StreamStart): Promise<void> {
    const refused = (why: string): void => {
      this.#log.warn({ why }, 'media stream refused');
      this.#state = 'stopped';
      this.close(why, REFUSED);
    };
    if (start.unsupportedFormat !== undefined || !isSupportedWireFormat(start)) {
      return refused(`unsupported media format ${start.unsupportedFormat ?? `${start.encoding}/${start.sampleRateHz}`}`);
    }
    this.#framer = new InboundFramer(start);
    const payer = await authenticateStream(this.#deps, this.#admission, start);
    if (typeof payer === 'string') return refused(payer);
    if (this.#stopReceived || !this.#socket.open) return this.#finishWithoutCall();
    this.#log = this.#log.child({ accountId: payer.account.id });
    const busy = this.#ticket.admit(payer.answered);
    if (busy !== undefined) {
      this.#log.warn({ reason: busy }, 'media stream refused: no call slot left for it');
      this.#state = 'stopped';
      this.close('server busy', TRY_AGAIN_LATER);
      return;
    }
    this.#authenticated = true;
    if (this.#startDeadline) this.#deps.clock.clearTimeout(this.#startDeadline);
    this.#startDeadline = undefined;
    const assembled = await assembleCall(this.#deps, {
      provider: this.#provider.name,
      account: payer.account,
      settings: payer.settings,
      start,
      query: this.#admission.query,
      media: this,
      control: this.#provider.callControl({
        settings: payer.settings,
        origin: this.#admission.origin,
        start,
        closeStream: (reason) => this.close(reason),
        hangupStream: (reason) => {
          this.#send(this.#codec.hangup());
          this.close(reason);
        },
      }),
      logger: this.#log,
    });
    if (assembled.kind === 'refused' || assembled.kind === 'call-id-taken') return refused(assembled.reason);
    this.#call = assembled.call;
    if (assembled.kind === 'not-started') {
      // Over the concurrency limit, unknown voice, store down: the call cannot speak, so the stream ends and the
      // provider's flow goes on (TwiML after <Connect>, Exotel's next applet).
      this.#log.warn({ why: assembled.reason }, 'call could not start');
      await this.#end('start refused');
      return;
    }
    this.#unregister = assembled.unregister;
    if (this.#stopReceived || assembled.call.ended) {
      await this.#end(this.#stopReceived ? 'stop' : 'ended');
      return;
    }
    this.#state = 'live';
  }

  // ---- ending ----------------------------------------------------------------------------------------

  #noStart(): void {
    this.#startDeadline = undefined;
    if (this.#authenticated || this.#state === 'stopped') return;
    const started = this.#state === 'starting';
    this.#timedOut = started ? 'start not authenticated in time' : 'no start';
    this.#problem('no-start', `no ${started ? 'authenticated ' : ''}start within ${this.#deps.config.startTimeoutMs} ms of the connection`);
    this.#state = 'stopped';
    this.close(this.#timedOut, REFUSED);
  }

  #onSocketClosed(code: number): void {
    this.#socketClosed = true;
    this.#pacer?.stop();
    if (this.#watchdog) this.#deps.clock.clearTimeout(this.#watchdog);
    if (this.#startDeadline) this.#deps.clock.clearTimeout(this.#startDeadline);
    // 1009: the WebSocket layer refused a message over WS_MAX_PAYLOAD_BYTES and closed the stream.
    if (code === MESSAGE_TOO_BIG) this.#problem('oversized', 'a message over WS_MAX_PAYLOAD_BYTES closed the stream');
    else if (!this.#stopReceived && this.#timedOut === undefined && this.#call && !this.#call.ended) this.#problem('dropped', 'connection closed without stop');
    void this.#end(this.#stopReceived ? 'stop' : (this.#timedOut ?? 'dropped'));
  }

  /** Ends the call (bills produced audio, frees the slot) and the connection; safe to call repeatedly. */
  async #end(reason: string): Promise<void> {
    this.#state = 'stopped';
    const call = this.#call;
    if (!call) return this.#finishWithoutCall();
    await call.end(reason);
    this.#log.info({ reason, utterances: call.utterances }, 'call ended');
    const unregister = this.#unregister;
    this.#unregister = undefined;
    // A transfer made by ending the stream stays answerable a while: the provider asks what to dial right after
    // (Twilio's <Connect action>), possibly on another instance through the call-control bus.
    if (call.afterStream !== undefined) this.#deps.clock.setTimeout(() => unregister?.(), AFTER_STREAM_ANSWERABLE_MS);
    else unregister?.();
    this.close(reason);
    this.#resolveDone();
  }

  #finishWithoutCall(): void {
    this.#state = 'stopped';
    this.close('stream ended');
    this.#socket.onClose(() => this.#resolveDone());
  }

  /** Providers send caller audio for the life of a call: a long silence means the stream is dead. */
  #armWatchdog(): void {
    const timeoutMs = this.#deps.config.streamTimeoutMs;
    const check = (): void => {
      this.#watchdog = undefined;
      if (this.#socketClosed) return;
      const idleMs = this.#deps.clock.now() - this.#lastMessageAt;
      if (idleMs >= timeoutMs) {
        this.#problem('stream-silent', `no message for ${Math.round(idleMs)} ms`);
        this.#timedOut = 'stream timeout';
        this.close('stream timeout', REFUSED);
        this.#socket.terminate();
        return;
      }
      this.#watchdog = this.#deps.clock.setTimeout(check, Math.max(100, timeoutMs - idleMs));
    };
    this.#watchdog = this.#deps.clock.setTimeout(check, timeoutMs);
  }
}
