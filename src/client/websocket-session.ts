// One /v1/tts/websocket session with typed events: configure, speak a sentence (its audio frames as an async
// iterator, plus a result), cancel, ping, close. Replies come in order and are matched to waiting calls by kind;
// a `text` refused by the rate or concurrency limit is re-sent after the wait the spec asks for (retry.ts).

import { RaagaApiError, RaagaSessionClosedError } from './errors.js';
import { messageData, openSocket, SOCKET_OPEN, type ClientSocket } from './open-socket.js';
import { retryDecision, type RetryOptions } from './retry.js';
import type { CancellationMessage, ConfiguredMessage, EndOfUtteranceMessage, ErrorMessage, ServerMessage, ServerMessageOf, SessionConfig } from './types.js';

export interface SessionOptions {
  /** ws:// or wss:// URL of /v1/tts/websocket. */
  readonly url: string;
  readonly apiKey: string;
  readonly retry: RetryOptions;
  readonly connectTimeoutMs?: number;
}

export type SessionEvents = { [K in ServerMessage['type']]: ServerMessageOf<K> } & {
  /** Every binary frame, in arrival order, whichever utterance it belongs to. */
  audio: Uint8Array;
  close: { code: number; reason: string };
};

export type UtteranceResult = EndOfUtteranceMessage | CancellationMessage;

/** A spoken sentence: iterate it for its audio frames; `result` settles with its end (or cancellation). */
export interface SpokenUtterance extends AsyncIterable<Uint8Array> {
  readonly result: Promise<UtteranceResult>;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const LIMIT_CODES: ReadonlySet<string> = new Set(['rate_limit_exceeded', 'concurrency_limit_exceeded']);

export class RaagaSession {
  /** The authenticated account (`connected.user_id`). */
  readonly accountId: string;
  readonly #socket: ClientSocket;
  readonly #retry: RetryOptions;
  readonly #listeners = new Map<keyof SessionEvents, Set<(payload: never) => void>>();
  readonly #configWaiters: Waiter<ConfiguredMessage>[] = [];
  readonly #cancelWaiters: Waiter<CancellationMessage>[] = [];
  readonly #pingWaiters: Waiter<void>[] = [];
  #utterance: UtteranceStream | undefined;
  #closed: { code: number; reason: string } | undefined;
  readonly #closedPromise: Promise<{ code: number; reason: string }>;

  private constructor(socket: ClientSocket, accountId: string, retry: RetryOptions) {
    this.#socket = socket;
    this.accountId = accountId;
    this.#retry = retry;
    this.#closedPromise = new Promise((resolve) => {
      socket.addEventListener('close', ({ code, reason }) => {
        this.#closed = { code, reason };
        this.#failAll(new RaagaSessionClosedError(code, this.#closed.reason));
        this.#emit('close', this.#closed);
        resolve(this.#closed);
      });
    });
    socket.addEventListener('message', (event) => this.#receive(messageData(event.data)));
  }

  static async connect(options: SessionOptions): Promise<RaagaSession> {
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const socket = await openSocket(options.url, options.apiKey, connectTimeoutMs);
    const first = await new Promise<ServerMessage>((resolve, reject) => {
      // The standard WebSocket has no handshake timeout of its own.
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error(`no answer from ${options.url} within ${connectTimeoutMs} ms`));
      }, connectTimeoutMs);
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        return true;
      };
      // These listeners stay on the socket: after the first message they do nothing.
      socket.addEventListener('message', (event) => {
        if (settle()) resolve(JSON.parse(String(messageData(event.data))) as ServerMessage);
      });
      socket.addEventListener('close', ({ code, reason }) => {
        if (settle()) reject(new RaagaSessionClosedError(code, reason));
      });
      // An error is always followed by a close, which carries the code; nothing more to do here.
      socket.addEventListener('error', () => undefined);
    });
    if (first.type !== 'connected') throw new Error(`expected 'connected', got '${first.type}'`);
    return new RaagaSession(socket, first.user_id, options.retry);
  }

  /** Subscribes to one kind of event; returns the unsubscribe function. */
  on<K extends keyof SessionEvents>(event: K, listener: (payload: SessionEvents[K]) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    set.add(listener as (payload: never) => void);
    this.#listeners.set(event, set);
    return () => set.delete(listener as (payload: never) => void);
  }

  configure(config: SessionConfig): Promise<ConfiguredMessage> {
    return this.#ask(this.#configWaiters, { type: 'config', ...config });
  }

  /** Speaks one sentence. Wait for its result before the next (the server refuses overlapping texts). */
  speak(text: string, options: { readonly signal?: AbortSignal } = {}): SpokenUtterance {
    const stream = new UtteranceStream();
    void this.#speakWithRetry(text, stream, options.signal);
    return stream;
  }

  /** Stops the current utterance; resolves with the `cancellation` (sent even when nothing was speaking). */
  cancel(): Promise<CancellationMessage> {
    return this.#ask(this.#cancelWaiters, { type: 'cancel' });
  }

  ping(): Promise<void> {
    return this.#ask(this.#pingWaiters, { type: 'ping' });
  }

  /** Sends `disconnect` and resolves when the server has closed the socket (1000). */
  async close(): Promise<{ code: number; reason: string }> {
    if (!this.#closed && this.#socket.readyState === SOCKET_OPEN) this.#socket.send(JSON.stringify({ type: 'disconnect' }));
    return this.#closedPromise;
  }

  async #speakWithRetry(text: string, stream: UtteranceStream, signal: AbortSignal | undefined): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await new Promise<UtteranceResult>((resolve, reject) => {
          if (this.#closed) throw new RaagaSessionClosedError(this.#closed.code, this.#closed.reason);
          stream.attach({ resolve, reject });
          this.#utterance = stream;
          this.#socket.send(JSON.stringify({ type: 'text', text }));
        });
        stream.finish(result);
        return;
      } catch (error) {
        // Only the limits' refusals are retried: they come before any audio and the connection stays usable.
        const refusal = error instanceof RaagaApiError && !stream.hasAudio && LIMIT_CODES.has(error.code) ? error : undefined;
        const decision = refusal
          ? retryDecision({ status: 429, code: refusal.code, retryAfterSeconds: refusal.retryAfterSeconds, rateLimitResetSeconds: undefined }, attempt, this.#retry)
          : { retry: false as const };
        if (!decision.retry) {
          stream.fail(error as Error);
          return;
        }
        try {
          await this.#retry.sleep(decision.delayMs, signal);
        } catch (aborted) {
          stream.fail(aborted as Error);
          return;
        }
      } finally {
        if (this.#utterance === stream) this.#utterance = undefined;
      }
    }
  }

  #ask<T>(waiters: Waiter<T>[], message: object): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#closed) return reject(new RaagaSessionClosedError(this.#closed.code, this.#closed.reason));
      waiters.push({ resolve, reject });
      this.#socket.send(JSON.stringify(message));
    });
  }

  #receive(data: Uint8Array | string): void {
    if (typeof data !== 'string') {
      const bytes = data;
      this.#utterance?.push(bytes);
      this.#emit('audio', bytes);
      return;
    }
    const message = JSON.parse(data) as ServerMessage;
    switch (message.type) {
      case 'configured':
        this.#configWaiters.shift()?.resolve(message);
        break;
      case 'end_of_utterance':
        this.#utterance?.settle(message);
        break;
      case 'cancellation':
        // One cancellation answers both the cancel and the turn it cut short.
        this.#utterance?.settle(message);
        this.#cancelWaiters.shift()?.resolve(message);
        break;
      case 'pong':
        this.#pingWaiters.shift()?.resolve();
        break;
      case 'error':
        this.#onError(message);
        break;
      case 'connected':
        break;
    }
    this.#emit(message.type, message as never);
  }

  /** An `error` answers the oldest question that can be refused: a config, else the running text. */
  #onError(message: ErrorMessage): void {
    const error = new RaagaApiError(message.error.message, message.error.code, undefined, undefined, message.error.retry_after_seconds);
    const config = this.#configWaiters.shift();
    if (config) config.reject(error);
    else this.#utterance?.settleError(error);
  }

  #emit<K extends keyof SessionEvents>(event: K, payload: SessionEvents[K]): void {
    for (const listener of this.#listeners.get(event) ?? []) (listener as (payload: SessionEvents[K]) => void)(payload);
  }

  #failAll(error: Error): void {
    for (const waiters of [this.#configWaiters, this.#cancelWaiters, this.#pingWaiters] as Waiter<unknown>[][]) {
      for (const waiter of waiters.splice(0)) waiter.reject(error);
    }
    this.#utterance?.settleError(error);
  }
}

/** The frames of one utterance, buffered until iterated; `result` settles once, when the turn ends. */
class UtteranceStream implements SpokenUtterance {
  readonly result: Promise<UtteranceResult>;
  hasAudio = false;
  #frames: Uint8Array[] = [];
  #done = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;
  #turn: Waiter<UtteranceResult> | undefined;
  #resolve!: (result: UtteranceResult) => void;
  #reject!: (error: Error) => void;

  constructor() {
    this.result = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.result.catch(() => undefined); // iterating consumers see the error there; no unhandled rejection
  }

  attach(turn: Waiter<UtteranceResult>): void {
    this.#turn = turn;
  }

  push(bytes: Uint8Array): void {
    this.hasAudio = true;
    this.#frames.push(bytes);
    this.#wake?.();
  }

  settle(result: UtteranceResult): void {
    this.#turn?.resolve(result);
    this.#turn = undefined;
  }

  settleError(error: Error): void {
    if (this.#turn) {
      this.#turn.reject(error);
      this.#turn = undefined;
    } else {
      this.fail(error);
    }
  }

  finish(result: UtteranceResult): void {
    this.#done = true;
    this.#resolve(result);
    this.#wake?.();
  }

  fail(error: Error): void {
    this.#done = true;
    this.#error = error;
    this.#reject(error);
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const frame = this.#frames.shift();
      if (frame) {
        yield frame;
        continue;
      }
      if (this.#error) throw this.#error;
      if (this.#done) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }
}
