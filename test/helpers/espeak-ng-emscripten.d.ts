// Types for the npm build of eSpeak NG that the project's own build replaced (@echogarden/espeak-ng-emscripten 0.3.5,
// wasm2js, GPL-3.0), kept as a dev dependency for one release: test/integration/engine/espeak-build.test.ts checks
// that both speak the same samples, and bench/espeak-build.ts compares their cost. Only the calls those two make.

declare module '@echogarden/espeak-ng-emscripten' {
  export interface ESpeakNGWorker {
    readonly samplerate: number;
    /** `lang` or `lang+variant`; returns 0 on success (an unknown variant is silently ignored). */
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): void;
    set_pitch(pitch: number): void;
    set_range(range: number): void;
    /** Synchronous; calls back with chunks of PCM16 at `samplerate` (copies, safe to keep). */
    synthesize(text: string, callback: (samples: Int16Array, events: unknown[]) => void): void;
    list_voices(): Array<{ name: string; identifier: string; languages: unknown[] }>;
    /**
     * Phonemes of every clause of `text` for the current voice: a pointer to a NUL-terminated UTF-8 string in the
     * module heap, clauses joined by ` | `, phonemes within a word joined by `_`. Does not synthesize audio.
     */
    convert_to_phonemes(text: string, useIpa: boolean): { readonly ptr: number };
    /**
     * Synthesizes `text` (audio discarded) with an IPA phoneme trace: one line per clause, phonemes joined by `_`.
     * Unlike convert_to_phonemes it runs the intonation pass, so stress promoted there shows. `code` 0 on success.
     */
    synthesize_ipa(text: string): { readonly code: number; readonly ipa: string };
  }

  export interface ESpeakNGModule {
    eSpeakNGWorker: new () => ESpeakNGWorker;
    /** The WASM heap; replaced when memory grows, so read it after each call. */
    readonly HEAPU8: Uint8Array;
    FS: {
      writeFile(path: string, data: string): void;
      readFile(path: string, options: { encoding: 'utf8' }): string;
      unlink(path: string): void;
    };
  }

  const init: (moduleArg?: object) => Promise<ESpeakNGModule>;
  export default init;
}
