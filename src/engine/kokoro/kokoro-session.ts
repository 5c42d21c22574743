// One Kokoro-82M ONNX model in onnxruntime-node: created once, its input/output contract checked on load (names,
// element types, ranks), and a run from padded ids, a style row and a speed to 24 kHz samples. Worker-thread side.

import * as ort from 'onnxruntime-node';
import { openVoiceModelSession, type VoiceModelThreadOptions } from '../voice-model-session.js';
import { KOKORO_STYLE_DIM } from './kokoro-style.js';
import { KOKORO_MAX_TOKENS } from './kokoro-vocab.js';

export const KOKORO_SAMPLE_RATE_HZ = 24_000;

export type KokoroThreadOptions = VoiceModelThreadOptions;

interface Expected {
  readonly name: string;
  readonly type: ort.Tensor.Type;
  readonly rank: number;
  /** A fixed size the last axis must have when the model states one. */
  readonly last?: number;
}

// The onnx-community/Kokoro-82M-v1.0-ONNX contract kokoro-js feeds. hexgrad's own export (examples/export.py) takes
// an int32 speed and is refused by name of the type, so an operator sees which file they installed.
const INPUTS: readonly Expected[] = [
  { name: 'input_ids', type: 'int64', rank: 2 },
  { name: 'style', type: 'float32', rank: 2, last: KOKORO_STYLE_DIM },
  { name: 'speed', type: 'float32', rank: 1 },
];
const WAVEFORM = 'waveform';

/** What the model has, e.g. `input_ids int64 [1,sequence_length]`. */
function describe(value: ort.InferenceSession.ValueMetadata): string {
  return value.isTensor ? `${value.name} ${value.type} [${value.shape.join(',')}]` : `${value.name} (not a tensor)`;
}

/** Why the metadata is not Kokoro's contract, or undefined when it is. Extra outputs (e.g. `duration`) are fine. */
export function kokoroContractProblem(
  inputs: readonly ort.InferenceSession.ValueMetadata[],
  outputs: readonly ort.InferenceSession.ValueMetadata[],
): string | undefined {
  const has = `inputs ${inputs.map(describe).join(', ')}; outputs ${outputs.map(describe).join(', ')}`;
  const names = inputs.map((input) => input.name);
  const missing = INPUTS.filter((expected) => !names.includes(expected.name)).map((expected) => expected.name);
  const extra = names.filter((name) => !INPUTS.some((expected) => expected.name === name));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `unexpected ${extra.join(', ')}` : ''];
    return `inputs ${parts.filter(Boolean).join('; ')} (has ${has})`;
  }
  for (const expected of INPUTS) {
    const value = inputs.find((input) => input.name === expected.name);
    if (value === undefined || !value.isTensor || value.type !== expected.type) return `input ${expected.name} is not ${expected.type} (has ${has})`;
    // An empty shape means the model does not state one.
    if (value.shape.length > 0 && value.shape.length !== expected.rank) return `input ${expected.name} has rank ${value.shape.length}, expected ${expected.rank} (has ${has})`;
    const last = value.shape[value.shape.length - 1];
    if (expected.last !== undefined && typeof last === 'number' && last !== expected.last) return `input ${expected.name} has ${last} values, expected ${expected.last} (has ${has})`;
  }
  const waveform = outputs.find((output) => output.name === WAVEFORM);
  if (waveform === undefined || !waveform.isTensor || waveform.type !== 'float32') return `it has no float32 output '${WAVEFORM}' (has ${has})`;
  return undefined;
}

export class KokoroSession {
  private constructor(private readonly session: ort.InferenceSession) {}

  /** Creates the session and checks its contract; throws a message naming the model and what it has. */
  static async create(modelPath: string, threads: KokoroThreadOptions): Promise<KokoroSession> {
    const session = await openVoiceModelSession(modelPath, threads, 'Kokoro-82M model', (created) =>
      kokoroContractProblem(created.inputMetadata, created.outputMetadata),
    );
    return new KokoroSession(session);
  }

  /** One run: `ids` padded (pad, tokens, pad), `style` the row for its token count; mono samples at 24 kHz. */
  async run(ids: readonly number[], style: Float32Array, speed: number): Promise<Float32Array> {
    if (ids.length < 3 || ids.length > KOKORO_MAX_TOKENS + 2) throw new Error(`a Kokoro run takes 1 to ${KOKORO_MAX_TOKENS} tokens and two pads, got ${ids.length} ids`);
    if (style.length !== KOKORO_STYLE_DIM) throw new Error(`a Kokoro style row has ${KOKORO_STYLE_DIM} values, got ${style.length}`);
    if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`Kokoro speed must be a positive number, got ${speed}`);
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, (id) => BigInt(id)), [1, ids.length]),
      style: new ort.Tensor('float32', style, [1, KOKORO_STYLE_DIM]),
      speed: new ort.Tensor('float32', Float32Array.of(speed), [1]),
    };
    const results = await this.session.run(feeds, [WAVEFORM]);
    const waveform = results[WAVEFORM];
    if (waveform === undefined || waveform.type !== 'float32') throw new Error('Kokoro model returned no float32 waveform');
    return waveform.data as Float32Array;
  }

  release(): Promise<void> {
    return this.session.release();
  }
}
