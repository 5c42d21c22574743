// What a resumed hold sounds like to the caller, seen from the provider's side: after a `clear`, the server may re-send
// audio it had already sent (Raaga's resume replays its tape, the first frame faded in). The watch finds where in the
// audio received before the clear the replay starts (the frames after the faded one repeat it exactly, up to its
// end), and compares it with what had played by the clear: before it, the caller hears that stretch twice; after it,
// the caller never heard the stretch in between (content lost). Frames of silence match anywhere, so a start is only
// taken once the repeated stretch holds sound (a replay of silence alone is not reported: nothing could be lost).

import { concatBytes } from '../audio/bytes.js';
import { MULAW_BYTES_PER_MS, MULAW_SILENCE, PHONE_FRAME_BYTES } from '../audio/mulaw.js';

/** Frames after a clear looked at before deciding (1 s): enough to get past a pause at the resume point. */
const MAX_FRAMES = 50;
/** Frames with sound the repeated stretch must hold for a match to count. */
const MIN_SOUND_FRAMES = 2;

export interface Replay {
  /** Where the replay starts, in ms into the audio received between the previous clear (or the start) and this one. */
  readonly fromMs: number;
  /** Audio the caller heard before the clear and hears again. */
  readonly repeatedMs: number;
  /** Audio the caller never heard: not played by the clear, and not re-sent. */
  readonly lostMs: number;
}

interface AfterClear {
  readonly before: Uint8Array;
  readonly playedBytes: number;
  readonly received: Uint8Array[];
  receivedBytes: number;
}

export class ReplayWatch {
  #since: Uint8Array[] = [];
  #sinceBytes = 0;
  #afterClear: AfterClear | undefined;

  /** Audio received since the last clear (or the start), in bytes. */
  get sinceBytes(): number {
    return this.#sinceBytes;
  }

  /** One media payload from the server; returns the replay once the audio after a clear shows one. */
  media(bytes: Uint8Array): Replay | undefined {
    this.#since.push(bytes);
    this.#sinceBytes += bytes.length;
    const after = this.#afterClear;
    if (!after) return undefined;
    after.received.push(bytes);
    after.receivedBytes += bytes.length;
    if (after.receivedBytes < 2 * PHONE_FRAME_BYTES) return undefined;
    const received = concatBytes(after.received);
    const frames = Math.min(MAX_FRAMES, Math.floor(received.length / PHONE_FRAME_BYTES));
    const { before, playedBytes } = after;
    let undecided = false;
    for (let at = 0; at + 2 * PHONE_FRAME_BYTES <= before.length; at += PHONE_FRAME_BYTES) {
      // Frames 1.. of the replay against the frames after `at`, as far as both go.
      const overlap = Math.min(frames, (before.length - at) / PHONE_FRAME_BYTES);
      let sound = 0;
      let match = true;
      for (let f = 1; f < overlap && match; f++) {
        const mine = received.subarray(f * PHONE_FRAME_BYTES, (f + 1) * PHONE_FRAME_BYTES);
        match = equal(mine, before.subarray(at + f * PHONE_FRAME_BYTES, at + (f + 1) * PHONE_FRAME_BYTES));
        if (!isSilent(mine)) sound++;
      }
      if (!match) continue;
      if (sound >= MIN_SOUND_FRAMES) {
        this.#afterClear = undefined;
        return {
          fromMs: at / MULAW_BYTES_PER_MS,
          repeatedMs: Math.max(0, playedBytes - at) / MULAW_BYTES_PER_MS,
          lostMs: Math.max(0, at - playedBytes) / MULAW_BYTES_PER_MS,
        };
      }
      undecided = true;
    }
    // Only silence matched so far: wait for more, up to MAX_FRAMES; past that (or with no match at all), no replay.
    if (!undecided || frames >= MAX_FRAMES) this.#afterClear = undefined;
    return undefined;
  }

  /** A clear arrived when `playedBytes` of the audio received since the last clear had played. */
  clear(playedBytes: number): void {
    this.#afterClear = { before: concatBytes(this.#since), playedBytes, received: [], receivedBytes: 0 };
    this.#since = [];
    this.#sinceBytes = 0;
  }
}

function isSilent(frame: Uint8Array): boolean {
  for (const byte of frame) if (byte !== MULAW_SILENCE && byte !== 0x7f) return false;
  return true;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
