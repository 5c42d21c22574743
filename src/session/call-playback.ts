// The wire side of a call's playback: every frame and mark towards the provider goes through here, so a barge-in
// hold can clear the provider and freeze the pacer without losing anything, and a resume can send again what the
// caller did not hear. It keeps the tape (the audio since the last confirmed position), a position mark every
// POSITION_MARK_MS, and tells the echo gate what will play when. The decisions are barge-in's (call-barge-in.ts).

import { fadeInMulaw, MULAW_BYTES_PER_MS, MULAW_SILENCE, mulawToPcm16 } from '../audio/mulaw.js';
import type { CallMediaPort } from './call-events.js';
import type { TurnInfo } from './call-turns.js';
import type { Clock } from './clock.js';
import type { EchoGate } from './barge-in/echo-gate.js';
import type { InterruptedUtterance, PlaybackLedger } from './playback-ledger.js';
import { PlaybackTape } from './playback-tape.js';
import type { PlayoutClock } from './playout-clock.js';
import type { TurnPlayout } from './utterance-turn.js';

/**
 * A position mark every two frames: a resume starts at most this far before what the caller last heard (plus the
 * mark's round trip). About 25 small messages a second per call, beside 50 of audio.
 */
const POSITION_MARK_MS = 40;
/** The tape never keeps more than this behind the head, even if a provider stops echoing marks. */
const TAPE_MAX_MS = 5000;
/** The first re-sent frame fades in over 8 ms: a resume mid-word does not click. */
const RESUME_FADE_SAMPLES = 64;

/** Where a hold left the playback. */
export interface HeldPosition {
  /** Playout-axis position the provider confirmed played when the hold began: the resume starts here. */
  readonly confirmedMs: number;
  /** The playout estimate then: what `interrupted.played_ms` reports if the hold commits. */
  readonly estimatedMs: number;
}

export class CallPlayback {
  readonly #tape = new PlaybackTape(TAPE_MAX_MS);
  #nextPositionMarkMs = 0;

  constructor(
    private readonly media: CallMediaPort,
    private readonly ledger: PlaybackLedger,
    private readonly playout: PlayoutClock,
    private readonly clock: Clock,
    /** Learns what plays when; absent: no VAD listens, so no echo to predict. */
    private readonly echo: EchoGate | undefined,
    /** True while speech may hold the bot: only then are the tape and position marks kept. */
    private readonly holdsPossible: () => boolean,
  ) {}

  /**
   * How a turn's frames leave: whole padded frames paced against the playout clock, counted into the ledger, a mark
   * after each chunk; `firstAudio` once its first frame is out.
   */
  turn(turn: TurnInfo, firstAudio: () => void): TurnPlayout {
    const { playout, ledger } = this;
    ledger.begin(turn, playout.sentMs);
    let first = true;
    return {
      padByte: MULAW_SILENCE,
      waitForRoom: (ms, signal) => playout.waitForRoom(ms, signal),
      sent: (ms) => {
        playout.push(ms, !first);
        ledger.audioSent(turn.seq, ms);
        this.#counted();
        if (first) {
          first = false;
          firstAudio();
        }
      },
      chunksSent: (lastChunk, final) => this.#chunkMark(turn.seq, lastChunk, final),
      // Its final mark will never come: without this a draining hangup would wait its full 30 s, and a failed
      // non-interruptible turn would shield every later utterance from barge-in.
      abandoned: () => ledger.abandon(turn.seq),
    };
  }

  /** One frame of the turn: taped at its position before the playout clock counts it; sent unless held. */
  frame(bytes: Uint8Array): void {
    if (this.holdsPossible()) this.#tape.recordFrame(this.playout.sentMs, bytes, bytes.length / MULAW_BYTES_PER_MS);
    // A frame that slips in as a hold begins is only taped, and leaves with the replay.
    if (!this.playout.held) this.#send(bytes);
  }

  /** The playout clock counted the frame: a position mark when POSITION_MARK_MS went out since the last. */
  #counted(): void {
    const positionMs = this.playout.sentMs;
    if (this.playout.held || positionMs < this.#nextPositionMarkMs || !this.holdsPossible()) return;
    this.#nextPositionMarkMs = positionMs + POSITION_MARK_MS;
    this.media.sendMark(this.ledger.positionMark(positionMs), false);
  }

  /** The mark after chunk `lastChunk` of turn `seq`; held: it leaves with the replay, or never if the hold commits. */
  #chunkMark(seq: number, lastChunk: number, final: boolean): void {
    if (this.holdsPossible()) this.#tape.recordMark(this.playout.sentMs, { seq, lastChunk, final, utteranceMs: this.ledger.utteranceSentMs(seq) });
    if (!this.playout.held) this.media.sendMark(this.ledger.markSent(seq, lastChunk, final).name, final);
  }

  /** A mark came back: what played before it leaves the tape. */
  confirmed(): void {
    this.#tape.trimBefore(this.ledger.confirmedMs);
  }

  /** HOLD: the provider drops what it buffered, nothing more is sent; the audio stays on the tape. */
  hold(): HeldPosition {
    const estimatedMs = this.playout.playedMs();
    const confirmedMs = this.ledger.confirmedMs;
    this.#clearProvider();
    this.ledger.hold();
    this.playout.hold();
    return { confirmedMs, estimatedMs: Math.max(confirmedMs, estimatedMs) };
  }

  /** RESUME: sends the tape again from the confirmed position (first frame faded in); returns where it starts. */
  resume(held: HeldPosition): number {
    const items = this.#tape.from(held.confirmedMs);
    const firstFrame = items.find((item) => item.kind === 'frame');
    const fromMs = firstFrame?.atMs ?? this.playout.sentMs;
    this.playout.release(fromMs);
    this.#nextPositionMarkMs = fromMs;
    let first = true;
    for (const item of items) {
      if (item.kind === 'mark') {
        const { seq, lastChunk, final, utteranceMs } = item.mark;
        this.media.sendMark(this.ledger.markSent(seq, lastChunk, final, utteranceMs).name, final);
        continue;
      }
      this.#send(first ? fadeInMulaw(item.bytes, RESUME_FADE_SAMPLES) : item.bytes);
      first = false;
      this.playout.push(item.ms, true);
      this.#counted();
    }
    return fromMs;
  }

  /**
   * CUT: what each outstanding utterance got to play, and a new axis. The provider is cleared unless a hold already
   * did it (`held`); undefined when nothing was playing or about to.
   */
  cut(held: HeldPosition | undefined): InterruptedUtterance[] | undefined {
    if (!held && !this.ledger.outstanding() && this.playout.bufferedMs() === 0) return undefined;
    if (!held) this.#clearProvider();
    const interrupted = this.ledger.clear(held ? held.estimatedMs : this.playout.playedMs());
    this.playout.reset();
    this.#tape.clear();
    this.#nextPositionMarkMs = 0;
    return interrupted;
  }

  #clearProvider(): void {
    this.media.sendClear();
    this.echo?.cleared(this.clock.now());
  }

  #send(bytes: Uint8Array): void {
    this.echo?.played(mulawToPcm16(bytes), this.playout.nextStartMs());
    this.media.sendMedia(bytes);
  }
}
