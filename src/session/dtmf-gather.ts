// Collecting keys without an agent, the way Twilio's <Gather> does but with the media stream kept up: an optional
// prompt, then digits until the finish key, the digit count, or a timeout. The first-digit timeout starts when the
// prompt is over (played, cut or refused); each key restarts the inter-digit timeout. One gather at a time per call:
// a new one ends the running one (`replaced`), as does the call's end (`hangup`). Results stay readable for a while
// after they are decided (the REST long-poll may arrive late). Pure state on the injected clock; the call session
// gives it the requests, keys and utterance ends, speaks its prompts, and says the result to whoever asked.

import type { CallGather } from '../call-commands.js';
import type { Clock, ClockTimer } from './clock.js';

export interface GatherSpec {
  readonly gatherId: string;
  /** Stop after this many digits (the finish key does not count); undefined: until the finish key or a timeout. */
  readonly numDigits: number | undefined;
  /** The key that ends the input (not part of the digits); '' for none. */
  readonly finishOnKey: string;
  /** Waiting for the first key once the prompt is over. */
  readonly timeoutMs: number;
  /** Waiting for each later key. */
  readonly interDigitTimeoutMs: number;
}

/** What a caller of CallSession.gather asks for: the spec, an optional prompt, and whether a key may cut it. */
export type GatherRequest = CallGather;

/** Why a gather ended: the finish key, num_digits reached, no key in time, a newer gather, or the call's end. */
export const GATHER_REASONS = ['finish_key', 'max_digits', 'timeout', 'replaced', 'hangup'] as const;
export type GatherReason = (typeof GATHER_REASONS)[number];

export interface GatherResult {
  readonly gatherId: string;
  readonly digits: string;
  readonly reason: GatherReason;
}

export const GATHER_DEFAULTS = { finishOnKey: '#', timeoutMs: 5000, interDigitTimeoutMs: 3000 } as const;
/** Decided gathers a call keeps for late readers. */
export const GATHER_RESULTS_KEPT = 32;

interface Running {
  readonly spec: GatherSpec;
  digits: string;
  /** The prompt is still playing: keys are taken, but the first-digit clock has not started. */
  prompting: boolean;
  /** The first key cuts the prompt. */
  readonly promptInterruptible: boolean;
  timer: ClockTimer | undefined;
}

export class DtmfGather {
  #running: Running | undefined;
  /** Gathers asked for without an id so far: they are named gather_1, gather_2… */
  #unnamed = 0;
  readonly #results = new Map<string, GatherResult>();
  readonly #waiters = new Map<string, ((result: GatherResult) => void)[]>();

  constructor(
    private readonly clock: Clock,
    /** A gather was decided: tell the agent (and any other listener). */
    private readonly onResult: (result: GatherResult) => void,
  ) {}

  /** The running gather's id, if any. */
  get active(): string | undefined {
    return this.#running?.spec.gatherId;
  }

  /** True while a running gather's prompt plays. */
  get prompting(): boolean {
    return this.#running?.prompting === true;
  }

  /** The id a request's gather goes by: its own, or the next gather_<n>. */
  idFor(request: GatherRequest): string {
    return request.gatherId ?? `gather_${++this.#unnamed}`;
  }

  /**
   * Starts the gather `request` asks for, as `gatherId`; returns its prompt when there is one to speak first (with
   * the gather's id as its utterance id, so that its end reaches utteranceOver()).
   */
  begin(gatherId: string, request: GatherRequest): string | undefined {
    const { prompt, interruptible } = request;
    const prompting = prompt !== undefined && prompt.trim() !== '';
    const spec = { gatherId, numDigits: request.numDigits, finishOnKey: request.finishOnKey, timeoutMs: request.timeoutMs, interDigitTimeoutMs: request.interDigitTimeoutMs };
    this.start(spec, prompting ? { interruptible } : undefined);
    return prompting ? prompt : undefined;
  }

  /** An utterance is over (played, cut or refused): when it was a gather's prompt, the caller's turn to type. */
  utteranceOver(utteranceId: string | null | undefined): void {
    if (utteranceId) this.promptOver(utteranceId);
  }

  /**
   * Starts a gather; with a `prompt` (its utterance id is the gather's), the clock waits for promptOver(). Ends a
   * running one as `replaced`.
   */
  start(spec: GatherSpec, prompt: { readonly interruptible: boolean } | undefined): void {
    if (this.#running) this.#finish('replaced');
    const running: Running = { spec, digits: '', prompting: prompt !== undefined, promptInterruptible: prompt?.interruptible === true, timer: undefined };
    this.#running = running;
    if (!prompt) this.#wait(spec.timeoutMs);
  }

  /** The running gather's prompt has finished (played, cut or refused): the caller's turn. */
  promptOver(gatherId: string): void {
    const running = this.#running;
    if (!running || running.spec.gatherId !== gatherId || !running.prompting) return;
    running.prompting = false;
    if (running.timer === undefined) this.#wait(running.digits === '' ? running.spec.timeoutMs : running.spec.interDigitTimeoutMs);
  }

  /**
   * A key: `cut-prompt` when it is the first key over an interruptible prompt (the caller stops it), `taken` when the
   * gather took it otherwise, `none` when no gather is running (the key is the call's as before).
   */
  key(digit: string): 'cut-prompt' | 'taken' | 'none' {
    const running = this.#running;
    if (!running) return 'none';
    const cut = running.prompting && running.promptInterruptible;
    running.prompting = false;
    if (running.spec.finishOnKey !== '' && digit === running.spec.finishOnKey) this.#finish('finish_key');
    else {
      running.digits += digit;
      if (running.spec.numDigits !== undefined && running.digits.length >= running.spec.numDigits) this.#finish('max_digits');
      else this.#wait(running.spec.interDigitTimeoutMs);
    }
    return cut ? 'cut-prompt' : 'taken';
  }

  /** The call ended: a running gather ends with what it had. */
  callEnded(): void {
    if (this.#running) this.#finish('hangup');
  }

  /** The result of `gatherId` when decided; `pending` while it runs; undefined when unknown (or long forgotten). */
  result(gatherId: string): GatherResult | 'pending' | undefined {
    if (this.#running?.spec.gatherId === gatherId) return 'pending';
    return this.#results.get(gatherId);
  }

  /** Resolves with the result once decided (at once when it is); undefined when the gather is unknown. */
  whenDecided(gatherId: string): Promise<GatherResult> | undefined {
    const known = this.result(gatherId);
    if (known === undefined) return undefined;
    if (known !== 'pending') return Promise.resolve(known);
    return new Promise((resolve) => {
      const list = this.#waiters.get(gatherId) ?? [];
      list.push(resolve);
      this.#waiters.set(gatherId, list);
    });
  }

  #wait(ms: number): void {
    const running = this.#running;
    if (!running) return;
    if (running.timer !== undefined) this.clock.clearTimeout(running.timer);
    running.timer = this.clock.setTimeout(() => {
      if (this.#running === running) this.#finish('timeout');
    }, ms);
  }

  #finish(reason: GatherReason): void {
    const running = this.#running;
    if (!running) return;
    if (running.timer !== undefined) this.clock.clearTimeout(running.timer);
    this.#running = undefined;
    const result: GatherResult = { gatherId: running.spec.gatherId, digits: running.digits, reason };
    this.#results.set(result.gatherId, result);
    while (this.#results.size > GATHER_RESULTS_KEPT) this.#results.delete(this.#results.keys().next().value as string);
    for (const resolve of this.#waiters.get(result.gatherId) ?? []) resolve(result);
    this.#waiters.delete(result.gatherId);
    this.onResult(result);
  }
}
