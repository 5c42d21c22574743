// What the caller hears, played out virtually at real time the way Twilio does it: outbound audio queues behind what
// is already buffered, a mark is echoed once the audio sent before it has played (at once if nothing is buffered),
// `clear` drops the buffered audio and returns every pending mark at once. Pure: callers pass the current time.

import { MULAW_BYTES_PER_MS as BYTES_PER_MS, MULAW_SILENCE } from '../audio/mulaw.js';

interface Segment {
  readonly startMs: number;
  bytes: Uint8Array;
}

export interface PlayoutStats {
  /** Audio received from the server, in ms. */
  readonly receivedMs: number;
  /** Audio thrown away by `clear` before it played, in ms. */
  readonly clearedMs: number;
  /** Times the buffer ran dry mid-clause (no mark at the dry point) and audio then came late. */
  readonly underruns: number;
  /** Largest lateness of such a frame, in ms. */
  readonly maxLateMs: number;
}

export class PlayoutBuffer {
  /** When the queued audio finishes playing; -Infinity before any audio. */
  private endMs = Number.NEGATIVE_INFINITY;
  /** The queue ends with audio (not a mark): running dry there is a gap inside a clause. */
  private endsMidClause = false;
  private readonly pending: { name: string; dueMs: number }[] = [];
  private readonly segments: Segment[] = [];
  private receivedBytes = 0;
  private clearedBytes = 0;
  private underrunCount = 0;
  private maxLate = 0;

  /** @param underrunToleranceMs lateness forgiven before a frame counts as an underrun (a jitter buffer's depth). */
  constructor(private readonly underrunToleranceMs = 0) {}

  /** Queues one media payload received at `nowMs`; returns how late it was against its play time (0 if on time). */
  media(bytes: Uint8Array, nowMs: number): number {
    if (bytes.length === 0) return 0;
    let startMs = this.endMs;
    let lateMs = 0;
    if (startMs < nowMs) {
      lateMs = Number.isFinite(startMs) ? nowMs - startMs : 0;
      if (this.endsMidClause && lateMs > this.underrunToleranceMs) {
        this.underrunCount++;
        this.maxLate = Math.max(this.maxLate, lateMs);
      } else {
        lateMs = 0;
      }
      startMs = nowMs;
    }
    this.segments.push({ startMs, bytes: bytes.slice() });
    this.endMs = startMs + bytes.length / BYTES_PER_MS;
    this.endsMidClause = true;
    this.receivedBytes += bytes.length;
    return lateMs;
  }

  /** Queues a mark; returns true when it is due at once (nothing buffered), as Twilio echoes it immediately then. */
  mark(name: string, nowMs: number): boolean {
    this.endsMidClause = false;
    if (this.endMs <= nowMs) return true;
    this.pending.push({ name, dueMs: this.endMs });
    return false;
  }

  /** Marks whose audio has finished playing by `nowMs`, in the order they were sent. */
  dueMarks(nowMs: number): string[] {
    const due: string[] = [];
    while (this.pending.length > 0 && this.pending[0]!.dueMs <= nowMs) due.push(this.pending.shift()!.name);
    return due;
  }

  /** Drops what has not played yet and returns every pending mark (Twilio echoes them all after a clear). */
  clear(nowMs: number): string[] {
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const segment = this.segments[i]!;
      const playedBytes = Math.max(0, Math.floor((nowMs - segment.startMs) * BYTES_PER_MS));
      if (playedBytes >= segment.bytes.length) break;
      this.clearedBytes += segment.bytes.length - playedBytes;
      if (playedBytes === 0) this.segments.splice(i, 1);
      else segment.bytes = segment.bytes.subarray(0, playedBytes);
    }
    this.endMs = Math.min(this.endMs, nowMs);
    this.endsMidClause = false;
    return this.pending.splice(0).map((mark) => mark.name);
  }

  /** Audio still to play at `nowMs`, in ms. */
  bufferedMs(nowMs: number): number {
    return Math.max(0, this.endMs - nowMs);
  }

  /** When the next pending mark falls due, or undefined when none is pending. */
  nextMarkDueMs(): number | undefined {
    return this.pending[0]?.dueMs;
  }

  get pendingMarks(): number {
    return this.pending.length;
  }

  get stats(): PlayoutStats {
    return {
      receivedMs: this.receivedBytes / BYTES_PER_MS,
      clearedMs: this.clearedBytes / BYTES_PER_MS,
      underruns: this.underrunCount,
      maxLateMs: this.maxLate,
    };
  }

  /** The audio played or still queued, in order, gaps left out: what a listener hears of the server's stream. */
  played(): Uint8Array {
    const out = new Uint8Array(this.segments.reduce((sum, segment) => sum + segment.bytes.length, 0));
    let at = 0;
    for (const segment of this.segments) {
      out.set(segment.bytes, at);
      at += segment.bytes.length;
    }
    return out;
  }

  /** The caller's ear over [fromMs, toMs) as mu-law (silence where nothing played); cheap for a recent stretch. */
  heardBetween(fromMs: number, toMs: number): Uint8Array {
    const from = Math.round(fromMs * BYTES_PER_MS);
    const out = new Uint8Array(Math.max(0, Math.round(toMs * BYTES_PER_MS) - from)).fill(MULAW_SILENCE);
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const segment = this.segments[i]!;
      const at = Math.round(segment.startMs * BYTES_PER_MS);
      if (at + segment.bytes.length <= from) break;
      const start = Math.max(at, from);
      const end = Math.min(at + segment.bytes.length, from + out.length);
      if (end > start) out.set(segment.bytes.subarray(start - at, end - at), start - from);
    }
    return out;
  }

  /** The caller's ear from time 0 to `untilMs` as mu-law (silence 0xFF where nothing played); cleared audio excluded. */
  heard(untilMs: number): Uint8Array {
    const total = Math.max(0, Math.round(untilMs * BYTES_PER_MS));
    const out = new Uint8Array(total).fill(MULAW_SILENCE);
    for (const segment of this.segments) {
      const at = Math.round(segment.startMs * BYTES_PER_MS);
      if (at >= total) break;
      out.set(segment.bytes.subarray(0, Math.max(0, total - at)), Math.max(0, at));
    }
    return out;
  }
}
