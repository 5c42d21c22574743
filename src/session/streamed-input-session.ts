// A streamed-input socket: several contexts (streamed-context.ts), each opened by its first text and closable on its
// own, so an agent framework barges in by closing one context and opening the next. The socket holds one concurrency
// slot from its first context until it closes; each segment is admitted (rate window and credits) like a text on
// /v1/tts/websocket. It closes after `idleTimeoutMs` with no client message while nothing is being spoken, and when
// the server drains, once nothing is being spoken. The wire dialect (ElevenLabs') lives in api/elevenlabs/.

import type { Ticket, UsageSource } from '../core/admission.js';
import type { Account } from '../store/store.js';
import { ApiError } from '../errors.js';
import type { Clock } from './clock.js';
import { CLOSE_CODES } from './close-codes.js';
import { IdleTimer } from './idle-timer.js';
import type { SessionLogger } from './synthesis-session.js';
import type { SessionServices } from './session-services.js';
import { StreamedContext, type ContextAudio, type ContextOutput, type StreamedContextLimits } from './streamed-context.js';

/** Ended context ids a socket remembers: a client reusing an older one than these simply opens a new context. */
const MAX_ENDED_IDS = 1024;

export interface StreamedInputLimits extends StreamedContextLimits {
  /** Contexts open at once on one socket. */
  readonly maxContexts: number;
  readonly idleTimeoutMs: number;
  /** Client messages waiting to be handled beyond which the client is flooding: close 1008. */
  readonly maxPendingEvents: number;
}

export interface StreamedInputDeps {
  readonly account: Account;
  readonly services: SessionServices;
  readonly clock: Clock;
  readonly logger: SessionLogger;
  readonly limits: StreamedInputLimits;
  readonly usage: Pick<UsageSource, 'keyId' | 'endpoint'>;
  readonly promptCache: boolean;
  /** The socket's audio settings; a context may set its own speed. */
  readonly audio: ContextAudio;
}

/** The socket under the session: the context events plus its own close. */
export interface StreamedInputSocket extends Omit<ContextOutput, 'fatal' | 'idle'> {
  close(code: number, reason: string): void;
}

export class StreamedInputSession {
  readonly #contexts = new Map<string, StreamedContext>();
  /** Ids of contexts that ended (the latest ones): text for one is refused rather than opening it again. */
  readonly #ended = new Set<string>();
  #slot: Ticket | undefined;
  #slotPending: Promise<Ticket> | undefined;
  #closed = false;
  #draining = false;
  readonly #idle: IdleTimer;
  readonly #done: Promise<void>;
  /** Client messages are handled one at a time, in order (a new context waits for the slot). */
  #queue: Promise<void> = Promise.resolve();
  #pending = 0;
  #resolveDone: () => void = () => undefined;
  readonly #onShutdown = (): void => this.close(CLOSE_CODES.sessionLost, 'server shutting down; reconnect');

  constructor(
    private readonly deps: StreamedInputDeps,
    private readonly socket: StreamedInputSocket,
  ) {
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    const seconds = Math.round(deps.limits.idleTimeoutMs / 1000);
    this.#idle = new IdleTimer(deps.clock, deps.limits.idleTimeoutMs, () =>
      this.close(CLOSE_CODES.policyViolation, `no text received within ${seconds} s (inactivity_timeout); reconnect to speak again`),
    );
  }

  /** Resolves once the socket is closed and its slot and every segment's credits are settled. */
  get closed(): Promise<void> {
    return this.#done;
  }

  open(): void {
    const { shutdown } = this.deps.services;
    if (shutdown?.aborted) return this.#onShutdown();
    shutdown?.addEventListener('abort', this.#onShutdown, { once: true });
    this.#idle.arm();
  }

  /**
   * Text for a context (`flush`: release what waits). A new id opens the context (its first text is often " "),
   * taking the socket's slot first if this is its first. Refusals come back as the context's `failed`.
   */
  text(contextId: string, text: string, options: { readonly flush: boolean; readonly speed?: number; readonly lexicons?: readonly string[] }): void {
    this.#enqueue(async () => {
      const existing = this.#contexts.get(contextId);
      const context = existing ?? (await this.#openContext(contextId, options));
      if (!context) return;
      this.#act(context, () => {
        // The text that opens a context is often ElevenLabs' " " (its initialisation), not speech.
        const speech = existing === undefined && text.trim() === '' ? '' : text;
        if (speech.length > 0) context.append(speech);
        if (options.flush) context.flush();
      });
    });
  }

  /** A flush alone. An unknown context is an error of that context. */
  flush(contextId: string): void {
    this.#enqueue(() => this.#onKnown(contextId, (context) => context.flush()));
  }

  /** Ends one context: what was flushed plays out, then its `final`. */
  closeContext(contextId: string): void {
    this.#enqueue(() => this.#onKnown(contextId, (context) => context.close()));
  }

  /** A client message that carries nothing to speak (ElevenLabs' keep-alive): restarts the inactivity countdown. */
  keepAlive(): void {
    this.#touch();
  }

  /** A message that could not be read: refused for its context (or the socket's first context when none is named). */
  invalid(contextId: string | undefined, error: ApiError): void {
    this.#enqueue(() => this.socket.failed(contextId ?? '', error));
  }

  #enqueue(task: () => Promise<void> | void): void {
    if (this.#closed) return;
    this.#touch();
    if (this.#pending >= this.deps.limits.maxPendingEvents) {
      this.close(CLOSE_CODES.policyViolation, 'too many messages in flight');
      return;
    }
    this.#pending++;
    this.#queue = this.#queue
      .then(() => (this.#closed ? undefined : task()))
      .catch((error: unknown) => {
        this.deps.logger.error({ err: error }, 'streamed-input message failed');
        this.close(CLOSE_CODES.internalError, 'internal server error');
      })
      .finally(() => this.#pending--);
  }

  /** The server drains: close now if nothing is being spoken, else once it is. */
  beginShutdown(): void {
    this.#draining = true;
    this.#closeIfDrained();
  }

  peerClosed(): void {
    this.close(CLOSE_CODES.normal, 'client closed');
  }

  close(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#idle.disarm();
    this.deps.services.shutdown?.removeEventListener('abort', this.#onShutdown);
    this.socket.close(code, reason);
    void this.#releaseAll(reason);
  }

  async #releaseAll(reason: string): Promise<void> {
    await this.#queue;
    await Promise.all([...this.#contexts.values()].map((context) => context.abort(reason)));
    try {
      const slot = this.#slot ?? (await this.#slotPending?.catch(() => undefined));
      await slot?.release();
    } catch (error) {
      this.deps.logger.error({ err: error }, 'streamed-input slot release failed');
    }
    this.#resolveDone();
  }

  #onKnown(contextId: string, action: (context: StreamedContext) => void): void {
    const context = this.#contexts.get(contextId);
    if (context) return this.#act(context, () => action(context));
    this.socket.failed(contextId, new ApiError('validation_error', `No open context '${contextId}'; send text with this context_id first to open it.`));
  }

  /** Runs a client action on a context; its refusal is that context's error, and a closed context leaves the map. */
  #act(context: StreamedContext, action: () => void): void {
    try {
      action();
    } catch (error) {
      if (error instanceof ApiError) this.socket.failed(context.id, error);
      else throw error;
    }
    this.#idleUnlessBusy();
  }

  /** A new context, with the speed and lexicons its first message set (the socket's otherwise). */
  async #openContext(contextId: string, { speed, lexicons }: { readonly speed?: number; readonly lexicons?: readonly string[] }): Promise<StreamedContext | undefined> {
    if (this.#closed) return undefined;
    if (this.#ended.has(contextId)) {
      this.socket.failed(contextId, new ApiError('validation_error', `Context '${contextId}' is closed; open a new context_id to speak again.`));
      return undefined;
    }
    if (this.#draining) {
      this.socket.failed(contextId, new ApiError('validation_error', 'The server is shutting down; reconnect to open a new context.'));
      return undefined;
    }
    this.#forgetEnded();
    if (this.#contexts.size >= this.deps.limits.maxContexts) {
      this.socket.failed(
        contextId,
        new ApiError('validation_error', `This socket already has ${this.#contexts.size} open contexts (at most ${this.deps.limits.maxContexts}); close one first.`),
      );
      return undefined;
    }
    try {
      await this.#takeSlot();
    } catch (error) {
      if (error instanceof ApiError) this.socket.failed(contextId, error);
      else throw error;
      return undefined;
    }
    if (this.#closed) return undefined;
    // Two texts for a new id may both have waited for the slot.
    const existing = this.#contexts.get(contextId);
    if (existing) return existing;
    const audio = { ...this.deps.audio, ...(speed !== undefined ? { speed } : {}), ...(lexicons !== undefined ? { lexicons } : {}) };
    const context = new StreamedContext(contextId, audio, {
      account: this.deps.account,
      services: this.deps.services,
      clock: this.deps.clock,
      limits: this.deps.limits,
      usage: this.deps.usage,
      promptCache: this.deps.promptCache,
      output: {
        audio: (id, bytes, alignment, span) => this.socket.audio(id, bytes, alignment, span),
        final: (id) => {
          this.socket.final(id);
          this.#forget(id);
          this.#idleUnlessBusy();
          this.#closeIfDrained();
        },
        failed: (id, error) => {
          this.socket.failed(id, error);
          this.#forget(id);
          this.#idleUnlessBusy();
          this.#closeIfDrained();
        },
        fatal: (code, reason) => this.close(code, reason),
        idle: () => {
          this.#idleUnlessBusy();
          this.#closeIfDrained();
        },
        bufferedBytes: () => this.socket.bufferedBytes(),
      },
      onError: (error) => {
        this.deps.logger.error({ err: error }, 'streamed-input context failed');
        this.close(CLOSE_CODES.internalError, 'internal server error');
      },
    });
    this.#contexts.set(contextId, context);
    return context;
  }

  async #takeSlot(): Promise<void> {
    if (this.#slot) return;
    this.#slotPending ??= this.deps.services.admission.admit({ account: this.deps.account, countRate: false, takeSlot: true, credits: 0 });
    try {
      const slot = await this.#slotPending;
      if (this.#slot === slot) return;
      this.#slot = slot;
      slot.lost.addEventListener('abort', () => this.close(CLOSE_CODES.sessionLost, 'concurrency slot lost; reconnect'), { once: true });
      if (this.#closed) await slot.release();
    } catch (error) {
      // A refused slot is asked for again by the next context.
      this.#slotPending = undefined;
      throw error;
    }
  }

  #forgetEnded(): void {
    for (const [id, context] of this.#contexts) if (context.ended) this.#forget(id);
  }

  /** A context that ended leaves the map; its id is remembered (the latest MAX_ENDED_IDS) so it cannot be reopened. */
  #forget(contextId: string): void {
    this.#contexts.delete(contextId);
    this.#ended.add(contextId);
    if (this.#ended.size > MAX_ENDED_IDS) this.#ended.delete(this.#ended.values().next().value as string);
  }

  #touch(): void {
    if (this.#idle.armed) this.#idle.arm();
  }

  /** The inactivity countdown runs only while nothing is being spoken. */
  #idleUnlessBusy(): void {
    if (this.#closed) return;
    const busy = [...this.#contexts.values()].some((context) => context.busy);
    if (busy) this.#idle.disarm();
    else if (!this.#idle.armed) this.#idle.arm();
  }

  #closeIfDrained(): void {
    if (!this.#draining || this.#closed) return;
    if ([...this.#contexts.values()].some((context) => context.busy)) return;
    this.close(CLOSE_CODES.sessionLost, 'server shutting down; reconnect');
  }
}
