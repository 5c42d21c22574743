// One clause through flite in the calling (worker) thread: the checked voice, speed as duration_stretch, pitch as the
// F0 target (or by resampling for voices whose SPAM F0 model ignores it), the WAV decoded, and word boundaries on request.

import { shiftPitch, pitchRatio } from '../../audio/pitch-shift.js';
import type { WordBoundary } from '../tts-engine.js';
import { GUEST_OUT_WAV, FliteRunError, runFlite } from './flite-module.js';
import { parseSegmentEnds, type Segment } from './flite-phones.js';
import { TokenPhoneCache, tokenPhones } from './flite-token-phones.js';
import { assertVoiceLoaded, type FliteVoiceFile } from './flite-voice.js';
import { FliteVoiceError } from './flite-voice-error.js';
import { alignWords, textTokens } from './flite-words.js';

export interface FliteSynthRequest {
  readonly voice: FliteVoiceFile;
  /** One clause, already normalised by the text front end. */
  readonly text: string;
  /** Tempo multiplier (1 = the voice's own pace); flite gets duration_stretch = 1 / speed. */
  readonly speed: number;
  /** Pitch shift in semitones (rounded to 0.1, clamped to ±12 as for neural packs); 0 for none. */
  readonly pitchShiftSemitones: number;
  /** Also find where each word after the first starts (may cost one extra flite run, see flite-token-phones.ts). */
  readonly wordTimings: boolean;
}

export interface FliteClip {
  /** Mono samples in [-1, 1] at `sampleRateHz`, untrimmed. */
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  /** Undefined when not asked for, or when flite's output does not place the words reliably (flite-words.ts). */
  readonly words: readonly WordBoundary[] | undefined;
  /** How the pitch shift was made: none, flite's F0 target, or resampling (which moves formants too). */
  readonly pitchMethod: 'none' | 'f0-target' | 'resample';
  /** flite's own messages, for the caller's log. */
  readonly stderr: string;
}

const sharedCache = new TokenPhoneCache();
// A NUL would end flite's argument early; other control characters only confuse its tokenizer.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/gu;

function decimal(value: number): string {
  return value.toFixed(4).replace(/\.?0+$/, '');
}

/** Synthesizes one clause; throws FliteVoiceError for a voice flite refused, FliteRunError when flite fails. */
export function synthesizeFlite(request: FliteSynthRequest, cache: TokenPhoneCache = sharedCache): FliteClip {
  const { voice } = request;
  const { features } = voice.header;
  if (!(request.speed > 0 && Number.isFinite(request.speed))) throw new RangeError(`speed must be a positive number, got ${request.speed}`);
  const text = request.text.replace(CONTROL, ' ');
  const ratio = pitchRatio(request.pitchShiftSemitones);
  const pitchMethod = ratio === 1 ? 'none' : voice.header.spamF0 ? 'resample' : 'f0-target';
  // A voice may declare its own pace and F0 target; the job's speed and pitch act relative to them.
  const voiceStretch = Number(features.duration_stretch ?? 1) || 1;
  const stretch = (voiceStretch / request.speed) * (pitchMethod === 'resample' ? ratio : 1);
  const args = ['-voice', voice.guestPath, '--setf', `duration_stretch=${decimal(stretch)}`];
  if (pitchMethod === 'f0-target') {
    // Scaling mean and deviation together multiplies every F0 value by `ratio` (cst_cg.c, cg_smooth_F0).
    const meanHz = Number(features.int_f0_target_mean ?? voice.header.f0MeanHz) || voice.header.f0MeanHz;
    const stddevHz = Number(features.int_f0_target_stddev ?? voice.header.f0StddevHz) || voice.header.f0StddevHz;
    args.push('--setf', `int_f0_target_mean=${decimal(meanHz * ratio)}`, '--setf', `int_f0_target_stddev=${decimal(stddevHz * ratio)}`);
  }
  if (request.wordTimings) args.push('-psdur');
  args.push('-t', text, '-o', GUEST_OUT_WAV);

  const run = runFlite({ args, voiceDir: voice.dir, readWav: true });
  assertVoiceLoaded(voice, run.stderr);
  const wav = run.wav;
  if (wav === undefined) throw new FliteRunError('flite wrote no WAV', run.stderr);
  if (wav.sampleRateHz !== voice.header.sampleRateHz) {
    throw new FliteVoiceError(voice.path, `was not the voice that spoke: flite wrote ${wav.sampleRateHz} Hz, the voice declares ${voice.header.sampleRateHz} Hz`);
  }
  // Resampling plays the `ratio` times longer clip `ratio` times faster: pitch up by `ratio`, duration and times back.
  const samples = pitchMethod === 'resample' ? shiftPitch(wav.samples, wav.sampleRateHz, ratio) : wav.samples;
  const timeScale = pitchMethod === 'resample' ? 1 / ratio : 1;
  let words: WordBoundary[] | undefined;
  if (request.wordTimings) {
    const segments = parseSegmentEnds(run.stdout);
    words = segments === undefined ? undefined : wordBoundaries(voice, text, segments, cache, timeScale, (samples.length * 1000) / wav.sampleRateHz);
  }
  return { samples, sampleRateHz: wav.sampleRateHz, words, pitchMethod, stderr: run.stderr };
}

function wordBoundaries(
  voice: FliteVoiceFile,
  text: string,
  segments: readonly Segment[],
  cache: TokenPhoneCache,
  timeScale: number,
  clipMs: number,
): WordBoundary[] | undefined {
  const tokens = textTokens(text);
  if (tokens.length < 2) return [];
  const phones = tokenPhones(voice, tokens, cache);
  const words = phones === undefined ? undefined : alignWords(tokens, phones, segments);
  // flite's last segment can end a few ms after its last sample.
  return words?.map((word) => ({ textEnd: word.textEnd, atMs: Math.min(Math.round(clipMs), Math.round(word.atMs * timeScale)) }));
}
