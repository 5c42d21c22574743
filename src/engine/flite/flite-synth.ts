// One clause through flite in the calling (worker) thread, with a voice kept loaded in the thread's FliteVoiceBank:
// speed as duration_stretch, pitch as the F0 target (or by resampling for voices whose SPAM F0 model ignores it),
// the samples and, on request, word boundaries read from the utterance, all from one call into the instance.

import { shiftPitch, pitchRatio } from '../../audio/pitch-shift.js';
import { pcm16Sample } from '../../audio/pcm.js';
import type { LanguageCode } from '../../languages.js';
import type { WordBoundary } from '../tts-engine.js';
import type { FliteVoiceBank } from './flite-voice-bank.js';
import { FliteVoiceError } from './flite-voice-error.js';
import { wordBoundaries } from './flite-words.js';
import type { FlitevoxHeader } from './flitevox-header.js';

export interface FliteSynthRequest {
  /** The .flitevox (a pack's file). */
  readonly voicePath: string;
  /** When set, the voice must speak it. */
  readonly language?: LanguageCode | undefined;
  /** One clause, already normalised by the text front end. */
  readonly text: string;
  /** Tempo multiplier (1 = the voice's own pace); flite gets duration_stretch = 1 / speed. */
  readonly speed: number;
  /** Pitch shift in semitones (rounded to 0.1, clamped to ±12 as for neural packs); 0 for none. */
  readonly pitchShiftSemitones: number;
  /** Also say where each word after the first starts. */
  readonly wordTimings: boolean;
}

export interface FliteClip {
  /** Mono samples in [-1, 1] at `sampleRateHz`, untrimmed. */
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  /** Undefined when not asked for, or when the utterance's tokens do not lay over the text (flite-words.ts). */
  readonly words: readonly WordBoundary[] | undefined;
  /** How the pitch shift was made: none, flite's F0 target, or resampling (which moves formants too). */
  readonly pitchMethod: 'none' | 'f0-target' | 'resample';
}

/** The features flite sets per clause; any the clause leaves unset go back to the voice's own values. */
const CLAUSE_FEATURES = ['duration_stretch', 'int_f0_target_mean', 'int_f0_target_stddev'] as const;
// A NUL would end the C string early; other control characters only confuse flite's tokenizer. One for one, so
// code-point offsets into this text are offsets into the job's.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/gu;

/** What `--setf` gave the per-clause build: four decimals, so the floats flite gets are the same. */
function decimal(value: number): number {
  return Number(value.toFixed(4));
}

function clauseFeatures(header: FlitevoxHeader, speed: number, pitchMethod: FliteClip['pitchMethod'], ratio: number): Record<string, number> {
  const { features } = header;
  // A voice may declare its own pace and F0 target; the job's speed and pitch act relative to them.
  const voiceStretch = Number(features.duration_stretch ?? 1) || 1;
  const set: Record<string, number> = { duration_stretch: decimal((voiceStretch / speed) * (pitchMethod === 'resample' ? ratio : 1)) };
  if (pitchMethod === 'f0-target') {
    // Scaling mean and deviation together multiplies every F0 value by `ratio` (cst_cg.c, cg_smooth_F0).
    const meanHz = Number(features.int_f0_target_mean ?? header.f0MeanHz) || header.f0MeanHz;
    const stddevHz = Number(features.int_f0_target_stddev ?? header.f0StddevHz) || header.f0StddevHz;
    set.int_f0_target_mean = decimal(meanHz * ratio);
    set.int_f0_target_stddev = decimal(stddevHz * ratio);
  }
  return set;
}

/** Synthesizes one clause; throws FliteVoiceError for a voice Raaga or flite refuses, FliteInstanceFault on a fault. */
export function synthesizeFlite(bank: FliteVoiceBank, request: FliteSynthRequest): FliteClip {
  if (!(request.speed > 0 && Number.isFinite(request.speed))) throw new RangeError(`speed must be a positive number, got ${request.speed}`);
  const voice = bank.voice(request.voicePath, request.language);
  const text = request.text.replace(CONTROL, ' ');
  const ratio = pitchRatio(request.pitchShiftSemitones);
  const pitchMethod = ratio === 1 ? 'none' : voice.header.spamF0 ? 'resample' : 'f0-target';
  const set = clauseFeatures(voice.header, request.speed, pitchMethod, ratio);
  const spoken = bank.speak(voice, { set, reset: CLAUSE_FEATURES.filter((name) => set[name] === undefined) }, text);
  if (spoken.samples.length > 0 && spoken.sampleRateHz !== voice.sampleRateHz) {
    throw new FliteVoiceError(voice.path, `was not the voice that spoke: flite spoke at ${spoken.sampleRateHz} Hz, the voice declares ${voice.sampleRateHz} Hz`);
  }
  const pcm = new Float32Array(spoken.samples.length);
  for (let i = 0; i < pcm.length; i++) pcm[i] = pcm16Sample(spoken.samples[i] as number);
  // Resampling plays the `ratio` times longer clip `ratio` times faster: pitch up by `ratio`, duration and times back.
  const samples = pitchMethod === 'resample' ? shiftPitch(pcm, voice.sampleRateHz, ratio) : pcm;
  const timeScale = pitchMethod === 'resample' ? 1 / ratio : 1;
  const words = request.wordTimings ? wordBoundaries(text, spoken.tokens, timeScale, (samples.length * 1000) / voice.sampleRateHz) : undefined;
  return { samples, sampleRateHz: voice.sampleRateHz, words, pitchMethod };
}
