// A simulated provider on one bidirectional media stream, in any provider's dialect (src/sim/dialects/
// <provider>.ts): connects to a Raaga media WebSocket (with the provider's credentials), sends its opening,
// then the caller's audio in real time against a monotonic clock, in the provider's message size (20 ms for
// Twilio, 100 ms for Exotel and Smartflo), DTMF and stop; plays the server's audio out virtually (PlayoutBuffer),
// acknowledges marks once their audio has played and honours clear as the provider does (Twilio echoes pending
// marks, the others drop them), and keeps a timeline of it all. Used by `raaga call-sim`, the playground and the
// telephony tests; it knows nothing of the server's insides.
// Over 400 lines: one peer's timeline (what was sent, played, cleared and acknowledged) is one state machine; the
// dialects, caller audio and playout buffer already live in their own files.

import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import { MULAW_BYTES_PER_MS, mulawToPcm16, PHONE_FRAME_MS } from '../audio/mulaw.js';
import { encodeWav } from '../audio/wav.js';
import { CallerTrack } from './caller-audio.js';
import { TwilioPeerDialect } from './dialects/twilio.js';
import type { WireFrame } from '../telephony/stream-events.js';
import type { StreamSocket } from '../telephony/stream-socket.js';
import { openWebSocket } from './peer-connection.js';
import type { PeerCall, PeerDialect } from './peer-dialect.js';
import { PlayoutBuffer, type PlayoutStats } from './playout-buffer.js';
import { ReplayWatch, type Replay } from './replay-watch.js';
import { EchoPath } from './echo-path.js';
import { NetworkDelay } from './network-delay.js';
import { monotonicClock, type Clock, type ClockTimer } from '../session/clock.js';

export type TimelineKind =
  | 'connected'
  | 'start'
  | 'caller_speech'
  | 'dtmf_sent'
  | 'first_media_in'
  | 'mark_received'
  | 'mark_echoed'
  | 'clear_received'
  /** After a clear, the server re-sent audio it had sent before (a resumed barge-in hold); detail: repeated/lost ms. */
  | 'replay_received'
  | 'hangup_received'
  | 'bad_message'
  | 'stop_sent'
  | 'dropped'
  | 'vanished'
  | 'closed';

export interface TimelineEvent {
  /** ms since the socket opened (the stream's time zero), on the peer's monotonic clock. */
  readonly atMs: number;
  readonly kind: TimelineKind;
  readonly detail?: string;
}

/** One message from the server, as received (media by size only). */
export type InboundRecord =
  | { readonly atMs: number; readonly event: 'media'; readonly bytes: number; readonly audio: Uint8Array }
  | { readonly atMs: number; readonly event: 'mark'; readonly name: string }
  | { readonly atMs: number; readonly event: 'clear' };

export interface CallPeerOptions {
  /** The media WebSocket to dial, e.g. ws://127.0.0.1:8080/v1/telephony/twilio/media (audiosocket://host:port for AudioSocket). */
  readonly url: string;
  /** Opens another transport instead of a WebSocket to `url` (AudioSocket's TCP). */
  readonly open?: (timeoutMs: number) => Promise<StreamSocket>;
  /** The provider's protocol; Twilio's by default. */
  readonly dialect?: PeerDialect;
  /** Extra upgrade headers (Exotel and Asterisk Basic credentials, Plivo's signature). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Signs the upgrade with X-Twilio-Signature over `url` (the wss URL the server validates; defaults to the dialled URL). */
  readonly signature?: { readonly authToken: string; readonly url?: string };
  readonly streamSid?: string;
  readonly callSid?: string;
  readonly accountSid?: string;
  readonly customParameters?: Readonly<Record<string, string>>;
  /** The caller's audio; silence when absent. */
  readonly caller?: CallerTrack;
  /** Keys pressed at given times (ms since stream start). */
  readonly dtmf?: readonly { readonly digit: string; readonly atMs: number }[];
  /** Sends one caller media message before the opening, as a misbehaving provider would (tests of bad input). */
  readonly mediaBeforeStart?: boolean;
  /**
   * A closed echo loop: what the caller heard comes back in the caller's audio `delayMs` later, `erlDb` quieter,
   * smeared by a decaying `taps`-tap response (a speakerphone or a hybrid). It stops when the bot's audio stops.
   */
  readonly echo?: { readonly delayMs: number; readonly erlDb: number; readonly taps?: number };
  /**
   * One-way network delay with jitter on both directions between the provider and the server (each direction keeps
   * its order), so reactions are seen as a distant provider sees them. Absent: loopback.
   */
  readonly network?: { readonly delayMs: number; readonly jitterMs: number };
  /** Lateness forgiven before a late frame counts as an underrun; 0 = none (see PlayoutBuffer). */
  readonly underrunToleranceMs?: number;
  /** Time and timers of the peer's pacing and playout: monotonic by default; a test's fake clock drives it by hand. */
  readonly clock?: Clock;
  readonly connectTimeoutMs?: number;
}

export interface PeerSummary {
  readonly elapsedMs: number;
  readonly framesSent: number;
  readonly mediaReceived: number;
  /** From the socket opening to the first media message in. */
  readonly firstMediaInMs: number | undefined;
  readonly marksReceived: number;
  readonly marksEchoed: number;
  /** Marks echoed because of a clear, not because their audio played. */
  readonly marksEchoedByClear: number;
  readonly clears: number;
  /** Clears the server followed with a replay of held audio (resumed holds), and what the caller heard of them. */
  readonly replays: number;
  readonly repeatedMs: number;
  readonly lostMs: number;
  /**
   * First caller speech frame sent → first clear received after it; for a provider without a clear on the wire
   * (AudioSocket), → the end of the last frame before the bot's audio stopped.
   */
  readonly bargeInMs: number | undefined;
  /** How `bargeInMs` was seen. */
  readonly bargeInBy: 'clear' | 'audio-stopped' | undefined;
  readonly playout: PlayoutStats;
  readonly badMessages: number;
  readonly closeCode: number | undefined;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Without a clear on the wire, the bot's audio has stopped once none arrived for this long. */
const AUDIO_GAP_MS = 100;

function sid(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

export class CallPeer {
  readonly timeline: TimelineEvent[] = [];
  /** Every media, mark and clear from the server in arrival order (e.g. to check nothing old follows a clear). */
  readonly inbound: InboundRecord[] = [];
  readonly start: PeerCall;
  readonly dialect: PeerDialect;
  /** Resolves with the close code when the socket closes, whoever closed it. */
  readonly closed: Promise<number>;
  private readonly playout: PlayoutBuffer;
  private readonly caller: CallerTrack;
  private readonly clock: Clock;
  private originMs = 0;
  private framesSent = 0;
  private mediaReceived = 0;
  private marksReceived = 0;
  private marksEchoed = 0;
  private marksEchoedByClear = 0;
  private clears = 0;
  private readonly replayWatch = new ReplayWatch();
  private readonly replays: Replay[] = [];
  private badMessages = 0;
  private closeCode: number | undefined;
  private timer: ClockTimer | undefined;
  private stopped = false;
  private vanished = false;
  private readonly pendingDtmf: { digit: string; atMs: number }[];
  private readonly pendingOnsets: { atMs: number; label: string }[];
  private readonly waiters = new Set<() => void>();
  private readonly mediaBeforeStart: boolean;
  private readonly echoPath: EchoPath | undefined;
  private readonly outbound: NetworkDelay | undefined;

  private constructor(
    private readonly socket: StreamSocket,
    options: CallPeerOptions,
  ) {
    this.clock = options.clock ?? monotonicClock;
    this.caller = options.caller ?? new CallerTrack();
    this.playout = new PlayoutBuffer(options.underrunToleranceMs ?? 0);
    this.pendingDtmf = [...(options.dtmf ?? [])].sort((a, b) => a.atMs - b.atMs);
    this.pendingOnsets = this.caller.onsets();
    this.mediaBeforeStart = options.mediaBeforeStart === true;
    const network = options.network;
    this.outbound = network && new NetworkDelay(network.delayMs, network.jitterMs, Math.random, this.clock);
    const inbound = network && new NetworkDelay(network.delayMs, network.jitterMs, Math.random, this.clock);
    this.echoPath = options.echo && new EchoPath(options.echo.delayMs, options.echo.erlDb, options.echo.taps ?? 1);
    this.dialect = options.dialect ?? new TwilioPeerDialect();
    this.start = {
      streamSid: options.streamSid ?? sid('MZ'),
      callSid: options.callSid ?? sid('CA'),
      accountSid: options.accountSid ?? sid('AC'),
      customParameters: options.customParameters ?? {},
    };
    this.closed = new Promise((resolve) => {
      socket.onClose((code) => {
        this.closeCode = code;
        this.halt();
        this.record('closed', String(code));
        resolve(code);
      });
    });
    socket.onFrame((data, isBinary) => {
      if (!inbound) return this.onMessage(data, isBinary);
      // A copy: the transport may reuse its buffer before the delayed message is read.
      const copy = data.slice();
      inbound.carry(() => this.onMessage(copy, isBinary));
    });
  }

  /** Dials the server, sends connected and start, and starts sending the caller's frames. Rejects if the upgrade fails. */
  static async connect(options: CallPeerOptions): Promise<CallPeer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.signature) {
      headers['X-Twilio-Signature'] = twilio.getExpectedTwilioSignature(options.signature.authToken, options.signature.url ?? options.url, {});
    }
    const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const socket = options.open ? await options.open(timeoutMs) : await openWebSocket(options.url, headers, timeoutMs);
    const peer = new CallPeer(socket, options);
    peer.begin();
    return peer;
  }

  /** ms since the stream started. */
  elapsedMs(): number {
    return this.clock.now() - this.originMs;
  }

  /** Presses a key now. */
  sendDtmf(digit: string): void {
    if (this.stopped) return;
    this.send(this.dialect.dtmf(this.start, digit));
    this.record('dtmf_sent', digit);
  }

  /** Sends a frame as it is (bad input, in tests and the simulator). */
  sendRaw(frame: WireFrame): void {
    this.send(frame);
  }

  /** Waits until `ms` after the stream started, or until the socket closes. */
  async runUntil(ms: number): Promise<void> {
    const remaining = ms - this.elapsedMs();
    if (remaining <= 0 || this.closeCode !== undefined) return;
    let timer: ClockTimer | undefined;
    await Promise.race([this.closed, new Promise<void>((resolve) => (timer = this.clock.setTimeout(resolve, remaining)))]);
    if (timer) this.clock.clearTimeout(timer);
  }

  /** Resolves with the first timeline event of `kind` (matching `detail` if given); rejects after `timeoutMs`. */
  waitFor(kind: TimelineKind, timeoutMs: number, detail?: (detail: string | undefined) => boolean): Promise<TimelineEvent> {
    const find = () => this.timeline.find((event) => event.kind === kind && (detail === undefined || detail(event.detail)));
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = find();
        if (!found) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no '${kind}' within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Ends the stream as Twilio does when the call ends: `stop`, then a normal close. */
  async stop(): Promise<void> {
    if (this.stopped || this.closeCode !== undefined) return this.closed.then(() => undefined);
    this.sendOptional(this.dialect.stop(this.start));
    this.record('stop_sent');
    this.halt();
    this.socket.close(1000, 'stream stopped');
    await this.closed;
  }

  /** Drops the connection without `stop` or a close handshake (a network failure). */
  async drop(): Promise<void> {
    if (this.closeCode !== undefined) return;
    this.record('dropped');
    this.halt();
    this.socket.terminate();
    await this.closed;
  }

  /**
   * Goes away half-open (a provider whose side died without closing the connection): sends nothing more, no stop,
   * no close, no acknowledgement, and ignores what arrives, but leaves the connection up for the server to end (its
   * stream watchdog); `closed` resolves when it does.
   */
  vanish(): void {
    if (this.closeCode !== undefined || this.vanished) return;
    this.record('vanished');
    this.halt();
    this.vanished = true;
  }

  /** What the caller heard from time zero until now, as 8 kHz mu-law. */
  heardMulaw(untilMs = this.elapsedMs()): Uint8Array {
    return this.playout.heard(untilMs);
  }

  /** Every sample the caller heard or will hear (what is still buffered), in order, without the gaps between. */
  playedMulaw(): Uint8Array {
    return this.playout.played();
  }

  /** What the caller heard as a 16-bit 8 kHz WAV file. */
  heardWav(untilMs = this.elapsedMs()): Uint8Array {
    return encodeWav(mulawToPcm16(this.heardMulaw(untilMs)), 8000);
  }

  summary(): PeerSummary {
    const firstMedia = this.timeline.find((e) => e.kind === 'first_media_in');
    const speech = this.timeline.find((e) => e.kind === 'caller_speech');
    const clear = speech && this.timeline.find((e) => e.kind === 'clear_received' && e.atMs >= speech.atMs);
    return {
      elapsedMs: this.elapsedMs(),
      framesSent: this.framesSent,
      mediaReceived: this.mediaReceived,
      firstMediaInMs: firstMedia?.atMs,
      marksReceived: this.marksReceived,
      marksEchoed: this.marksEchoed,
      marksEchoedByClear: this.marksEchoedByClear,
      clears: this.clears,
      replays: this.replays.length,
      repeatedMs: this.replays.reduce((sum, replay) => sum + replay.repeatedMs, 0),
      lostMs: this.replays.reduce((sum, replay) => sum + replay.lostMs, 0),
      ...this.bargeIn(speech?.atMs, clear?.atMs),
      playout: this.playout.stats,
      badMessages: this.badMessages,
      closeCode: this.closeCode,
    };
  }

  private bargeIn(speechAtMs: number | undefined, clearAtMs: number | undefined): Pick<PeerSummary, 'bargeInMs' | 'bargeInBy'> {
    if (speechAtMs === undefined) return { bargeInMs: undefined, bargeInBy: undefined };
    if (clearAtMs !== undefined) return { bargeInMs: clearAtMs - speechAtMs, bargeInBy: 'clear' };
    const media = this.inbound.filter((entry) => entry.event === 'media');
    const first = media.findIndex((entry) => entry.atMs >= speechAtMs);
    // The bot was not speaking when the caller started: nothing to stop.
    if (first < 0 || first === 0 || speechAtMs - media[first - 1]!.atMs > AUDIO_GAP_MS) return { bargeInMs: undefined, bargeInBy: undefined };
    for (let i = first; i < media.length; i++) {
      const nextAtMs = media[i + 1]?.atMs ?? this.elapsedMs();
      if (nextAtMs - media[i]!.atMs > AUDIO_GAP_MS) return { bargeInMs: media[i]!.atMs + PHONE_FRAME_MS - speechAtMs, bargeInBy: 'audio-stopped' };
    }
    return { bargeInMs: undefined, bargeInBy: undefined };
  }

  private begin(): void {
    this.originMs = this.clock.now();
    if (this.mediaBeforeStart) this.send(this.dialect.media(this.start, 0, 0, this.caller.frame(0)));
    for (const frame of this.dialect.opening(this.start)) this.send(frame);
    this.record('connected');
    this.record('start', this.start.callSid);
    this.schedule();
  }

  /**
   * Sends every media message whose audio has elapsed (a message of F ms covering [nF, (n+1)F) leaves at (n+1)F),
   * due DTMF and due mark acknowledgements.
   */
  private tick(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const elapsed = this.elapsedMs();
    const perMessage = this.framesPerMessage();
    while ((this.framesSent + perMessage) * PHONE_FRAME_MS <= elapsed) {
      const first = this.framesSent;
      const frames = Array.from({ length: perMessage }, (_, i) => this.callerFrame(first + i));
      this.send(this.dialect.media(this.start, first / perMessage, first * PHONE_FRAME_MS, perMessage === 1 ? frames[0]! : Buffer.concat(frames)));
      this.framesSent += perMessage;
      const endMs = this.framesSent * PHONE_FRAME_MS;
      while (this.pendingOnsets.length > 0 && this.pendingOnsets[0]!.atMs < endMs) {
        const onset = this.pendingOnsets.shift()!;
        this.record('caller_speech', `${onset.label} (onset at ${onset.atMs.toFixed(0)} ms of audio)`);
      }
    }
    while (this.pendingDtmf.length > 0 && this.pendingDtmf[0]!.atMs <= elapsed) this.sendDtmf(this.pendingDtmf.shift()!.digit);
    this.echoDueMarks(elapsed);
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.timer !== undefined) return;
    const elapsed = this.elapsedMs();
    let next = (this.framesSent + this.framesPerMessage()) * PHONE_FRAME_MS;
    const markDue = this.playout.nextMarkDueMs();
    if (markDue !== undefined) next = Math.min(next, markDue);
    const dtmfDue = this.pendingDtmf[0]?.atMs;
    if (dtmfDue !== undefined) next = Math.min(next, dtmfDue);
    this.timer = this.clock.setTimeout(() => this.tick(), Math.max(0, next - elapsed));
  }

  private echoDueMarks(elapsed: number): void {
    for (const name of this.playout.dueMarks(elapsed)) this.echo(name, false);
  }

  private echo(name: string, byClear: boolean): void {
    if (this.stopped) return;
    this.send(this.dialect.played(this.start, name));
    this.marksEchoed++;
    if (byClear) this.marksEchoedByClear++;
    this.record('mark_echoed', byClear ? `${name} (cleared)` : name);
  }

  private framesPerMessage(): number {
    return Math.max(1, Math.round(this.dialect.inboundFrameMs / PHONE_FRAME_MS));
  }

  private onMessage(data: Uint8Array, isBinary: boolean): void {
    if (this.vanished) return;
    const elapsed = this.elapsedMs();
    const message = this.dialect.read(data, isBinary);
    switch (message.event) {
      case 'media':
        this.inbound.push({ atMs: elapsed, event: 'media', bytes: message.mulaw.length, audio: message.mulaw.slice() });
        if (this.mediaReceived++ === 0) this.record('first_media_in');
        this.playout.media(message.mulaw, elapsed);
        this.noteReplay(this.replayWatch.media(message.mulaw));
        break;
      case 'mark':
        this.inbound.push({ atMs: elapsed, event: 'mark', name: message.name });
        this.marksReceived++;
        this.record('mark_received', message.name);
        if (this.playout.mark(message.name, elapsed)) this.echo(message.name, false);
        break;
      case 'clear':
        this.inbound.push({ atMs: elapsed, event: 'clear' });
        this.clears++;
        this.record('clear_received');
        this.echoDueMarks(elapsed);
        const clearedBefore = this.playout.stats.clearedMs;
        for (const name of this.playout.clear(elapsed)) if (this.dialect.clearEchoesMarks) this.echo(name, true);
        const clearedBytes = Math.round((this.playout.stats.clearedMs - clearedBefore) * MULAW_BYTES_PER_MS);
        this.replayWatch.clear(this.replayWatch.sinceBytes - clearedBytes);
        this.sendOptional(this.dialect.clearAcknowledgement(this.start));
        break;
      case 'hangup':
        // Asterisk hangs the channel up, which closes the socket.
        this.record('hangup_received');
        this.halt();
        this.socket.close(1000, 'hangup');
        break;
      case 'other':
        this.badMessages++;
        this.record('bad_message', message.reason);
        break;
    }
    // A new mark may fall due before the next frame: re-arm the timer for it.
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.schedule();
  }

  /** Caller frame `index` as sent: the caller's own audio, plus the echo of what was heard when the loop is closed. */
  private callerFrame(index: number): Uint8Array {
    const own = this.caller.frame(index);
    const path = this.echoPath;
    if (!path) return own;
    const startMs = index * PHONE_FRAME_MS;
    return path.mix(own, this.playout.heardBetween(startMs - path.delayMs - path.spanMs, startMs + PHONE_FRAME_MS - path.delayMs));
  }

  private noteReplay(replay: Replay | undefined): void {
    if (!replay) return;
    this.replays.push(replay);
    this.record('replay_received', `from ${replay.fromMs} ms: repeated ${replay.repeatedMs} ms, lost ${replay.lostMs} ms`);
  }

  private sendOptional(frame: WireFrame | undefined): void {
    if (frame !== undefined) this.send(frame);
  }

  private send(frame: WireFrame): void {
    if (this.vanished) return;
    if (this.outbound) this.outbound.carry(() => this.socket.open && this.socket.send(frame));
    else this.socket.send(frame);
  }

  private halt(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private record(kind: TimelineKind, detail?: string): void {
    this.timeline.push(detail === undefined ? { atMs: this.elapsedMs(), kind } : { atMs: this.elapsedMs(), kind, detail });
    for (const waiter of [...this.waiters]) waiter();
  }
}
