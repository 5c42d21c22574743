// Kokoro's ONNX contract as a pure check over model metadata: the accepted shapes of both known exports' names,
// and each way a model can differ, described with what it has.

import type { InferenceSession } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { kokoroContractProblem } from '../../../../src/engine/kokoro/kokoro-session.js';

type Value = InferenceSession.ValueMetadata;
const tensor = (name: string, type: 'int64' | 'float32' | 'int32', shape: (number | string)[]): Value => ({ name, isTensor: true, type, shape });

const INPUTS: Value[] = [tensor('input_ids', 'int64', [1, 'sequence_length']), tensor('style', 'float32', [1, 256]), tensor('speed', 'float32', [1])];
const OUTPUTS: Value[] = [tensor('waveform', 'float32', [1, 'num_samples'])];

describe('Kokoro contract', () => {
  it('accepts the onnx-community model, symbolic batch axes, undeclared shapes and extra outputs', () => {
    expect(kokoroContractProblem(INPUTS, OUTPUTS)).toBeUndefined();
    const batch = [tensor('input_ids', 'int64', ['batch', 'n']), tensor('style', 'float32', ['batch', 256]), tensor('speed', 'float32', ['batch'])];
    expect(kokoroContractProblem(batch, [tensor('waveform', 'float32', ['num_samples']), tensor('duration', 'int64', ['n'])])).toBeUndefined();
    expect(kokoroContractProblem(INPUTS.map((value) => ({ ...value, shape: [] })), OUTPUTS)).toBeUndefined();
  });

  it('refuses other input names (the older `tokens` export), saying what is missing and what it has', () => {
    const inputs = [tensor('tokens', 'int64', [1, 'n']), ...INPUTS.slice(1)];
    expect(kokoroContractProblem(inputs, OUTPUTS)).toBe(
      'inputs missing input_ids; unexpected tokens (has inputs tokens int64 [1,n], style float32 [1,256], speed float32 [1]; outputs waveform float32 [1,num_samples])',
    );
  });

  it('refuses an int32 speed (hexgrad`s own export), a wrong style size or rank', () => {
    expect(kokoroContractProblem([...INPUTS.slice(0, 2), tensor('speed', 'int32', [1])], OUTPUTS)).toMatch(/^input speed is not float32 \(has .*speed int32 \[1\]/);
    expect(kokoroContractProblem([INPUTS[0] as Value, tensor('style', 'float32', [1, 128]), INPUTS[2] as Value], OUTPUTS)).toMatch(/^input style has 128 values, expected 256/);
    expect(kokoroContractProblem([tensor('input_ids', 'int64', ['n']), ...INPUTS.slice(1)], OUTPUTS)).toMatch(/^input input_ids has rank 1, expected 2/);
  });

  it('refuses a model without a float32 waveform', () => {
    expect(kokoroContractProblem(INPUTS, [tensor('audio', 'float32', [1, 'n'])])).toMatch(/^it has no float32 output 'waveform' \(has .*outputs audio float32/);
    expect(kokoroContractProblem(INPUTS, [{ name: 'waveform', isTensor: false }])).toMatch(/waveform \(not a tensor\)/);
  });
});
