// The bot's own voice coming back in the caller's audio (a speakerphone, a cheap handset, an analogue hybrid) looks
// like speech to the VAD: at -20 dB, two thirds of its windows score as speech (the bot's prompt fed back). We know
// what we sent and when it plays, so the echo is predictable: 10 ms energy envelopes of the audio played and of the
// audio received are cross-correlated to estimate the echo's delay and level (ERL); a caller frame no louder than the
// predicted echo plus a margin is explained by it and kept from the VAD. A Geigel-style double-talk test on energies,
// not an echo canceller: a caller louder than the echo still gets through, and a line without echo is never gated.
// It works on the caller's audio axis (caller-audio-clock.ts): caller frames are placed by the audio they carry, not
// by when they arrived (a burst would pile them on the same slots), and what is played is mapped onto that axis.

import { pcm16Sample } from '../../audio/pcm.js';
import { DEFAULT_BARGE_IN_TUNING } from './barge-in-detector.js';

/** Envelope resolution. */
const SLOT_MS = 10;
/** Phone audio: 8 kHz. */
const SAMPLES_PER_MS = 8;
/** Longest echo path considered: acoustic and line round trip plus both network legs. */
const MAX_DELAY_MS = 400;
const MAX_LAG_SLOTS = MAX_DELAY_MS / SLOT_MS;
/** History kept per envelope (slots): more than the estimation window plus the longest delay. */
const RING = 512;
/** The estimate is refreshed this often from the last ESTIMATE_WINDOW_SLOTS of inbound audio. */
const ESTIMATE_EVERY_SLOTS = 25;
const ESTIMATE_WINDOW_SLOTS = 200;
/** Bot audio quieter than this (mean square, about -55 dBFS) says nothing about the echo. */
const ACTIVE_POWER = 10 ** (-55 / 10);
/** Caller audio below the VAD's energy gate never reaches it: no echo that quiet needs estimating. */
const AUDIBLE_POWER = 10 ** (DEFAULT_BARGE_IN_TUNING.energyGateDbfs / 10);
/** Slots of bot speech needed in the window before an estimate is trusted. */
const MIN_ACTIVE_SLOTS = 40;
/** Correlation of the log envelopes that makes a delay believable. */
const MIN_CORRELATION = 0.6;
/** A caller frame must be this much louder than the predicted echo to reach the VAD. */
const ECHO_MARGIN_DB = 8;
/** After the bot paused for what turned out to be its own echo, the margin rises by this much for a while. */
const BACKOFF_DB = 6;
/** Caller audio. */
const BACKOFF_MS = 30_000;
/**
 * An echo follows the bot's envelope level for level (the log-log slope near 1 for a fixed loss; lower where the
 * echo sinks into the line noise) and comes back at least ECHO_MIN_LOSS_DB quieter (3GPP TS 26.131 asks a handset
 * for ≥ 6 dB even face down at full volume).
 */
const SLOPE_RANGE = [0.4, 1.4] as const;
const ECHO_MIN_LOSS_DB = 6;
/**
 * Before an estimate, a held sound is taken for echo only if it is echo-like and follows the bot's envelope this
 * closely over at least LOCAL_MIN_SLOTS: resuming over a caller would talk over a "stop".
 */
const LOCAL_CORRELATION = 0.8;
const LOCAL_MIN_SLOTS = 20;
/** How far from one echo delay after a hold the caller's sound may end and still count as the echo stopping. */
const SIGNATURE_TOLERANCE_MS = 80;
/**
 * A held sound is judged as echo together with the line just before it: an echo follows the bot one delay later
 * wherever the bot was audible, so it cannot begin out of a silent line while the bot (one delay earlier) was already
 * talking. Judged on the sound alone, a single syllable ("stop", 30 slots of one rise and fall) follows some stretch of
 * the bot's speech at one of the 40 delays closely enough by chance (Flite's rms voice did, at 0.8, in 2 of 8 offsets:
 * the bot resumed over the caller's next words). The 200 ms before the sound put the caller's silence, where the bot
 * was playing, into the same correlation. A real echo of a bot that was already talking was on the line then too
 * (below the VAD, or not yet judged as speech) and still correlates; one that began with the bot's own first word
 * has bot silence there, which says nothing either way.
 */
const ONSET_LEAD_MS = 200;

export interface EchoEstimate {
  readonly delayMs: number;
  /** Echo return loss, dB (negative: the echo is that much quieter than what was played). */
  readonly erlDb: number;
  readonly correlation: number;
}

export class EchoGate {
  readonly #out = new Float64Array(RING);
  readonly #outSlot = new Float64Array(RING).fill(-1);
  readonly #in = new Float64Array(RING);
  readonly #inSlot = new Float64Array(RING).fill(-1);
  /**
   * The envelopes' log10 (inbound: of power + 1e-12), taken once per slot as it is recorded: each estimate
   * correlates 41 delays over 200 slots, and taking the logs there was most of the gate's cost.
   */
  readonly #outLog = new Float64Array(RING);
  readonly #inLog = new Float64Array(RING);
  #inSlots = 0;
  #estimate: { delaySlots: number; erl: number; correlation: number } | undefined;
  #backoffUntilMs = -Infinity;

  constructor(
    /** Maps a real (monotonic) time onto the caller's audio axis; the identity when both are the same clock. */
    private readonly toAxisMs: (realMs: number) => number = (ms) => ms,
  ) {}

  /** The current estimate, once the line has shown an echo. */
  get estimate(): EchoEstimate | undefined {
    const e = this.#estimate;
    return e && { delayMs: e.delaySlots * SLOT_MS, erlDb: Math.round(10 * Math.log10(e.erl) * 10) / 10, correlation: Math.round(e.correlation * 100) / 100 };
  }

  /** 8 kHz PCM the far end starts playing at `startsAtMs` (monotonic, the playout clock's estimate). */
  played(pcm: Int16Array, startsAtMs: number): void {
    this.#record(this.#out, this.#outSlot, this.#outLog, 0, pcm, this.toAxisMs(startsAtMs));
  }

  /** The far end's buffer was cleared at `atMs` (monotonic): what was scheduled to play from then on never will. */
  cleared(atMs: number): void {
    const from = Math.round(this.toAxisMs(atMs) / SLOT_MS);
    for (let i = 0; i < RING; i++) if (this.#outSlot[i]! >= from) this.#outSlot[i] = -1;
  }

  /** A caller frame (8 kHz PCM) whose audio ends at `arrivedAtMs` on the caller's axis; true when the predicted echo explains it. */
  heard(pcm: Int16Array, arrivedAtMs: number): boolean {
    const startMs = arrivedAtMs - pcm.length / SAMPLES_PER_MS;
    const slots = this.#record(this.#in, this.#inSlot, this.#inLog, 1e-12, pcm, startMs);
    for (const slot of slots) if (++this.#inSlots % ESTIMATE_EVERY_SLOTS === 0) this.#reestimate(slot);
    const estimate = this.#estimate;
    if (!estimate) return false;
    const margin = 10 ** ((ECHO_MARGIN_DB + (arrivedAtMs < this.#backoffUntilMs ? BACKOFF_DB : 0)) / 10);
    for (const slot of slots) {
      const predicted = estimate.erl * this.#peakOut(slot - estimate.delaySlots);
      if (!(this.#in[slot % RING]! <= predicted * margin)) return false;
    }
    return true;
  }

  /**
   * The caller's sound that held the bot ended at `endedAtMs`, the provider was cleared at `heldAtMs` (both on the
   * caller's axis): ending one echo delay after the bot went quiet is the echo stopping. On a line with an estimate, that delay is the estimate's; before
   * one exists (the first echo of a call), the sound itself must show it: its envelope since `startedAtMs` follows
   * what was played that same delay earlier (correlation ≥ LOCAL_CORRELATION). Either way the margin then rises.
   */
  endedLikeEcho(startedAtMs: number, heldAtMs: number, endedAtMs: number): boolean {
    const delaySlots = this.#estimate?.delaySlots ?? this.#localDelay(startedAtMs, heldAtMs, endedAtMs);
    if (delaySlots === undefined) return false;
    const like = Math.abs(endedAtMs - (heldAtMs + delaySlots * SLOT_MS)) <= SIGNATURE_TOLERANCE_MS;
    if (like) this.#backoffUntilMs = endedAtMs + BACKOFF_MS;
    return like;
  }

  /**
   * True when the caller's sound from `startedAtMs` to `nowMs` is the bot's echo by its own look: echo-like, and
   * following what was played one delay earlier (the estimate's, or any of 10–400 ms before there is one) at least
   * LOCAL_CORRELATION closely. A held sound like that is never committed, however long it runs: the echo stops one
   * delay after the hold, and the hold resumes then (the signature above, or this same test on the whole sound).
   * With `clearedAtMs` (the hold's clear), a delay the sound has outlasted since the clear cannot explain it.
   */
  soundsLikeEcho(startedAtMs: number, nowMs: number, clearedAtMs?: number): boolean {
    const lags = this.#estimate ? [this.#estimate.delaySlots] : undefined;
    // After the clear the bot is silent, so its echo at a delay is gone one delay (and the tolerance) later.
    const heardAfterEcho = (lag: number) => clearedAtMs !== undefined && nowMs > clearedAtMs + lag * SLOT_MS + SIGNATURE_TOLERANCE_MS;
    return this.#bestLocalLag(startedAtMs, nowMs, (lag) => (lags === undefined || lags.includes(lag)) && !heardAfterEcho(lag)) !== undefined;
  }

  /**
   * The delay at which the inbound envelope over [startedAtMs, endedAtMs] best follows the bot's, if it does so
   * closely and that delay puts the bot's silence (from `heldAtMs`) where the sound ended.
   */
  #localDelay(startedAtMs: number, heldAtMs: number, endedAtMs: number): number | undefined {
    // Only a delay that puts the end of the sound where the bot's silence comes back can explain it.
    return this.#bestLocalLag(startedAtMs, endedAtMs, (lag) => Math.abs(endedAtMs - (heldAtMs + lag * SLOT_MS)) <= SIGNATURE_TOLERANCE_MS);
  }

  /**
   * The lag (among those `allowed`) at which the sound over [startedAtMs, endedAtMs], with the line ONSET_LEAD_MS
   * before it, follows the bot as an echo.
   */
  #bestLocalLag(startedAtMs: number, endedAtMs: number, allowed: (lag: number) => boolean): number | undefined {
    const window = this.#window(Math.round((startedAtMs - ONSET_LEAD_MS) / SLOT_MS), Math.round(endedAtMs / SLOT_MS));
    let best: { lag: number; correlation: number } | undefined;
    for (let lag = 1; lag <= MAX_LAG_SLOTS; lag++) {
      if (!allowed(lag)) continue;
      const { n, correlation, slope, meanRatioDb } = correlate(window, lag);
      if (n < LOCAL_MIN_SLOTS || !echoLike(slope, meanRatioDb)) continue;
      if (correlation >= LOCAL_CORRELATION && (!best || correlation > best.correlation)) best = { lag, correlation };
    }
    return best?.lag;
  }

  /** Adds a frame's 10 ms energies (and their log10, of energy + `logFloor`) to an envelope; returns the slots written. */
  #record(values: Float64Array, tags: Float64Array, logs: Float64Array, logFloor: number, pcm: Int16Array, startMs: number): number[] {
    const per = SLOT_MS * SAMPLES_PER_MS;
    const slots: number[] = [];
    for (let offset = 0; offset + per <= pcm.length; offset += per) {
      let sum = 0;
      for (let i = offset; i < offset + per; i++) sum += pcm16Sample(pcm[i]!) ** 2;
      const slot = Math.round((startMs + offset / SAMPLES_PER_MS) / SLOT_MS);
      values[slot % RING] = sum / per;
      logs[slot % RING] = Math.log10(sum / per + logFloor);
      tags[slot % RING] = slot;
      slots.push(slot);
    }
    return slots;
  }

  #outAt(slot: number): number | undefined {
    return slot >= 0 && this.#outSlot[slot % RING] === slot ? this.#out[slot % RING] : undefined;
  }

  /** Loudest bot audio around `slot` (a 32 ms VAD window and the estimate's ±1 slot jitter). */
  #peakOut(slot: number): number {
    let peak = 0;
    for (let s = slot - 2; s <= slot + 3; s++) peak = Math.max(peak, this.#outAt(s) ?? 0);
    return peak;
  }

  /**
   * The log envelopes over slots first..last, read once for every delay to be tried: inbound where a caller slot was
   * recorded, and bot audio from MAX_LAG_SLOTS before `first` where it was loud enough to say anything; NaN elsewhere.
   */
  #window(first: number, last: number): EnvelopeWindow {
    const length = Math.max(0, last - first + 1);
    const inbound = new Float64Array(length).fill(NaN);
    const bot = new Float64Array(length + MAX_LAG_SLOTS).fill(NaN);
    for (let i = 0; i < length; i++) {
      const t = first + i;
      if (this.#inSlot[t % RING] === t) inbound[i] = this.#inLog[t % RING]!;
    }
    for (let j = 0; j < bot.length; j++) {
      const slot = first - MAX_LAG_SLOTS + j;
      const out = this.#outAt(slot);
      if (out !== undefined && out >= ACTIVE_POWER) bot[j] = this.#outLog[slot % RING]!;
    }
    return { inbound, bot };
  }

  /** Cross-correlates the log envelopes over every delay up to MAX_DELAY_MS; keeps the best if believable. */
  #reestimate(lastSlot: number): void {
    const first = lastSlot - ESTIMATE_WINDOW_SLOTS + 1;
    // Nothing the VAD would hear came in: there is no echo worth estimating (a clean line costs nothing here).
    let loudest = 0;
    for (let t = first; t <= lastSlot; t++) if (this.#inSlot[t % RING] === t) loudest = Math.max(loudest, this.#in[t % RING]!);
    if (loudest < AUDIBLE_POWER) return;
    const window = this.#window(first, lastSlot);
    let best: { delaySlots: number; correlation: number } | undefined;
    for (let lag = 0; lag <= MAX_LAG_SLOTS; lag++) {
      const { n, correlation, slope, meanRatioDb } = correlate(window, lag);
      // An echo is the bot's audio at a fixed loss: level for level and quieter. A caller who happens to talk in the
      // bot's rhythm is neither, and must never be mistaken for one (the gate would then hide their words).
      if (n < MIN_ACTIVE_SLOTS || !echoLike(slope, meanRatioDb)) continue;
      if (correlation >= MIN_CORRELATION && (!best || correlation > best.correlation)) best = { delaySlots: lag, correlation };
    }
    if (!best) return;
    // The level: the median ratio at that delay, robust to a caller talking over part of the window.
    const ratios: number[] = [];
    for (let t = first; t <= lastSlot; t++) {
      const out = this.#outAt(t - best.delaySlots);
      if (this.#inSlot[t % RING] === t && out !== undefined && out >= ACTIVE_POWER) ratios.push(this.#in[t % RING]! / out);
    }
    ratios.sort((a, b) => a - b);
    this.#estimate = { ...best, erl: ratios[Math.floor(ratios.length / 2)]! };
  }
}

/** Log envelopes of a run of slots (EchoGate.#window): `bot` starts MAX_LAG_SLOTS slots before `inbound`. */
interface EnvelopeWindow {
  readonly inbound: Float64Array;
  readonly bot: Float64Array;
}

/**
 * Inbound against bot audio `lag` slots earlier, over the window's slots where both are present: the Pearson
 * correlation of the log envelopes, the slope of inbound on bot (1 for a fixed loss), and the mean level difference in
 * dB. Each estimate tries 41 delays over 200 slots; reading the envelopes once per estimate keeps this loop to two
 * array reads a slot.
 */
function correlate({ inbound, bot }: EnvelopeWindow, lag: number): { n: number; correlation: number; slope: number; meanRatioDb: number } {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  const shift = MAX_LAG_SLOTS - lag;
  for (let i = 0; i < inbound.length; i++) {
    const y = inbound[i]!;
    const x = bot[i + shift]!;
    if (Number.isNaN(y) || Number.isNaN(x)) continue;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  const vx = sxx - (sx * sx) / n;
  const vy = syy - (sy * sy) / n;
  const cov = sxy - (sx * sy) / n;
  const usable = n > 1 && vx > 0 && vy > 0;
  return {
    n,
    correlation: usable ? cov / Math.sqrt(vx * vy) : 0,
    slope: usable ? cov / vx : 0,
    // Envelopes are log10 of power: ×10 for dB.
    meanRatioDb: n > 0 ? (10 * (sy - sx)) / n : 0,
  };
}

function echoLike(slope: number, meanRatioDb: number): boolean {
  return slope >= SLOPE_RANGE[0] && slope <= SLOPE_RANGE[1] && meanRatioDb <= -ECHO_MIN_LOSS_DB;
}
