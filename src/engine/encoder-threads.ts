// Worker threads that run the output pipelines whose encoder costs real CPU (MP3: lamejs spends ~60 ms per second
// of 24 kHz audio; Opus: libopus in WebAssembly 8-20 ms), so no request's encoding ever blocks the event loop that
// paces every live call. Each
// utterance's pipeline is a session pinned to one thread (the encoder is stateful across clauses); sessions are
// spread round-robin. A thread that dies fails its sessions' pending clauses and is replaced.

import { Worker } from 'node:worker_threads';
import type { AudioPipeline, AudioPipelineFactory } from '../audio/audio-pipeline.js';
import { EMPTY_BYTES } from '../audio/bytes.js';
import { inlinePipeline } from '../audio/audio-pipeline.js';
import type { OutputFormat } from '../audio/formats.js';
import type { OutputPipelineOptions } from '../audio/output-pipeline.js';
import type { EncoderAnswer, EncoderRequest } from './encoder-protocol.js';
import { EngineUnavailableError } from './tts-engine.js';
import { workerEntry } from './worker-entry.js';

/** Formats encoded off the event loop; the others (PCM, WAV, mu-law, A-law) are a copy or a table lookup per sample. */
export const THREAD_ENCODED_FORMATS: ReadonlySet<OutputFormat> = new Set<OutputFormat>(['mp3', 'opus']);

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);
const ENTRY = workerEntry('./encoder-worker', import.meta.url);

export interface EncoderThreadsOptions {
  readonly threads: number;
  /** The threads' nice value (TTS_WORKER_NICE), as the synthesis workers'. */
  readonly niceness?: number;
  readonly onExit?: (event: { readonly thread: number; readonly exitCode: number; readonly pending: number }) => void;
}

interface Pending {
  readonly resolve: (answer: Extract<EncoderAnswer, { ok: true }>) => void;
  readonly reject: (error: Error) => void;
}

class EncoderThread {
  worker: Worker;
  readonly pending = new Map<number, Pending>();
  /** Sessions opened on the current worker: a replaced worker knows none of the old ones. */
  generation = 0;
  /** Resolves once the first worker has loaded; rejects if it exits before (a broken build, a missing file). */
  readonly ready: Promise<void>;
  /** Why the thread cannot serve (its worker never loaded); sessions then fail at once. */
  failed: string | undefined;

  constructor(
    private readonly index: number,
    private readonly options: EncoderThreadsOptions,
    private readonly isClosed: () => boolean,
  ) {
    let settle: (error?: Error) => void = () => undefined;
    this.ready = new Promise((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
    this.ready.catch(() => undefined); // start() reports it
    this.worker = this.#spawn(settle);
  }

  #spawn(settle: (error?: Error) => void): Worker {
    const worker = new Worker(BOOTSTRAP, { workerData: { entry: ENTRY.href, niceness: this.options.niceness ?? 0 } });
    let loaded = false;
    let lastError = '';
    worker.on('message', (message: EncoderAnswer) => {
      if (message.type === 'ready') {
        loaded = true;
        return settle();
      }
      const pending = this.pending.get(message.request);
      if (pending === undefined) return;
      this.pending.delete(message.request);
      if (message.ok) pending.resolve(message);
      else pending.reject(new Error(`audio encoding failed: ${message.message}`));
    });
    worker.on('error', (error) => (lastError = error.message)); // the exit that follows reports it
    worker.on('exit', (exitCode) => {
      if (worker !== this.worker) return;
      const failed = [...this.pending.values()];
      this.pending.clear();
      this.options.onExit?.({ thread: this.index, exitCode, pending: failed.length });
      for (const pending of failed) pending.reject(new EngineUnavailableError(`encoder thread exited (code ${exitCode})`));
      if (!loaded) {
        // It never loaded: a new one would not either. Fail what asks instead of respawning in a loop.
        this.failed = `encoder thread could not start (code ${exitCode}${lastError ? `: ${lastError}` : ''})`;
        return settle(new EngineUnavailableError(this.failed));
      }
      if (this.isClosed()) return;
      this.generation++;
      this.worker = this.#spawn(() => undefined);
    });
    return worker;
  }

  post(message: EncoderRequest): void {
    this.worker.postMessage(message, message.type === 'push' ? [message.samples.buffer as ArrayBuffer] : []);
  }
}

export class EncoderThreads {
  readonly #threads: EncoderThread[];
  #nextSession = 1;
  #nextRequest = 1;
  #turn = 0;
  #closed = false;

  constructor(options: EncoderThreadsOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) throw new RangeError('encoder threads must be a positive integer');
    this.#threads = Array.from({ length: options.threads }, (_, index) => new EncoderThread(index, options, () => this.#closed));
  }

  /** Resolves once every thread has loaded; rejects (EngineUnavailableError) if one cannot. */
  async start(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => thread.ready));
  }

  /** The factory an utterance uses: MP3 and Opus on a thread, the rest in place. */
  readonly pipelines: AudioPipelineFactory = (options) =>
    THREAD_ENCODED_FORMATS.has(options.format) ? this.pipeline(options) : inlinePipeline(options);

  /** A pipeline on one of the threads, whatever its format. */
  pipeline(options: OutputPipelineOptions): AudioPipeline {
    if (this.#closed) throw new EngineUnavailableError('encoder threads closed');
    const thread = this.#threads[this.#turn++ % this.#threads.length] as EncoderThread;
    if (thread.failed !== undefined) throw new EngineUnavailableError(thread.failed);
    const session = this.#nextSession++;
    const generation = thread.generation;
    thread.post({ type: 'open', session, options });
    let durationMs = 0;
    let leadTrimmedMs = 0;
    let open = true;
    const call = (message: (request: number) => EncoderRequest): Promise<Uint8Array[]> => {
      if (!open) return Promise.reject(new Error('encoder session is closed'));
      if (thread.generation !== generation) return Promise.reject(new EngineUnavailableError('encoder thread was replaced'));
      const request = this.#nextRequest++;
      return new Promise<Uint8Array[]>((resolve, reject) => {
        thread.pending.set(request, {
          resolve: (answer) => {
            durationMs = answer.durationMs;
            leadTrimmedMs = answer.leadTrimmedMs;
            resolve(answer.pieces);
          },
          reject,
        });
        thread.post(message(request));
      });
    };
    return {
      inputRateHz: options.inputRateHz,
      get durationMs() {
        return durationMs;
      },
      get lastLeadTrimmedMs() {
        return leadTrimmedMs;
      },
      // A copy moves to the thread: the caller keeps its clip.
      pushClause: async (samples, pauseAfterMs, alreadyShaped) => {
        const pieces = await call((request) => ({ type: 'push', session, request, samples: samples.slice(), pauseAfterMs, alreadyShaped }));
        return pieces[0] ?? EMPTY_BYTES;
      },
      end: async () => {
        const pieces = await call((request) => ({ type: 'end', session, request }));
        open = false;
        return pieces;
      },
      close: () => {
        if (!open) return;
        open = false;
        if (thread.generation === generation && !this.#closed) thread.post({ type: 'drop', session });
      },
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#threads.map((thread) => thread.worker.terminate()));
  }
}
