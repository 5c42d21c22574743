// One Piper voice loaded in onnxruntime-node: the session (created once, warmed once), the input contract check,
// and a run from ids to samples. Lives inside an ONNX worker thread; session.run blocks that thread, not the server.

import * as ort from 'onnxruntime-node';
import { openVoiceModelSession, type VoiceModelThreadOptions } from '../voice-model-session.js';
import type { PiperSidecar } from './piper-sidecar.js';

/** Threads one run may use; workers x this stays at or under the core count (see piper-engine.ts). */
export type PiperThreadOptions = VoiceModelThreadOptions;

export interface PiperRunOptions {
  readonly lengthScale: number;
  readonly speakerId: number;
}

const REQUIRED_INPUTS = ['input', 'input_lengths', 'scales'] as const;

export class PiperSession {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly sidecar: PiperSidecar,
    private readonly takesSpeaker: boolean,
  ) {}

  /** Creates the session and checks it has Piper's inputs and output; throws a message naming the model. */
  static async create(modelPath: string, sidecar: PiperSidecar, threads: PiperThreadOptions): Promise<PiperSession> {
    const session = await openVoiceModelSession(modelPath, threads, 'Piper voice', (created) => {
      const missing = REQUIRED_INPUTS.filter((name) => !created.inputNames.includes(name));
      if (missing.length > 0) return `model inputs lack ${missing.join(', ')} (has ${created.inputNames.join(', ')})`;
      if (!created.outputNames.includes('output')) return `model has no 'output' (has ${created.outputNames.join(', ')})`;
      if (sidecar.num_speakers > 1 && !created.inputNames.includes('sid')) return `sidecar says ${sidecar.num_speakers} speakers but the model has no 'sid' input`;
      return undefined;
    });
    const takesSpeaker = session.inputNames.includes('sid');
    return new PiperSession(session, sidecar, takesSpeaker);
  }

  /** One sentence of ids to mono samples in [-1, 1] at the voice's rate. */
  async run(ids: readonly number[], options: PiperRunOptions): Promise<Float32Array> {
    const { inference } = this.sidecar;
    const feeds: Record<string, ort.Tensor> = {
      input: new ort.Tensor('int64', BigInt64Array.from(ids, (id) => BigInt(id)), [1, ids.length]),
      input_lengths: new ort.Tensor('int64', BigInt64Array.of(BigInt(ids.length)), [1]),
      scales: new ort.Tensor('float32', Float32Array.of(inference.noise_scale, options.lengthScale, inference.noise_w), [3]),
    };
    if (this.takesSpeaker) feeds.sid = new ort.Tensor('int64', BigInt64Array.of(BigInt(options.speakerId)), [1]);
    const results = await this.session.run(feeds);
    const output = results.output;
    if (output === undefined || output.type !== 'float32') throw new Error('model returned no float32 output');
    const samples = output.data as Float32Array;
    return samples;
  }

  release(): Promise<void> {
    return this.session.release();
  }
}
