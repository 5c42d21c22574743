// One eSpeak NG instance as its glue (wasm/raaga_espeak.c) exposes it: typed calls, strings passed through linear
// memory, and each clause's PCM and events copied out before the next call. The heap is read again after every call:
// with memory growth its ArrayBuffer is replaced whenever it grows.

/** The emscripten module of wasm/espeak-ng.cjs: its runtime's heap and FS, and the glue's exports. */
export interface EmscriptenEspeak {
  readonly HEAPU8: Uint8Array;
  readonly FS: EspeakFileSystem & {
    mkdirTree(path: string): void;
    writeFile(path: string, data: string | Uint8Array): void;
  };
  _raaga_espeak_initialize(dataPath: number, bufferMs: number, options: number): number;
  _raaga_espeak_set_voice(name: number): number;
  _raaga_espeak_set_parameter(parameter: number, value: number): number;
  _raaga_espeak_get_parameter(parameter: number, current: number): number;
  _raaga_espeak_set_seed(seed: number): void;
  _raaga_espeak_synthesize(text: number, flags: number): number;
  _raaga_espeak_pcm(): number;
  _raaga_espeak_pcm_length(): number;
  _raaga_espeak_events(): number;
  _raaga_espeak_event_count(): number;
  _raaga_espeak_text_to_phonemes(text: number, mode: number): number;
  _raaga_espeak_synthesize_phonemes(text: number, mode: number, flags: number): number;
  _raaga_espeak_trace(): number;
  _raaga_espeak_trace_length(): number;
  _raaga_espeak_version(): number;
  _raaga_espeak_alloc(size: number): number;
  _raaga_espeak_free(pointer: number): void;
}

/** The part of the instance's in-memory file system the engine writes: variant files under voices/!v/. */
export interface EspeakFileSystem {
  writeFile(path: string, data: string): void;
  readFile(path: string, options: { encoding: 'utf8' }): string;
  unlink(path: string): void;
}

/** espeak_PARAMETER (speak_lib.h). */
export const EspeakParameter = { rate: 1, volume: 2, pitch: 3, range: 4, punctuation: 5, capitals: 6, wordGap: 7 } as const;
export type EspeakParameter = (typeof EspeakParameter)[keyof typeof EspeakParameter];

/** espeak_Synth's flags (speak_lib.h). */
export const ESPEAK_CHARS_AUTO = 0;
export const ESPEAK_CHARS_UTF8 = 1;
export const ESPEAK_SSML = 0x10;
export const ESPEAK_PHONEMES = 0x100;

/** phonememode for text_to_phonemes and the trace: bit 1 IPA, bits 8-23 the separator between a word's phonemes. */
export function phonemeMode(ipa: boolean, separator = '_'): number {
  return (ipa ? 1 << 1 : 0) | (separator.codePointAt(0)! << 8);
}

/** espeak_EVENT_TYPE values the glue records. */
const EVENT_TYPES: Readonly<Record<number, EspeakEvent['type']>> = { 1: 'word', 2: 'sentence' };
/** Int32 words per recorded event (raaga_espeak.c, EVENT_WORDS). */
const EVENT_WORDS = 6;

export interface EspeakEvent {
  readonly type: 'word' | 'sentence';
  /** 1-based, in code points of the text eSpeak read. */
  readonly textPosition: number;
  /** In code points (the word's, for a word event). */
  readonly length: number;
  /** Milliseconds from the start of the clause's audio. */
  readonly audioMs: number;
  /** The word's or sentence's number. */
  readonly id: number;
}

export interface EspeakSpeech {
  /** eSpeak's status: 0 when the whole clause was spoken. */
  readonly status: number;
  /** PCM16 at the instance's sample rate, a copy (safe to keep). */
  readonly samples: Int16Array;
  readonly events: readonly EspeakEvent[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** espeak_ERROR's EE_NOT_FOUND. */
export const ESPEAK_NOT_FOUND = 2;
/** What eSpeak prints (to stderr) when a language's dictionary is not in the data; the voice still "loads". */
const MISSING_DICTIONARY = "Can't read dictionary file";

/**
 * What the instance writes to stderr: the lines of the call running, so a failure eSpeak only prints can be reported;
 * every line but a missing dictionary's (which setVoice reports) still reaches the console, as emscripten's default.
 */
export class EspeakMessages {
  readonly lines: string[] = [];

  print = (line: string): void => {
    this.lines.push(line);
    if (!line.startsWith(MISSING_DICTIONARY)) console.warn(line);
  };
}

export class EspeakGlue {
  constructor(
    private readonly module: EmscriptenEspeak,
    /** The rate espeak_Initialize reported. */
    readonly sampleRateHz: number,
    private readonly messages: EspeakMessages,
  ) {}

  /** Loads eSpeak's data from `dataPath` (in the instance's file system). */
  static initialize(module: EmscriptenEspeak, messages: EspeakMessages, dataPath: string, bufferMs: number, options: number): EspeakGlue {
    const rate = withString(module, dataPath, (pointer) => module._raaga_espeak_initialize(pointer, bufferMs, options));
    if (rate <= 0) throw new Error(`eSpeak NG could not load its data from ${dataPath} (${rate})`);
    return new EspeakGlue(module, rate, messages);
  }

  get fs(): EspeakFileSystem {
    return this.module.FS;
  }

  /** The size of the instance's linear memory: it grows with the longest clause and never shrinks. */
  get memoryBytes(): number {
    return this.module.HEAPU8.length;
  }

  /**
   * `lang` or `lang+variant`: 0 when loaded, else eSpeak's error code; ESPEAK_NOT_FOUND too for a language whose
   * dictionary the build does not carry (eSpeak itself would go on without one and speak by no rules).
   */
  setVoice(name: string): number {
    this.messages.lines.length = 0;
    const code = withString(this.module, name, (pointer) => this.module._raaga_espeak_set_voice(pointer));
    const missing = this.messages.lines.some((line) => line.startsWith(MISSING_DICTIONARY));
    return code === 0 && missing ? ESPEAK_NOT_FOUND : code;
  }

  setParameter(parameter: EspeakParameter, value: number): number {
    return this.module._raaga_espeak_set_parameter(parameter, value);
  }

  getParameter(parameter: EspeakParameter, current = true): number {
    return this.module._raaga_espeak_get_parameter(parameter, current ? 1 : 0);
  }

  /** Restarts the random numbers (breath noise), as espeak_Initialize does from the clock. */
  setSeed(seed: number): void {
    this.module._raaga_espeak_set_seed(seed | 0);
  }

  /** The whole of `text`: its PCM and its word and sentence events. */
  synthesize(text: string, flags: number): EspeakSpeech {
    const status = withString(this.module, text, (pointer) => this.module._raaga_espeak_synthesize(pointer, flags));
    return { status, ...this.clauseOutput() };
  }

  /** espeak_TextToPhonemes over every clause of `text`, joined by ` | `. */
  textToPhonemes(text: string, mode: number): string {
    const pointer = withString(this.module, text, (input) => this.module._raaga_espeak_text_to_phonemes(input, mode));
    if (pointer === 0) throw new Error('eSpeak NG could not hold the phonemes of the text');
    return readCString(this.module.HEAPU8, pointer);
  }

  /** Speaks `text` with the phoneme trace on: the trace (one line per clause) and the clause's output. */
  synthesizePhonemes(text: string, mode: number, flags: number): EspeakSpeech & { readonly trace: string } {
    const status = withString(this.module, text, (pointer) => this.module._raaga_espeak_synthesize_phonemes(pointer, mode, flags));
    const pointer = this.module._raaga_espeak_trace();
    const trace = decoder.decode(this.module.HEAPU8.subarray(pointer, pointer + this.module._raaga_espeak_trace_length()));
    return { status, trace, ...this.clauseOutput() };
  }

  /** eSpeak NG's version, e.g. `1.52.0`. */
  version(): string {
    return readCString(this.module.HEAPU8, this.module._raaga_espeak_version());
  }

  private clauseOutput(): { samples: Int16Array; events: EspeakEvent[] } {
    const { HEAPU8 } = this.module;
    const pcm = this.module._raaga_espeak_pcm();
    const samples = new Int16Array(HEAPU8.buffer.slice(pcm, pcm + this.module._raaga_espeak_pcm_length() * 2));
    const words = new Int32Array(HEAPU8.buffer, this.module._raaga_espeak_events(), this.module._raaga_espeak_event_count() * EVENT_WORDS);
    const events: EspeakEvent[] = [];
    for (let i = 0; i < words.length; i += EVENT_WORDS) {
      const type = EVENT_TYPES[words[i]!];
      if (type === undefined) continue;
      events.push({ type, textPosition: words[i + 1]!, length: words[i + 2]!, audioMs: words[i + 3]!, id: words[i + 5]! });
    }
    return { samples, events };
  }
}

/** Runs `call` with `text` as a NUL-terminated UTF-8 string in the heap, freed afterwards. */
function withString<T>(module: EmscriptenEspeak, text: string, call: (pointer: number) => T): T {
  const bytes = encoder.encode(text);
  const pointer = module._raaga_espeak_alloc(bytes.length + 1);
  if (pointer === 0) throw new Error('eSpeak NG is out of memory');
  try {
    const heap = module.HEAPU8;
    heap.set(bytes, pointer);
    heap[pointer + bytes.length] = 0;
    return call(pointer);
  } finally {
    module._raaga_espeak_free(pointer);
  }
}

function readCString(heap: Uint8Array, pointer: number): string {
  const end = heap.indexOf(0, pointer);
  return decoder.decode(heap.subarray(pointer, end < 0 ? heap.length : end));
}
