// The project's own eSpeak NG build (src/engine/espeak/wasm/: 1.52.0 compiled to WebAssembly) against the npm build it
// replaced (@echogarden/espeak-ng-emscripten 0.3.5, wasm2js, kept as a dev dependency for this check): driven by the
// same calls, both speak the same samples byte for byte, raise the same word events and give the same phoneme
// strings. eSpeak seeds its random numbers (breath noise) from the clock when it initialises, so the clock is frozen
// while each instance is made; a control with another clock shows the seed matters. The same check shows that a
// `breath` line with all amounts 0 changes no sample.

import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ESpeakNGModule, ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { createEspeakModule } from '../../../src/engine/espeak/espeak-build.js';
import { EspeakInstance } from '../../../src/engine/espeak/espeak-instance.js';
import { toEspeakInput } from '../../../src/engine/espeak/espeak-text.js';
import { ESPEAK_VARIANT_DIR, variantFileText } from '../../../src/engine/espeak/espeak-variant.js';
import { PHONEME_CASES, SAMPLE_CASES, type SampleCase } from './espeak-sample-cases.js';
import { LONG_HINDI, SENTENCES } from './sentences.js';

const CLOCK_MS = 1_764_000_000_000;

/** Runs `make` with Date.now and performance.now frozen, so eSpeak's random seed is the same every time. */
async function withFixedClock<T>(make: () => Promise<T>, clockMs = CLOCK_MS): Promise<T> {
  vi.spyOn(Date, 'now').mockReturnValue(clockMs);
  vi.spyOn(performance, 'now').mockReturnValue(1000);
  try {
    return await make();
  } finally {
    vi.restoreAllMocks();
  }
}

interface Clip {
  readonly samples: Int16Array;
  readonly words: ReadonlyArray<readonly [textPosition: number, length: number, audioMs: number]>;
}

/** A clip's rate and range as EspeakSynth computes them. */
function settings(clip: SampleCase): { rate: number; range: number } {
  return {
    rate: Math.round(Math.min(450, Math.max(80, clip.voice.wordsPerMinute * clip.speed))),
    range: Math.round(Math.min(100, Math.max(0, clip.voice.intonationRange))),
  };
}

const variantName = (clip: SampleCase) => `case_${clip.voiceName}_${clip.pitchShiftSemitones}`;

/** The npm build driven as the engine drove it: variant file, voice loaded when it changes, rate and range, synthesis. */
class NpmDriver {
  #voice = '';
  private constructor(
    readonly module: ESpeakNGModule,
    readonly worker: ESpeakNGWorker,
  ) {}

  static async create(): Promise<NpmDriver> {
    const init = ((await import('@echogarden/espeak-ng-emscripten')) as { default: () => Promise<ESpeakNGModule> }).default;
    const module = await init();
    return new NpmDriver(module, new module.eSpeakNGWorker());
  }

  useVoice(voice: string): void {
    if (voice === this.#voice) return;
    expect(this.worker.set_voice(voice)).toBe(0);
    this.#voice = voice;
  }

  speak(clip: SampleCase): Clip {
    this.module.FS.writeFile(ESPEAK_VARIANT_DIR + variantName(clip), variantFileText(variantName(clip), clip.voice, clip.pitchShiftSemitones));
    this.useVoice(`${clip.espeakLanguage}+${variantName(clip)}`);
    const { rate, range } = settings(clip);
    this.worker.set_rate(rate);
    this.worker.set_range(range);
    const chunks: Int16Array[] = [];
    const words: Array<[number, number, number]> = [];
    // The callback must return nothing: eSpeak reads a non-zero return as "stop".
    this.worker.synthesize(toEspeakInput(clip.text).text, (samples, events) => {
      chunks.push(samples);
      for (const event of events as Array<{ type: string; text_position: number; word_length: number; audio_position: number }>) {
        if (event.type === 'word') words.push([event.text_position, event.word_length, event.audio_position]);
      }
    });
    const samples = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      samples.set(chunk, offset);
      offset += chunk.length;
    }
    return { samples, words };
  }

  phonemes(espeakVoice: string, text: string): { raw: string; trace: string } {
    this.useVoice(espeakVoice);
    const { ptr } = this.worker.convert_to_phonemes(text, true);
    const heap = this.module.HEAPU8;
    const raw = new TextDecoder().decode(heap.subarray(ptr, heap.indexOf(0, ptr)));
    const { code, ipa } = this.worker.synthesize_ipa(text);
    expect(code).toBe(0);
    return { raw, trace: ipa };
  }
}

/** The project's build through EspeakInstance, the calls EspeakSynth and EspeakPhonemizer make. */
class OwnDriver {
  private constructor(readonly espeak: EspeakInstance) {}

  static async create(): Promise<OwnDriver> {
    return new OwnDriver(await EspeakInstance.create());
  }

  speak(clip: SampleCase): Clip {
    this.espeak.fs.writeFile(ESPEAK_VARIANT_DIR + variantName(clip), variantFileText(variantName(clip), clip.voice, clip.pitchShiftSemitones));
    this.espeak.useVoice(`${clip.espeakLanguage}+${variantName(clip)}`);
    const { rate, range } = settings(clip);
    this.espeak.setRate(rate);
    this.espeak.setRange(range);
    const speech = this.espeak.synthesize(toEspeakInput(clip.text).text);
    expect(speech.status).toBe(0);
    const words = speech.events.filter((event) => event.type === 'word').map((event) => [event.textPosition, event.length, event.audioMs] as const);
    return { samples: speech.samples, words };
  }

  phonemes(espeakVoice: string, text: string): { raw: string; trace: string } {
    this.espeak.useVoice(espeakVoice);
    const { code, ipa } = this.espeak.synthesisPhonemes(text);
    expect(code).toBe(0);
    return { raw: this.espeak.textToPhonemes(text, true), trace: ipa };
  }
}

const digest = (samples: Int16Array) => createHash('sha256').update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)).digest('hex');

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the project's eSpeak NG build against the npm build it replaced", () => {
  it(`speaks the same samples and word events in all ${SAMPLE_CASES.length} clips (8 languages, 4 voices, 2 speeds)`, async () => {
    const npm = await withFixedClock(() => NpmDriver.create());
    const own = await withFixedClock(() => OwnDriver.create());
    const differing: string[] = [];
    for (const clip of SAMPLE_CASES) {
      const theirs = npm.speak(clip);
      const ours = own.speak(clip);
      expect(theirs.samples.length, clip.name).toBeGreaterThan(4000);
      if (digest(ours.samples) !== digest(theirs.samples)) differing.push(`${clip.name}: samples`);
      if (JSON.stringify(ours.words) !== JSON.stringify(theirs.words)) differing.push(`${clip.name}: words`);
    }
    expect(differing).toEqual([]);
  });

  it('speaks a clause long enough to grow its memory, and reads it from the grown heap', async () => {
    const clip = { ...SAMPLE_CASES.find((candidate) => candidate.language === 'hi-IN')!, text: Array.from({ length: 12 }, () => LONG_HINDI).join(' ') };
    const npm = await withFixedClock(() => NpmDriver.create());
    const own = await withFixedClock(() => OwnDriver.create());
    const before = own.espeak.glue.memoryBytes;
    const theirs = npm.speak(clip);
    const ours = own.speak(clip);
    expect(own.espeak.glue.memoryBytes).toBeGreaterThan(before);
    expect(ours.samples.length).toBeGreaterThan(22050 * 60);
    expect(digest(ours.samples)).toBe(digest(theirs.samples));
    expect(ours.words).toEqual(theirs.words);
  });

  it('differs with another clock, so the frozen clock (the seed) is what makes them equal', async () => {
    const clip = SAMPLE_CASES.find((candidate) => candidate.voiceName === 'imran')!;
    expect(clip.voice.breath).toBeGreaterThan(0);
    const npm = await withFixedClock(() => NpmDriver.create());
    const own = await withFixedClock(() => OwnDriver.create(), CLOCK_MS + 7_000);
    const theirs = npm.speak(clip);
    const ours = own.speak(clip);
    expect(ours.samples.length).toBe(theirs.samples.length);
    expect(digest(ours.samples)).not.toBe(digest(theirs.samples));
  });

  it(`gives the same phoneme strings, text_to_phonemes and the synthesis trace (${PHONEME_CASES.length} texts)`, async () => {
    const npm = await NpmDriver.create();
    const own = await OwnDriver.create();
    for (const { espeakVoice, text } of PHONEME_CASES) {
      const theirs = npm.phonemes(espeakVoice, text);
      const ours = own.phonemes(espeakVoice, text);
      expect(ours.raw.length, text).toBeGreaterThan(5);
      expect(ours, `${espeakVoice}: ${text}`).toEqual(theirs);
    }
  });
});

describe('the breath line', () => {
  it('speaks the same samples with a breath line of zeros as with none', async () => {
    const quiet = { ...SAMPLE_CASES[0]!.voice, breath: 0 };
    const withoutLine = variantFileText('test_voice', quiet, 0);
    expect(withoutLine).not.toContain('breath');
    const withZeros = withoutLine.replace('roughness', 'breath 0 0 0 0 0 0 0 0\nroughness');
    const speak = async (variant: string) => {
      const glue = await createEspeakModule();
      glue.fs.writeFile(`${ESPEAK_VARIANT_DIR}test_voice`, variant);
      expect(glue.setVoice('hi+test_voice')).toBe(0);
      return [SENTENCES['hi-IN'], SENTENCES['en-IN']].map((text) => {
        glue.setSeed(42);
        return digest(glue.synthesize(text, 1).samples);
      });
    };
    const none = await speak(withoutLine);
    expect(await speak(withZeros)).toEqual(none);
  });
});
