// How a session cuts encoded audio into WebSocket frames and how much audio a frame carries.
// 40 ms frames: small enough that a cancel leaves little stale audio in flight, large enough that a
// 24 kHz PCM stream is 25 frames per second, not hundreds. MP3 bytes do not map linearly to time, so
// MP3 goes out in fixed 2048-byte frames (a few MPEG frames). Opus goes out one Ogg page per frame (at most
// 500 ms of audio), never part of one, so each frame can be fed to a streaming Ogg demuxer as it arrives.

import { bytesPerSampleOf, chunkBytes, framedByOggPage, frameBytesFor } from '../audio/framing.js';
import { splitOggPages } from '../audio/ogg-page.js';
import type { SessionAudioFormat } from './session-messages.js';

export const FRAME_MS = 40;

export interface FramePlan {
  readonly frameBytes: number;
  readonly bytesPerSample: number;
  /** True for opus: a frame is one whole Ogg page (`frameBytes` is then unused). */
  readonly oggPages?: boolean;
}

/** `frameMs`: 40 on /v1/tts/websocket; phone calls use 20 (Twilio's own cadence, 160 bytes of 8 kHz mu-law). */
export function framePlanFor(format: SessionAudioFormat, sampleRateHz: number, frameMs = FRAME_MS): FramePlan {
  const plan = { frameBytes: frameBytesFor(format, sampleRateHz, frameMs), bytesPerSample: bytesPerSampleOf(format) };
  return framedByOggPage(format) ? { ...plan, oggPages: true } : plan;
}

/**
 * Frames of one encoded piece (the audio of one text chunk) with the milliseconds each carries. The piece's
 * duration is shared out in proportion to bytes: exact for pcm, mulaw and alaw, exact per piece for wav (whose
 * first piece also holds the 44-byte header), mp3 (whose encoder delays bytes a little) and opus (whose first piece
 * also holds the two header pages).
 */
export function framesOf(piece: Uint8Array, pieceMs: number, plan: FramePlan): { bytes: Uint8Array; ms: number }[] {
  if (piece.length === 0) return [];
  const frames = plan.oggPages === true ? splitOggPages(piece) : chunkBytes(piece, plan.frameBytes, plan.bytesPerSample);
  return frames.map((bytes) => ({ bytes, ms: (pieceMs * bytes.length) / piece.length }));
}

/** Seconds as the spec's `duration_seconds`: six decimals, like the HTTP endpoints. */
export function toSeconds(ms: number): number {
  return Number((Math.max(0, ms) / 1000).toFixed(6));
}
