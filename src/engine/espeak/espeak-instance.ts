// One eSpeak NG instance (the build as espeak-build.ts loads it) and its worker, shared setup of the embedded synth
// and the Piper and Kokoro phonemizers, with the loaded voice cached. eSpeak keeps global state: one instance per
// worker thread, never shared across threads.

import type { ESpeakNGModule, ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { createEspeakModule } from './espeak-build.js';

export class EspeakInstance {
  #voice = '';

  private constructor(
    readonly module: ESpeakNGModule,
    readonly worker: ESpeakNGWorker,
  ) {}

  static async create(): Promise<EspeakInstance> {
    const module = await createEspeakModule();
    return new EspeakInstance(module, new module.eSpeakNGWorker());
  }

  /** The loaded voice (`lang` or `lang+variant`); '' when none or after a failed load. */
  get voice(): string {
    return this.#voice;
  }

  /**
   * Loads `voice` unless it is already loaded: set_voice reloads the language dictionary, the costly part of a job.
   * Returns true when it loaded (rate and range are then back to the voice's defaults). `name` is what an error shows.
   */
  useVoice(voice: string, name = voice): boolean {
    if (voice === this.#voice) return false;
    const code = this.worker.set_voice(voice);
    if (code !== 0) {
      this.#voice = '';
      throw new Error(`eSpeak has no voice '${name}' (code ${code})`);
    }
    this.#voice = voice;
    return true;
  }

  /** Makes the next useVoice load again (the loaded voice's variant file is gone). */
  forgetVoice(): void {
    this.#voice = '';
  }
}
