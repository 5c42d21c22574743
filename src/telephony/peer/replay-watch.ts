// What a resumed hold sounds like to the caller, seen from the provider's side: after a `clear`, the server may re-send
// audio it had already sent (Raaga's resume replays its tape, the first frame faded in). The watch finds where in the
// audio received before the clear the replay starts (the second re-sent frame repeats a frame exactly), and compares
// it with what had played by the clear: before it, the caller hears that stretch twice; after it, the caller never
// heard the stretch in between (content lost).

import { PHONE_FRAME_BYTES, MULAW_BYTES_PER_MS } from '../../audio/mulaw.js';

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
    this.#afterClear = undefined;
    const second = concat(after.received).subarray(PHONE_FRAME_BYTES, 2 * PHONE_FRAME_BYTES);
    const { before, playedBytes } = after;
    // The latest match: a repeated phrase earlier in the audio must not be taken for the replay.
    for (let at = before.length - 2 * PHONE_FRAME_BYTES; at >= 0; at -= PHONE_FRAME_BYTES) {
      if (!equal(before.subarray(at + PHONE_FRAME_BYTES, at + 2 * PHONE_FRAME_BYTES), second)) continue;
      return {
        fromMs: at / MULAW_BYTES_PER_MS,
        repeatedMs: Math.max(0, playedBytes - at) / MULAW_BYTES_PER_MS,
        lostMs: Math.max(0, at - playedBytes) / MULAW_BYTES_PER_MS,
      };
    }
    return undefined;
  }

  /** A clear arrived when `playedBytes` of the audio received since the last clear had played. */
  clear(playedBytes: number): void {
    this.#afterClear = { before: concat(this.#since), playedBytes, received: [], receivedBytes: 0 };
    this.#since = [];
    this.#sinceBytes = 0;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
