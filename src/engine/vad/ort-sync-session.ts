// A synchronous onnxruntime-node session for tiny models run on the event-loop thread (Silero VAD).
// Why not the public `InferenceSession.run`: it runs the same native call on this same thread, only deferred by a
// setImmediate and wrapped in a Promise; a per-window answer inside a synchronous `pushMulaw` needs the call itself.
// `onnxruntime-node/dist/binding.js` is documented there as "a simple synchronized inference session object wrap";
// the package version is pinned in package.json, and `load` checks the wrap's shape so an upgrade fails loudly here.

import { createRequire } from 'node:module';
import type { InferenceSession, Tensor } from 'onnxruntime-node';

interface NativeValueMetadata {
  readonly name: string;
}

interface NativeSession {
  loadModel(modelPath: string, options: InferenceSession.SessionOptions): void;
  readonly inputMetadata: readonly NativeValueMetadata[];
  readonly outputMetadata: readonly NativeValueMetadata[];
  run(feeds: Record<string, Tensor>, fetches: Record<string, null>, options: InferenceSession.RunOptions): Record<string, Tensor>;
  dispose(): void;
}

interface NativeBindingModule {
  readonly binding: { readonly InferenceSession: new () => NativeSession };
  readonly initOrt: () => void;
}

function loadBinding(): NativeBindingModule {
  const require = createRequire(import.meta.url);
  const module = require('onnxruntime-node/dist/binding.js') as Partial<NativeBindingModule>;
  if (typeof module.initOrt !== 'function' || typeof module.binding?.InferenceSession !== 'function') {
    throw new Error('onnxruntime-node no longer exposes its synchronous session wrap (dist/binding.js); check the pinned version');
  }
  return module as NativeBindingModule;
}

export class OrtSyncSession {
  private readonly fetches: Record<string, null>;

  private constructor(
    private readonly native: NativeSession,
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
  ) {
    this.fetches = Object.fromEntries(outputNames.map((name) => [name, null]));
  }

  static load(modelPath: string, options: InferenceSession.SessionOptions): OrtSyncSession {
    const { binding, initOrt } = loadBinding();
    initOrt();
    const native = new binding.InferenceSession();
    native.loadModel(modelPath, options);
    return new OrtSyncSession(
      native,
      native.inputMetadata.map((m) => m.name),
      native.outputMetadata.map((m) => m.name),
    );
  }

  /** Runs the model now, on this thread; returns every output. */
  run(feeds: Record<string, Tensor>): Record<string, Tensor> {
    return this.native.run(feeds, this.fetches, {});
  }

  dispose(): void {
    this.native.dispose();
  }
}
