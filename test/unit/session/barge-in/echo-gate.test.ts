// The echo gate on synthetic lines: bot audio with a syllable-like envelope played in 20 ms frames, and a caller
// line carrying that audio back delayed and attenuated (or not at all). It must find the delay and level, keep the
// echo from the VAD, let a caller louder than the echo through, and never gate a line without echo.

import { describe, expect, it } from 'vitest';
import { EchoGate } from '../../../../src/session/barge-in/echo-gate.js';
import { seeded } from '../../../helpers/seeded-random.js';

const FRAME = 160;

/** Noise shaped by a random 3-6 Hz syllable envelope with pauses: what speech looks like to a 10 ms envelope. */
function botAudio(seconds: number, random: () => number): Int16Array {
  const out = new Int16Array(seconds * 8000);
  let envelope = 0;
  let target = 0;
  for (let i = 0; i < out.length; i++) {
    if (i % 400 === 0) target = random() < 0.25 ? 0 : 0.05 + random() * 0.3;
    envelope += (target - envelope) * 0.01;
    out[i] = Math.round((random() * 2 - 1) * envelope * 32767);
  }
  return out;
}

function echoOf(bot: Int16Array, delayMs: number, erlDb: number, random: () => number): Int16Array {
  const d = delayMs * 8;
  const g = 10 ** (erlDb / 20);
  return Int16Array.from(bot, (_, i) => Math.round((i >= d ? bot[i - d]! * g : 0) + (random() * 2 - 1) * 30));
}

/** Plays `bot` and hears `line` frame by frame, the frame heard 20 ms after it played (the line's own delay is in it). */
function run(gate: EchoGate, bot: Int16Array, line: Int16Array, fromMs = 0): boolean[] {
  const explained: boolean[] = [];
  for (let f = 0; f * FRAME < bot.length; f++) {
    const at = fromMs + f * 20;
    gate.played(bot.subarray(f * FRAME, (f + 1) * FRAME), at);
    explained.push(gate.heard(line.subarray(f * FRAME, (f + 1) * FRAME), at + 20));
  }
  return explained;
}

/** `line` cut to `lengthMs`, silent from `silentFromMs` on (the echo stops once the bot's silence comes back). */
function echoUntil(line: Int16Array, silentFromMs: number, lengthMs: number): Int16Array {
  const out = line.slice(0, lengthMs * 8);
  out.fill(0, silentFromMs * 8);
  return out;
}

/** A gate that played `bot` until a hold at `heldAtMs` (then cleared the far end) and heard `line` from 0, 20 ms late. */
function heldThenHeard(bot: Int16Array, heldAtMs: number, line: Int16Array): EchoGate {
  const gate = new EchoGate();
  const played = bot.subarray(0, (heldAtMs / 20) * FRAME);
  for (let f = 0; f * FRAME < played.length; f++) gate.played(played.subarray(f * FRAME, (f + 1) * FRAME), f * 20);
  gate.cleared(heldAtMs);
  for (let f = 0; f * FRAME < line.length; f++) gate.heard(line.subarray(f * FRAME, (f + 1) * FRAME), f * 20 + 20);
  return gate;
}

describe('EchoGate', () => {
  it('finds the delay and level of an echo and keeps it from the VAD', () => {
    for (const [delayMs, erlDb] of [[120, -20], [40, -10], [250, -30]] as const) {
      const random = seeded(delayMs);
      const gate = new EchoGate();
      const bot = botAudio(6, random);
      const explained = run(gate, bot, echoOf(bot, delayMs, erlDb, random));
      expect(gate.estimate?.delayMs, `${delayMs} ms`).toBeGreaterThanOrEqual(delayMs - 10);
      expect(gate.estimate?.delayMs, `${delayMs} ms`).toBeLessThanOrEqual(delayMs + 10);
      expect(Math.abs(gate.estimate!.erlDb - erlDb), `${erlDb} dB`).toBeLessThan(3);
      // After the first estimate (it needs a couple of seconds of bot speech), the echo is explained.
      const later = explained.slice(150);
      expect(later.filter(Boolean).length / later.length, `${delayMs} ms ${erlDb} dB`).toBeGreaterThan(0.95);
    }
  });

  it('lets a caller louder than the echo through (double talk)', () => {
    const random = seeded(5);
    const gate = new EchoGate();
    const bot = botAudio(6, random);
    const line = echoOf(bot, 120, -20, random);
    // The caller talks from 4 s to 5 s, at the bot's own level.
    const caller = botAudio(1, seeded(99));
    for (let i = 0; i < caller.length; i++) line[4 * 8000 + i] = Math.max(-32768, Math.min(32767, line[4 * 8000 + i]! + caller[i]!));
    const explained = run(gate, bot, line);
    const during = explained.slice(200, 250);
    const power = (k: number) => caller.subarray(k * FRAME, (k + 1) * FRAME).reduce((sum, v) => sum + (v / 32768) ** 2, 0) / FRAME;
    const loud = during.map((e, k) => ({ e, k })).filter(({ k }) => power(k) > 1e-3);
    expect(loud.length).toBeGreaterThan(10);
    // An energy gate lets a caller through where the caller is clearly louder than the echo: frames of a quiet
    // syllable next to a loud stretch of bot audio may still be held back (the margin's price).
    expect(loud.filter(({ e }) => !e).length / loud.length).toBeGreaterThan(0.9);
    // Before the caller speaks (3-4 s), the echo alone is explained.
    expect(explained.slice(150, 200).filter(Boolean).length).toBeGreaterThan(45);
  });

  it('never gates a line without echo, and recognises the echo stopping one delay after a hold', () => {
    const random = seeded(11);
    const quiet = new EchoGate();
    const bot = botAudio(4, random);
    const noise = Int16Array.from(bot, () => Math.round((random() * 2 - 1) * 30));
    expect(run(quiet, bot, noise).some(Boolean)).toBe(false);
    expect(quiet.estimate).toBeUndefined();
    expect(quiet.endedLikeEcho(900, 1000, 1120)).toBe(false);

    const gate = new EchoGate();
    run(gate, bot, echoOf(bot, 120, -20, random));
    const delay = gate.estimate!.delayMs;
    expect(gate.endedLikeEcho(4900, 5000, 5000 + delay + 30)).toBe(true);
    expect(gate.endedLikeEcho(4900, 5000, 5000 + delay + 300)).toBe(false);
  });

  it("before any estimate, the call's first echo is recognised from the sound itself; a caller's sound is not", () => {
    const random = seeded(21);
    const bot = botAudio(1, random);
    const heldAtMs = 340;
    // The bot plays from 0 until the hold at 340 ms; the line echoes it 250 ms late, -20 dB, until 590 ms.
    const gate = heldThenHeard(bot, heldAtMs, echoUntil(echoOf(bot, 250, -20, random), heldAtMs + 250, 800));
    expect(gate.estimate).toBeUndefined();
    // Its sound ran from 250 ms (the echo's onset) to 590 ms, one echo delay after the hold.
    expect(gate.endedLikeEcho(250, heldAtMs, heldAtMs + 250)).toBe(true);

    // The same timing with a caller's own voice (nothing like the bot's envelope) is not echo.
    const other = heldThenHeard(bot, heldAtMs, botAudio(1, seeded(77)).subarray(0, 800 * 8));
    expect(other.endedLikeEcho(250, heldAtMs, heldAtMs + 250)).toBe(false);

    // Nor is a sound that follows the bot's envelope but comes back as loud as the bot played it: no handset does.
    const loud = heldThenHeard(bot, heldAtMs, echoUntil(echoOf(bot, 250, 0, random), heldAtMs + 250, 800));
    expect(loud.endedLikeEcho(250, heldAtMs, heldAtMs + 250)).toBe(false);
  });

  it('a held echo that runs long still sounds like echo; a caller over it does not', () => {
    const random = seeded(31);
    const bot = botAudio(2, random);
    // A late hold: the bot played until 900 ms, the echo (250 ms, -20 dB) ran from 250 ms to 1150 ms, 900 ms of it.
    const heldAtMs = 900;
    const echo = echoUntil(echoOf(bot, 250, -20, random), heldAtMs + 250, 1400);
    const gate = heldThenHeard(bot, heldAtMs, echo);
    // 500 ms into the sound (where long speech would commit) and over the whole of it.
    expect(gate.soundsLikeEcho(250, 750)).toBe(true);
    expect(gate.soundsLikeEcho(250, 1150)).toBe(true);
    // The signature alone misses it when the sound's end is off by more than its tolerance; this test does not.
    expect(gate.endedLikeEcho(250, heldAtMs - 200, 1150)).toBe(false);

    // A caller talking over the echo from 400 ms: the sound no longer follows the bot.
    const caller = botAudio(1, seeded(88));
    const doubleTalk = Int16Array.from(echo, (v, i) => (i >= 400 * 8 && i < 400 * 8 + caller.length ? Math.max(-32768, Math.min(32767, v + caller[i - 400 * 8]!)) : v));
    expect(heldThenHeard(bot, heldAtMs, doubleTalk).soundsLikeEcho(250, 1150)).toBe(false);
    // Nor does the caller's voice alone, nor silence.
    expect(heldThenHeard(bot, heldAtMs, caller).soundsLikeEcho(0, 1000)).toBe(false);
    expect(heldThenHeard(bot, heldAtMs, new Int16Array(echo.length)).soundsLikeEcho(250, 1150)).toBe(false);
  });
});
