// Sends each clause to the neural voice pack installed for its voice + language, else to the embedded engine.
// The neural side never stops the server: if it cannot start, every pair falls back and the failure is reported.

import type { LanguageCode } from '../languages.js';
import type { PcmClip, SynthesisJob, TtsEngine } from './tts-engine.js';

/** A TtsEngine that serves only some voice + language pairs. */
export interface PairEngine extends TtsEngine {
  serves(voiceName: string, language: string): boolean;
}

export class RoutingEngine implements TtsEngine {
  readonly name: string;
  private started = false;

  constructor(
    private readonly neural: PairEngine,
    private readonly fallback: TtsEngine,
    private readonly onNeuralStartFailed: (error: unknown) => void = () => undefined,
  ) {
    this.name = `${neural.name}+${fallback.name}`;
  }

  /** Both engines warmed (the neural one may have failed, which is reported, not thrown). */
  async start(): Promise<void> {
    const neural = this.neural.start().catch(async (error: unknown) => {
      this.onNeuralStartFailed(error);
      await this.neural.close(); // stop the pool retrying workers that cannot start
    });
    await Promise.all([this.fallback.start(), neural]);
    this.started = true;
  }

  isReady(): boolean {
    return this.started && this.fallback.isReady();
  }

  synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    return this.neural.serves(job.voiceName, job.language) ? this.neural.synthesize(job, signal) : this.fallback.synthesize(job, signal);
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    return this.neural.serves(voiceName, language) ? this.neural.audioSource(voiceName, language) : this.fallback.audioSource(voiceName, language);
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    const a = this.neural.load();
    const b = this.fallback.load();
    return { queued: a.queued + b.queued, running: a.running + b.running, workers: a.workers + b.workers };
  }

  async close(): Promise<void> {
    await Promise.all([this.neural.close(), this.fallback.close()]);
  }
}
