// The caller's side of the line: audio clips placed at chosen moments on the call, cut into the 20 ms mu-law frames
// Twilio sends (silence, 0xFF, everywhere else), plus converters from WAV files and float samples to 8 kHz mu-law.

import { concatFloat32 } from '../audio/bytes.js';
import { MULAW_BYTES_PER_MS, MULAW_SILENCE, mulawToPcm16, PHONE_FRAME_BYTES, pcm16ToMulaw } from '../audio/mulaw.js';
import { floatToPcm16, pcm16ToFloat } from '../audio/pcm.js';
import { Resampler } from '../audio/resampler.js';
import { parseWav } from '../audio/wav.js';

/** A sample louder than this (-40 dBFS) marks where speech begins in a clip, for the timeline. */
const ONSET_LEVEL = 0.01;

export interface CallerClip {
  /** When the clip starts, in ms since the stream started. */
  readonly atMs: number;
  /** 8 kHz mu-law. */
  readonly mulaw: Uint8Array;
  readonly label: string;
}

/** Resamples mono float samples to 8 kHz and encodes them as mu-law. */
export function samplesToMulaw(samples: Float32Array, sampleRateHz: number): Uint8Array {
  const resampler = new Resampler(sampleRateHz, 8000);
  return pcm16ToMulaw(floatToPcm16(concatFloat32([resampler.process(samples), resampler.flush()])));
}

/** A 16-bit PCM WAV file (any rate; channels are averaged) as 8 kHz mu-law. */
export function wavToMulaw(bytes: Uint8Array): Uint8Array {
  const wav = parseWav(bytes);
  const frames = Math.floor(wav.samples.length / wav.channels);
  const mono = new Float32Array(frames);
  const all = pcm16ToFloat(wav.samples);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < wav.channels; c++) sum += all[i * wav.channels + c]!;
    mono[i] = sum / wav.channels;
  }
  return samplesToMulaw(mono, wav.sampleRateHz);
}

/** Offset in ms of the first audible sample of a mu-law clip, or undefined when it is silent throughout. */
export function onsetOffsetMs(mulaw: Uint8Array): number | undefined {
  const pcm = mulawToPcm16(mulaw);
  const level = ONSET_LEVEL * 32768;
  for (let i = 0; i < pcm.length; i++) if (Math.abs(pcm[i]!) >= level) return i / MULAW_BYTES_PER_MS;
  return undefined;
}

/** The inbound track: frame n covers [n*20, n*20+20) ms; clips overlay silence (a later clip wins where they overlap). */
export class CallerTrack {
  private readonly clips: readonly CallerClip[];

  constructor(clips: readonly CallerClip[] = []) {
    this.clips = [...clips].sort((a, b) => a.atMs - b.atMs);
  }

  frame(index: number): Uint8Array {
    const out = new Uint8Array(PHONE_FRAME_BYTES).fill(MULAW_SILENCE);
    const frameStart = index * PHONE_FRAME_BYTES;
    for (const clip of this.clips) {
      const clipStart = Math.round(clip.atMs * MULAW_BYTES_PER_MS);
      const from = Math.max(frameStart, clipStart);
      const to = Math.min(frameStart + PHONE_FRAME_BYTES, clipStart + clip.mulaw.length);
      if (from < to) out.set(clip.mulaw.subarray(from - clipStart, to - clipStart), from - frameStart);
    }
    return out;
  }

  /** Where each clip's speech begins, in ms since the stream started (the real onset a barge-in is measured from). */
  onsets(): { readonly atMs: number; readonly label: string }[] {
    return this.clips.flatMap((clip) => {
      const offset = onsetOffsetMs(clip.mulaw);
      return offset === undefined ? [] : [{ atMs: clip.atMs + offset, label: clip.label }];
    });
  }

  /** When the last clip ends, in ms. */
  endMs(): number {
    return Math.max(0, ...this.clips.map((clip) => clip.atMs + clip.mulaw.length / MULAW_BYTES_PER_MS));
  }
}
