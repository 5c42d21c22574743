// The resampler's inner loop in WebAssembly SIMD: four multiply-adds an instruction instead of one, for the exact
// polyphase banks (every rate pair a call uses). The kernel (fir-kernel.wat, assembled to fir-kernel.wasm by
// `npx tsx scripts/assemble-wasm.ts`) reads the filter rows and the buffered input from its own memory and steps
// through the output phases itself, so one call into it produces a whole chunk. It sums in single precision, as
// the rows are stored; against the double-precision sums of the JavaScript loop an output differs by about 1e-7 of
// full scale, below 16-bit PCM's step (test/unit/audio/fir-kernel.test.ts).
//
// One kernel per thread: the resampler's filter banks are shared per thread, and their rows are copied into the
// kernel's memory once. Each run copies the resampler's buffer into the memory above the rows, so any number of
// resamplers share one instance (runs are synchronous).

import { readFileSync } from 'node:fs';

/** Rows are stored with their tap count rounded up to this (zero coefficients at the end). */
const KERNEL_TAP_MULTIPLE = 4;
const BYTES_PER_SAMPLE = 4;
const WASM_PAGE_BYTES = 65536;
/** Zero samples written after the buffer: a padded row reads up to KERNEL_TAP_MULTIPLE - 1 samples past its taps. */
const GUARD_SAMPLES = KERNEL_TAP_MULTIPLE;

interface KernelExports {
  readonly memory: WebAssembly.Memory;
  run(
    buf: number,
    table: number,
    taps: number,
    out: number,
    start: number,
    lastStart: number,
    frac: number,
    stepWhole: number,
    stepFrac: number,
    up: number,
  ): number;
}

/** Where a bank's padded rows live in the kernel's memory. */
export interface KernelTable {
  readonly byteOffset: number;
  readonly paddedTaps: number;
}

/** What a run filters: `samples` with zeros before and after, laid out in the kernel's memory without a copy between. */
export interface KernelInput {
  readonly leadingZeros: number;
  readonly samples: Float32Array;
  readonly trailingZeros: number;
}

/** The output phases of one run, as the resampler steps through them. */
export interface KernelSteps {
  /** Index in the buffer of the first output's first tap. */
  readonly start: number;
  /** The last index a first tap may have. */
  readonly lastStart: number;
  /** The first output's row. */
  readonly frac: number;
  readonly stepWhole: number;
  readonly stepFrac: number;
  readonly up: number;
}

export class FirKernel {
  readonly #exports: KernelExports;
  /** End of the rows copied in so far: the scratch area for runs starts here. */
  #tablesEnd = 0;

  private constructor(instance: WebAssembly.Instance) {
    this.#exports = instance.exports as unknown as KernelExports;
  }

  static create(wasm: Uint8Array): FirKernel {
    return new FirKernel(new WebAssembly.Instance(new WebAssembly.Module(wasm)));
  }

  /** Copies a bank's rows (`taps` each) into the kernel's memory, each padded with zeros to a multiple of 4 taps. */
  addTable(table: Float32Array, taps: number): KernelTable {
    const rows = table.length / taps;
    const paddedTaps = Math.ceil(taps / KERNEL_TAP_MULTIPLE) * KERNEL_TAP_MULTIPLE;
    const byteOffset = this.#tablesEnd;
    this.#reserve(byteOffset + rows * paddedTaps * BYTES_PER_SAMPLE);
    const rowsView = new Float32Array(this.#exports.memory.buffer, byteOffset, rows * paddedTaps);
    rowsView.fill(0); // earlier runs' scratch may lie here
    for (let row = 0; row < rows; row++) rowsView.set(table.subarray(row * taps, (row + 1) * taps), row * paddedTaps);
    this.#tablesEnd = byteOffset + rows * paddedTaps * BYTES_PER_SAMPLE;
    return { byteOffset, paddedTaps };
  }

  /**
   * Filters `input` (its samples between runs of zeros) with the rows of `table` at the given phases; returns the
   * outputs (a copy). `maxOutputs` bounds the run's output area.
   */
  run(input: KernelInput, table: KernelTable, steps: KernelSteps, maxOutputs: number): Float32Array {
    const length = input.leadingZeros + input.samples.length + input.trailingZeros;
    const bufOffset = this.#tablesEnd;
    const outOffset = bufOffset + (length + GUARD_SAMPLES) * BYTES_PER_SAMPLE;
    this.#reserve(outOffset + maxOutputs * BYTES_PER_SAMPLE);
    const memory = this.#exports.memory.buffer;
    const buffer = new Float32Array(memory, bufOffset, length + GUARD_SAMPLES);
    buffer.fill(0, 0, input.leadingZeros);
    buffer.set(input.samples, input.leadingZeros);
    buffer.fill(0, input.leadingZeros + input.samples.length);
    const count = this.#exports.run(
      bufOffset,
      table.byteOffset,
      table.paddedTaps,
      outOffset,
      steps.start,
      steps.lastStart,
      steps.frac,
      steps.stepWhole,
      steps.stepFrac,
      steps.up,
    );
    if (count > maxOutputs) throw new Error(`FIR kernel wrote ${count} outputs into room for ${maxOutputs}`);
    return new Float32Array(memory, outOffset, count).slice();
  }

  /** Size of the kernel's memory: rows plus the largest run so far. */
  get memoryBytes(): number {
    return this.#exports.memory.buffer.byteLength;
  }

  #reserve(bytes: number): void {
    const { memory } = this.#exports;
    const missing = bytes - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / WASM_PAGE_BYTES));
  }
}

let threadKernel: FirKernel | null | undefined;

/** This thread's kernel, or null where WebAssembly SIMD is not available (the resampler then loops in JavaScript). */
export function firKernel(): FirKernel | null {
  if (threadKernel === undefined) {
    const wasm = readFileSync(new URL('./fir-kernel.wasm', import.meta.url));
    threadKernel = WebAssembly.validate(wasm) ? FirKernel.create(wasm) : null;
  }
  return threadKernel;
}
