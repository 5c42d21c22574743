// Turns the voice bank's pack list into an engine: reads each pack's sidecar, drops (and reports) packs that cannot
// load, and puts an OnnxEngine in front of the embedded engine. With no usable pack, the embedded engine alone.

import { statSync } from 'node:fs';
import type { LanguageCode } from '../../languages.js';
import { RoutingEngine } from '../routing-engine.js';
import type { TtsEngine } from '../tts-engine.js';
import type { WorkerPoolEvent } from '../worker-pool.js';
import { OnnxEngine, type OnnxModel, type OnnxRoute } from './onnx-engine.js';
import { loadPiperSidecar, resolveSpeakerId, sidecarPathFor } from './piper-sidecar.js';

export interface VoicePackRequest {
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** Absolute path of the pack's `.onnx`; its sidecar is `<path>.json`. */
  readonly modelPath: string;
  readonly speakerId: number;
  /** The model's sha256 as the manifest recorded it at install (raaga voices add), if it did. */
  readonly sha256?: string | undefined;
}

export type VoicePackEvent =
  | { readonly type: 'pack-failed'; readonly voiceName: string; readonly language: LanguageCode; readonly modelPath: string; readonly reason: string }
  | { readonly type: 'unknown-phonemes'; readonly modelPath: string; readonly count: number; readonly symbols: readonly string[] }
  | WorkerPoolEvent;

export interface VoicePackEngineOptions {
  readonly packs: readonly VoicePackRequest[];
  readonly workers: number;
  readonly intraOpNumThreads: number;
  readonly maxQueue: number;
  readonly startTimeoutMs?: number;
  /** The workers' nice value (TTS_WORKER_NICE). */
  readonly niceness?: number;
  readonly onEvent?: (event: VoicePackEvent) => void;
}

/** Reads every pack's sidecar; a pack with a missing model, a bad sidecar or a speaker it lacks is a failure. */
function loadVoicePacks(packs: readonly VoicePackRequest[]): {
  models: OnnxModel[];
  routes: OnnxRoute[];
  failures: { request: VoicePackRequest; reason: string }[];
} {
  const models = new Map<string, OnnxModel>();
  const routes: OnnxRoute[] = [];
  const failures: { request: VoicePackRequest; reason: string }[] = [];
  for (const request of packs) {
    try {
      const stat = statSync(request.modelPath, { throwIfNoEntry: false });
      if (!stat?.isFile()) throw new Error(`model file ${request.modelPath} does not exist`);
      const model = models.get(request.modelPath) ?? { modelPath: request.modelPath, sidecar: loadPiperSidecar(sidecarPathFor(request.modelPath)) };
      resolveSpeakerId(model.sidecar, request.speakerId);
      models.set(request.modelPath, model);
      const modelIdentity = request.sha256 !== undefined ? `sha256:${request.sha256}` : `size:${stat.size},mtime:${Math.round(stat.mtimeMs)}`;
      routes.push({ voiceName: request.voiceName, language: request.language, modelPath: request.modelPath, speakerId: request.speakerId, modelIdentity });
    } catch (error) {
      failures.push({ request, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { models: [...models.values()], routes, failures };
}

/** The fallback engine with the packs that can load in front of it; `fallback` itself when there are none. */
export function withVoicePacks(fallback: TtsEngine, options: VoicePackEngineOptions): TtsEngine {
  const emit = options.onEvent ?? (() => undefined);
  const { models, routes, failures } = loadVoicePacks(options.packs);
  for (const { request, reason } of failures) emit({ type: 'pack-failed', ...request, reason });
  if (models.length === 0) return fallback;
  const failRoutes = (modelPath: string | undefined, reason: string): void => {
    for (const route of routes) {
      if (modelPath === undefined || route.modelPath === modelPath) {
        emit({ type: 'pack-failed', voiceName: route.voiceName, language: route.language, modelPath: route.modelPath, reason });
      }
    }
  };
  const neural = new OnnxEngine({
    models,
    routes,
    workers: options.workers,
    intraOpNumThreads: options.intraOpNumThreads,
    maxQueue: options.maxQueue,
    ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
    ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    onEvent: (event) => {
      if (event.type === 'voice-failed') failRoutes(event.modelPath, event.error);
      else emit(event);
    },
  });
  return new RoutingEngine(neural, fallback, (error) => failRoutes(undefined, `no ONNX worker could start: ${error instanceof Error ? error.message : String(error)}`));
}
