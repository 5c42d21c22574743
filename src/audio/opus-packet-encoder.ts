// One libopus encoder (libopus 1.4 in WebAssembly, from the opusscript package) turning 20 ms of mono PCM16 into
// one Opus packet. opusscript's own class keeps views of the WebAssembly memory made at construction, and those
// views are detached when the memory grows (as it does once a few dozen encoders are open on one thread): every
// older encoder then fails. So this drives opusscript's compiled handler directly and reads the memory afresh on
// every call. The module is compiled synchronously, once per thread, at the first encoder (or by `loadOpus`).

import { createRequire } from 'node:module';

/** The slice of opusscript's Emscripten module (build/opusscript_native_wasm.js) used here. */
interface OpusNativeModule {
  readonly HEAPU8: Uint8Array;
  readonly HEAPU16: Uint16Array;
  readonly HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  readonly OpusScriptHandler: {
    new (sampleRateHz: number, channels: number, application: number): OpusNativeHandler;
    destroy_handler(handler: OpusNativeHandler): void;
  };
}

interface OpusNativeHandler {
  /** Repacks `samples` 16-bit values, stored one byte per 16-bit slot, into PCM16, then calls opus_encode. */
  _encode(input: number, samples: number, output: number, frameSamples: number): number;
  _encoder_ctl(request: number, argument: number): number;
}

/** libopus application values (opus_defines.h). */
export const OPUS_APPLICATION_VOIP = 2048;
export const OPUS_APPLICATION_AUDIO = 2049;
const OPUS_SET_BITRATE = 4002;
const OPUS_GET_LOOKAHEAD = 4027;
/** opus_encode's limit on a packet (three 1276-byte frames), as opusscript passes it. */
const MAX_PACKET_BYTES = 1276 * 3;
export const OPUS_SAMPLE_RATES: readonly number[] = [8000, 12000, 16000, 24000, 48000];

let native: OpusNativeModule | undefined;

/** Compiles libopus on this thread now (an encoder thread does it before it says ready); later calls are free. */
export function loadOpus(): void {
  if (native !== undefined) return;
  const load = createRequire(import.meta.url)('opusscript/build/opusscript_native_wasm.js') as () => OpusNativeModule;
  const module = load();
  // In Node the build reads and compiles its .wasm synchronously, so the handler exists on return.
  if (typeof module.OpusScriptHandler !== 'function') throw new Error('libopus (opusscript) did not initialise synchronously');
  native = module;
}

export interface OpusPacketEncoderOptions {
  readonly sampleRateHz: number;
  readonly application: number;
  readonly bitrateBps: number;
  /** Samples per packet at `sampleRateHz` (20 ms: rate / 50). */
  readonly frameSamples: number;
}

export class OpusPacketEncoder {
  readonly frameSamples: number;
  /** The encoder's delay in samples at its own rate (what RFC 7845's pre-skip removes at 48 kHz). */
  readonly lookaheadSamples: number;
  readonly #module: OpusNativeModule;
  #handler: OpusNativeHandler | undefined;
  /** One 16-bit slot per input byte (the handler repacks in place), then the packet. */
  readonly #input: number;
  readonly #output: number;

  constructor(options: OpusPacketEncoderOptions) {
    if (!OPUS_SAMPLE_RATES.includes(options.sampleRateHz)) throw new RangeError(`Opus encodes at ${OPUS_SAMPLE_RATES.join('/')} Hz, got ${options.sampleRateHz}`);
    loadOpus();
    const module = native as OpusNativeModule;
    this.#module = module;
    this.frameSamples = options.frameSamples;
    const handler = new module.OpusScriptHandler(options.sampleRateHz, 1, options.application);
    this.#handler = handler;
    this.#input = module._malloc(options.frameSamples * 2 * 2);
    this.#output = module._malloc(MAX_PACKET_BYTES);
    try {
      check(handler._encoder_ctl(OPUS_SET_BITRATE, options.bitrateBps), 'set the bitrate');
      // A GET request writes an opus_int32 at the pointer it is given: the output buffer serves.
      check(handler._encoder_ctl(OPUS_GET_LOOKAHEAD, this.#output), 'read the lookahead');
      this.lookaheadSamples = module.HEAP32[this.#output >> 2] as number;
    } catch (error) {
      this.free();
      throw error;
    }
  }

  /** One packet of exactly `frameSamples` samples. */
  encode(frame: Int16Array): Uint8Array {
    const handler = this.#handler;
    if (handler === undefined) throw new Error('OpusPacketEncoder used after free()');
    if (frame.length !== this.frameSamples) throw new RangeError(`an Opus frame is ${this.frameSamples} samples, got ${frame.length}`);
    const module = this.#module;
    // The handler wants each byte of the little-endian PCM in a 16-bit slot of its own.
    const bytes = new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
    module.HEAPU16.set(bytes, this.#input >> 1);
    // Its second argument is the count of samples it repacks (opusscript passes the byte count and over-reads).
    const length = handler._encode(this.#input, frame.length, this.#output, frame.length);
    check(length, 'encode');
    return module.HEAPU8.slice(this.#output, this.#output + length);
  }

  /** Releases the encoder's WebAssembly memory (Emscripten runs no destructors by itself). Idempotent. */
  free(): void {
    const handler = this.#handler;
    if (handler === undefined) return;
    this.#handler = undefined;
    this.#module.OpusScriptHandler.destroy_handler(handler);
    this.#module._free(this.#input);
    this.#module._free(this.#output);
  }
}

function check(result: number, what: string): void {
  if (result < 0) throw new Error(`libopus could not ${what} (error ${result})`);
}
