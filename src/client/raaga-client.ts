// The HTTP side of the Raaga client: voices, generate (whole file) and stream (an async iterator of audio chunks),
// each attempt retried by the spec's guidance (retry.ts); and the door to WebSocket sessions.

import { RaagaApiError } from './errors.js';
import { DEFAULT_RETRY_OPTIONS, retryDecision, type RetryOptions } from './retry.js';
import type { SynthesisRequest, SynthesisResult, VoicesByLanguage, VoicesByVoice } from './types.js';
import { RaagaSession, type SessionOptions } from './websocket-session.js';

export interface RaagaClientOptions {
  /** e.g. http://localhost:8080 */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly retry?: Partial<RetryOptions>;
  /** Defaults to the global fetch (Node 20+). */
  readonly fetch?: typeof fetch;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Sent as X-Request-Id (the server echoes it and puts it in error envelopes). */
  readonly requestId?: string;
}

export interface GenerateResult extends SynthesisResult {
  /** `audio` decoded. */
  readonly bytes: Uint8Array;
  readonly requestId: string | undefined;
}

/** What the stream's headers say, before the first chunk. */
export interface StreamInfo {
  readonly requestId: string | undefined;
  readonly charactersUsed: number;
  /** The server's estimate from the text length (the exact figure is a trailer fetch cannot read). */
  readonly estimatedDurationSeconds: number | undefined;
}

export interface StreamOptions extends CallOptions {
  readonly onResponse?: (info: StreamInfo) => void;
}

export class RaagaClient {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #retry: RetryOptions;
  readonly #fetch: typeof fetch;

  constructor(options: RaagaClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
    this.#fetch = options.fetch ?? fetch;
  }

  voices(groupBy?: 'language', options?: CallOptions): Promise<VoicesByLanguage>;
  voices(groupBy: 'voice', options?: CallOptions): Promise<VoicesByVoice>;
  async voices(groupBy: 'language' | 'voice' = 'language', options: CallOptions = {}): Promise<VoicesByLanguage | VoicesByVoice> {
    const response = await this.#request('GET', `/v1/voices?group_by=${groupBy}`, undefined, options);
    return (await response.json()) as VoicesByLanguage | VoicesByVoice;
  }

  async generate(request: SynthesisRequest, options: CallOptions = {}): Promise<GenerateResult> {
    const response = await this.#request('POST', '/v1/tts/generate', request, options);
    const result = (await response.json()) as SynthesisResult;
    return { ...result, bytes: fromBase64(result.audio), requestId: response.headers.get('x-request-id') ?? undefined };
  }

  /**
   * Raw audio chunks as the server produces them. Refusals (and their retries) happen before the first chunk;
   * breaking out of the loop cancels the request (the server then bills only the chunks already synthesized).
   */
  async *stream(request: SynthesisRequest, options: StreamOptions = {}): AsyncGenerator<Uint8Array, void, undefined> {
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const response = await this.#request('POST', '/v1/tts/stream', request, { ...options, signal });
    const estimate = response.headers.get('x-audio-duration-estimate-seconds');
    options.onResponse?.({
      requestId: response.headers.get('x-request-id') ?? undefined,
      charactersUsed: Number(response.headers.get('x-characters-used') ?? 0),
      estimatedDurationSeconds: estimate === null ? undefined : Number(estimate),
    });
    if (!response.body) return;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.byteLength > 0) yield value;
      }
    } finally {
      controller.abort();
      reader.releaseLock();
    }
  }

  /** Opens /v1/tts/websocket and waits for `connected`; `configure` it next. */
  session(options: Omit<SessionOptions, 'url' | 'apiKey' | 'retry'> = {}): Promise<RaagaSession> {
    const url = `${this.#baseUrl.replace(/^http/, 'ws')}/v1/tts/websocket`;
    return RaagaSession.connect({ ...options, url, apiKey: this.#apiKey, retry: this.#retry });
  }

  async #request(method: 'GET' | 'POST', path: string, body: unknown, options: CallOptions): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.requestId) headers['x-request-id'] = options.requestId;
    for (let attempt = 0; ; attempt++) {
      const response = await this.#fetch(`${this.#baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (response.ok) return response;
      const error = await errorFrom(response);
      const decision = retryDecision(
        {
          status: response.status,
          code: error.code,
          retryAfterSeconds: error.retryAfterSeconds,
          rateLimitResetSeconds: numberHeader(response, 'x-ratelimit-reset'),
        },
        attempt,
        this.#retry,
      );
      if (!decision.retry) throw error;
      await this.#retry.sleep(decision.delayMs, options.signal);
    }
  }
}

function numberHeader(response: Response, name: string): number | undefined {
  const raw = response.headers.get(name);
  const value = raw === null ? NaN : Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

async function errorFrom(response: Response): Promise<RaagaApiError> {
  const text = await response.text();
  let envelope: { error?: { code?: unknown; message?: unknown; request_id?: unknown } } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  const error = envelope?.error;
  const requestId = typeof error?.request_id === 'string' ? error.request_id : (response.headers.get('x-request-id') ?? undefined);
  return new RaagaApiError(
    typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
    typeof error?.code === 'string' ? error.code : 'http_error',
    response.status,
    requestId,
    numberHeader(response, 'retry-after'),
  );
}

/** Base64 to bytes with what browsers and Node both have (no Buffer). */
function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
