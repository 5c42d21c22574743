// One instance of Raaga's Flite build (wasm/flite.wasm + wasm/flite.cjs, scripts/build-flite-wasm.sh): the module
// compiled once per thread, instances made from it synchronously, and the glue's calls (wasm/raaga_flite.c) as typed
// methods. The instance's file system is emscripten's MEMFS, inside the instance: a voice goes in as bytes the engine
// read and checked (flite-voice.ts) and is removed from it once flite has read it, so flite reads nothing on the host.
// A trap (abort, out of bounds), an exit() or a flite error (cst_error's longjmp) breaks the instance: the call throws
// FliteInstanceFault and every later call too; the owner (flite-voice-bank.ts) makes a new one.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** What emscripten's loader gives (the glue's exports, the heap, MEMFS). */
interface FliteModule {
  readonly HEAPU8: Uint8Array;
  readonly calledRun?: boolean;
  readonly FS: {
    mkdir(path: string): void;
    open(path: string, flags: string): unknown;
    write(stream: unknown, buffer: Uint8Array, offset: number, length: number, position: number, canOwn: boolean): number;
    close(stream: unknown): void;
    unlink(path: string): void;
    readdir(path: string): string[];
  };
  _raaga_flite_initialize(): number;
  _raaga_flite_failed(): number;
  _raaga_flite_voice_load(path: number): number;
  _raaga_flite_voice_free(voice: number): number;
  _raaga_flite_voice_sample_rate(voice: number): number;
  _raaga_flite_set_float(voice: number, name: number, value: number): number;
  _raaga_flite_reset_feature(voice: number, name: number): number;
  _raaga_flite_synthesize(voice: number, text: number): number;
  _raaga_flite_samples(): number;
  _raaga_flite_sample_rate(): number;
  _raaga_flite_tokens(): number;
  _raaga_flite_token_count(): number;
  _raaga_flite_release(): void;
  _raaga_flite_heap_used(): number;
  _raaga_flite_alloc(bytes: number): number;
  _raaga_flite_free(pointer: number): void;
}

interface FliteModuleOptions {
  instantiateWasm(imports: object, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): unknown;
  print(line: string): void;
  printErr(line: string): void;
  quit(status: number, toThrow: unknown): never;
}

type CreateFliteModule = (options: FliteModuleOptions) => Promise<unknown>;

const require = createRequire(import.meta.url);
const WASM_URL = new URL('./wasm/flite.wasm', import.meta.url);
const GUEST_VOICE_DIR = '/voice';
// Per token (raaga_flite_tokens): whitespace, prepunctuation, name and punctuation byte lengths, file_pos, start/end µs.
const TOKEN_FIELDS = 7;

/** The instance is broken (trapped, exited, or flite failed inside): this call failed and it must be replaced. */
export class FliteInstanceFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FliteInstanceFault';
  }
}

/** flite refused a voice (its reason, e.g. `Error load voice: … does not have expected header`); the instance is fine. */
export class FliteVoiceRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'FliteVoiceRefused';
  }
}

/** One token of a spoken clause, as flite split the text (byte lengths) and when its words were said. */
export interface FliteToken {
  readonly whitespaceBytes: number;
  readonly prepunctuationBytes: number;
  readonly nameBytes: number;
  readonly punctuationBytes: number;
  /** flite's file_pos: one past the character after the token (or the end of the text), in bytes. */
  readonly filePos: number;
  /** Start of its first word and end of its last, in µs; undefined when none of its words has a phone. */
  readonly startUs: number | undefined;
  readonly endUs: number | undefined;
}

export interface FliteSpoken {
  /** 16-bit samples, copied out of the instance. */
  readonly samples: Int16Array;
  readonly sampleRateHz: number;
  readonly tokens: readonly FliteToken[];
}

let compiled: WebAssembly.Module | undefined;

/** flite.wasm compiled (1.2 MB, a few ms): once per thread, on first use. */
export function fliteWasmModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(readFileSync(WASM_URL));
  return compiled;
}

export class FliteInstance {
  readonly #module: FliteModule;
  readonly #messages: string[] = [];
  #fault: string | undefined;
  #voiceFiles = 0;

  constructor() {
    const createFliteModule = require('./wasm/flite.cjs') as CreateFliteModule;
    const wasm = fliteWasmModule();
    const options: FliteModuleOptions = {
      // With the module compiled here the loader neither reads nor fetches flite.wasm, and instantiates synchronously.
      instantiateWasm: (imports, receive) => {
        const instance = new WebAssembly.Instance(wasm, imports as Record<string, Record<string, unknown>>);
        receive(instance, wasm);
        return instance.exports;
      },
      print: (line) => this.#messages.push(line),
      printErr: (line) => this.#messages.push(line),
      // exit() inside flite must not end the thread (emscripten's default would set process.exitCode or exit).
      quit: (status, toThrow) => {
        throw toThrow ?? new Error(`flite exited with ${status}`);
      },
    };
    // emscripten fills in the object it is given (MODULARIZE's Module) and returns a promise of it; an abort later
    // rejects that promise too, which is ignored here: the call that aborted throws.
    createFliteModule(options).catch(() => undefined);
    this.#module = readyModule(options);
    this.#call('initialize', () => this.#module._raaga_flite_initialize());
    this.#module.FS.mkdir(GUEST_VOICE_DIR);
  }

  /** Set once a call broke the instance: its reason. */
  get fault(): string | undefined {
    return this.#fault;
  }

  /** The instance's linear memory (it never shrinks). */
  get memoryBytes(): number {
    return this.#module.HEAPU8.byteLength;
  }

  /** Bytes in use on flite's heap. */
  heapUsed(): number {
    return this.#call('heap_used', () => this.#module._raaga_flite_heap_used());
  }

  /**
   * Loads a .flitevox from its bytes: the voice's handle. Throws FliteVoiceRefused with flite's reason (with `name`
   * for the guest path in it) when flite will not load it, FliteInstanceFault when loading broke the instance.
   */
  loadVoice(bytes: Uint8Array, name: string): number {
    const guestPath = `${GUEST_VOICE_DIR}/${++this.#voiceFiles}.flitevox`;
    const { FS } = this.#module;
    const stream = FS.open(guestPath, 'w');
    try {
      // canOwn: MEMFS keeps these bytes as the file's contents instead of a copy (a 31 MB voice is not held twice).
      FS.write(stream, bytes, 0, bytes.length, 0, true);
    } finally {
      FS.close(stream);
    }
    try {
      return this.loadGuestPath(guestPath, name);
    } finally {
      // flite has read the whole file into its own structures: the bytes need not stay in MEMFS too.
      this.#module.FS.unlink(guestPath);
    }
  }

  /** Loads the voice at `guestPath` of the instance's own file system (MEMFS, never the host's); see loadVoice. */
  loadGuestPath(guestPath: string, name = guestPath): number {
    const handle = this.#withString(guestPath, (path) => this.#call('voice_load', () => this.#module._raaga_flite_voice_load(path)));
    const said = this.#takeMessages().replaceAll(guestPath, name);
    if (handle === 0) throw new FliteVoiceRefused(said === '' ? 'flite did not load it' : said);
    return handle;
  }

  /** The names in a directory of the instance's file system. */
  guestDirectory(path: string): string[] {
    return this.#module.FS.readdir(path).filter((name) => name !== '.' && name !== '..');
  }

  freeVoice(voice: number): void {
    this.#call('voice_free', () => this.#module._raaga_flite_voice_free(voice));
  }

  voiceSampleRate(voice: number): number {
    return this.#call('voice_sample_rate', () => this.#module._raaga_flite_voice_sample_rate(voice));
  }

  /** Sets each feature in `set` (`--setf`) and returns each in `reset` to the voice's own value. */
  setFeatures(voice: number, set: Readonly<Record<string, number>>, reset: readonly string[]): void {
    for (const [name, value] of Object.entries(set)) {
      const status = this.#withString(name, (pointer) => this.#call('set_float', () => this.#module._raaga_flite_set_float(voice, pointer, value)));
      if (status !== 0) throw new FliteInstanceFault(`flite could not set feature ${name}`);
    }
    for (const name of reset) {
      const status = this.#withString(name, (pointer) => this.#call('reset_feature', () => this.#module._raaga_flite_reset_feature(voice, pointer)));
      if (status !== 0) throw new FliteInstanceFault(`flite could not reset feature ${name}`);
    }
  }

  /** Speaks one clause with `voice`. */
  synthesize(voice: number, text: string): FliteSpoken {
    const count = this.#withString(text, (pointer) => this.#call('synthesize', () => this.#module._raaga_flite_synthesize(voice, pointer)));
    if (count < 0) this.#broken('synthesize', 'flite returned no utterance');
    const heap = this.#module.HEAPU8;
    const samplesAt = this.#module._raaga_flite_samples();
    const samples = count === 0 || samplesAt === 0 ? new Int16Array(0) : new Int16Array(heap.buffer, samplesAt, count).slice();
    const sampleRateHz = this.#module._raaga_flite_sample_rate();
    const tokenCount = this.#module._raaga_flite_token_count();
    const tokensAt = this.#module._raaga_flite_tokens();
    const fields = tokenCount === 0 || tokensAt === 0 ? new Int32Array(0) : new Int32Array(heap.buffer, tokensAt, tokenCount * TOKEN_FIELDS).slice();
    this.#module._raaga_flite_release();
    this.#takeMessages();
    const tokens: FliteToken[] = [];
    for (let i = 0; i < fields.length / TOKEN_FIELDS; i++) {
      const at = (field: number): number => fields[i * TOKEN_FIELDS + field] as number;
      tokens.push({
        whitespaceBytes: at(0),
        prepunctuationBytes: at(1),
        nameBytes: at(2),
        punctuationBytes: at(3),
        filePos: at(4),
        startUs: at(5) < 0 ? undefined : at(5),
        endUs: at(6) < 0 ? undefined : at(6),
      });
    }
    return { samples, sampleRateHz, tokens };
  }

  /** Makes the instance trap for real (an out-of-bounds read in the glue), for tests of what follows a trap. */
  trapForTest(): never {
    this.#call('synthesize', () => this.#module._raaga_flite_synthesize(0x7ffffff0, 0));
    throw new Error('flite did not trap');
  }

  #withString<T>(text: string, use: (pointer: number) => T): T {
    const bytes = Buffer.from(`${text}\0`, 'utf8');
    const pointer = this.#call('alloc', () => this.#module._raaga_flite_alloc(bytes.length));
    if (pointer === 0) this.#broken('alloc', `could not allocate ${bytes.length} bytes`);
    try {
      this.#module.HEAPU8.set(bytes, pointer);
      return use(pointer);
    } finally {
      if (this.#fault === undefined) this.#module._raaga_flite_free(pointer);
    }
  }

  #call<T>(what: string, run: () => T): T {
    if (this.#fault !== undefined) throw new FliteInstanceFault(`the flite instance is broken (${this.#fault})`);
    let result: T;
    try {
      result = run();
    } catch (error) {
      this.#broken(what, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
    if (this.#module._raaga_flite_failed() !== 0) this.#broken(what, 'flite reported an error');
    return result;
  }

  #broken(what: string, cause: string): never {
    const said = this.#takeMessages();
    this.#fault = `${what}: ${cause}${said === '' ? '' : ` (flite said: ${said.slice(-300)})`}`;
    throw new FliteInstanceFault(`flite failed in ${this.#fault}`);
  }

  #takeMessages(): string {
    return this.#messages.splice(0).join('\n').trim();
  }
}

function readyModule(module: unknown): FliteModule {
  const ready = module as FliteModule;
  // emscripten runs the module inside the factory when instantiateWasm is synchronous; check rather than assume.
  if (ready.calledRun !== true || typeof ready._raaga_flite_initialize !== 'function') throw new Error('flite.wasm did not initialise synchronously');
  return ready;
}
