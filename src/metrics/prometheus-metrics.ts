// The Prometheus implementation of the metrics port, and the only importer of prom-client: one registry per
// server (so tests can build several apps in one process), rendered in the text format by GET /metrics.

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AudioPath, Metrics, SessionKind } from './metrics.js';

export interface EngineLoad {
  readonly queued: number;
  readonly running: number;
  readonly workers: number;
}

/** Voice activity inferences so far: how many ran, over how many windows (their ratio is the mean batch). */
export interface VadLoad {
  readonly batches: number;
  readonly windows: number;
}

/** What this process holds of admission now (see raaga_admission_held). */
export interface AdmissionHeldCounts {
  /** Its own calls against TELEPHONY_MAX_CALLS. */
  readonly callSlots: number;
  /** Store concurrency slot leases of live requests, sessions and calls. */
  readonly concurrencySlots: number;
  /** Credit reservations not yet settled. */
  readonly creditReservations: number;
}

export interface PrometheusMetricsOptions {
  /** Read at each scrape (the engine's `load()`), so queue depth is never stale. */
  readonly engineLoad?: () => EngineLoad;
  /** Read at each scrape; undefined until the VAD model has loaded. */
  readonly vadLoad?: () => VadLoad | undefined;
  /** Node process metrics (CPU, memory, event loop lag, GC) under their standard names. */
  readonly processMetrics?: boolean;
  /** Read at each scrape: what admission holds now (call slots, concurrency slots, credit reservations). */
  readonly admissionHeld?: () => AdmissionHeldCounts;
  /** Read at each scrape: timers pending on the server's clocks. */
  readonly clockTimers?: () => number;
}

// Seconds: telephony wants first audio well under 300 ms, so the buckets are dense below a second.
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2.5, 5, 10];
// Compute seconds per audio second: below 1 keeps up with real time; the embedded engine runs near 0.05.
const RTF_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 5];

export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  readonly #httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly #httpErrors: Counter<'route' | 'code' | 'status'>;
  readonly #sessionErrors: Counter<'kind' | 'code'>;
  readonly #firstAudio: Histogram<'path'>;
  readonly #rtf: Histogram<'engine'>;
  readonly #audioSeconds: Counter<'engine'>;
  readonly #computeSeconds: Counter<'engine'>;
  readonly #activeSessions: Gauge<'kind'>;
  readonly #bargeIns: Counter<'cause'>;
  readonly #bargeInHolds: Counter<'outcome' | 'reason'>;
  readonly #streamErrors: Counter<'provider' | 'code'>;
  readonly #callRefusals: Counter<'reason' | 'provider'>;
  readonly #credits: Counter;
  readonly #cacheEvents: Counter<'event'>;
  readonly #cacheBytes: Gauge<'tier'>;

  constructor(options: PrometheusMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.#httpRequests = new Counter({
      name: 'raaga_http_requests_total',
      help: 'HTTP responses by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.#httpErrors = new Counter({
      name: 'raaga_http_errors_total',
      help: 'HTTP error envelopes by route pattern, error code and status.',
      labelNames: ['route', 'code', 'status'],
      registers,
    });
    this.#sessionErrors = new Counter({
      name: 'raaga_session_errors_total',
      help: 'Error messages sent on live sessions (WebSocket or call agent) by code; the connection stays open.',
      labelNames: ['kind', 'code'],
      registers,
    });
    this.#firstAudio = new Histogram({
      name: 'raaga_time_to_first_audio_seconds',
      help: 'From the request (HTTP) or the start of a turn (WebSocket, call) to its first audio bytes.',
      labelNames: ['path'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#rtf = new Histogram({
      name: 'raaga_synthesis_real_time_factor',
      help: 'Engine wall time (queue wait included) per second of audio, per clause; below 1 is faster than real time.',
      labelNames: ['engine'],
      buckets: RTF_BUCKETS,
      registers,
    });
    this.#audioSeconds = new Counter({
      name: 'raaga_synthesis_audio_seconds_total',
      help: 'Seconds of audio synthesized by the engine.',
      labelNames: ['engine'],
      registers,
    });
    this.#computeSeconds = new Counter({
      name: 'raaga_synthesis_compute_seconds_total',
      help: 'Engine wall time spent synthesizing (queue wait included); divide by audio seconds for the mean RTF.',
      labelNames: ['engine'],
      registers,
    });
    this.#activeSessions = new Gauge({
      name: 'raaga_active_sessions',
      help: 'Live sessions holding a connection: kind="websocket" (/v1/tts/websocket) or kind="call" (phone calls).',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of ['websocket', 'call'] as const) this.#activeSessions.set({ kind }, 0);
    this.#bargeIns = new Counter({
      name: 'raaga_barge_ins_total',
      help: 'Caller interruptions that stopped the bot on a call, by cause (speech, dtmf).',
      labelNames: ['cause'],
      registers,
    });
    for (const cause of ['speech', 'dtmf'] as const) this.#bargeIns.inc({ cause }, 0);
    this.#bargeInHolds = new Counter({
      name: 'raaga_barge_in_holds_total',
      help: 'Barge-in holds on calls: outcome="held" as each begins, then "resumed" (reason short, verdict, policy) or "committed" (duration, verdict, dtmf, timeout, policy).',
      labelNames: ['outcome', 'reason'],
      registers,
    });
    this.#bargeInHolds.inc({ outcome: 'held', reason: 'suspect' }, 0);
    this.#streamErrors = new Counter({
      name: 'raaga_telephony_stream_errors_total',
      help: 'Media stream failures a provider reported (Twilio stream-error callbacks by error code, Plivo DroppedStream).',
      labelNames: ['provider', 'code'],
      registers,
    });
    this.#callRefusals = new Counter({
      name: 'raaga_call_refusals_total',
      help: 'New calls or media connections this process refused before any audio, by reason (max_calls: TELEPHONY_MAX_CALLS; event_loop_lag: shedding load; pending_streams, pending_per_source: too many connections not yet authenticated) and provider.',
      labelNames: ['reason', 'provider'],
      registers,
    });
    this.#credits = new Counter({ name: 'raaga_credits_consumed_total', help: 'Credits debited from accounts.', registers });
    this.#cacheEvents = new Counter({
      name: 'raaga_prompt_cache_events_total',
      help: 'Prompt cache lookups that hit or missed, and utterances stored or evicted.',
      labelNames: ['event'],
      registers,
    });
    for (const event of ['hit', 'miss', 'store', 'evict'] as const) this.#cacheEvents.inc({ event }, 0);
    this.#cacheBytes = new Gauge({ name: 'raaga_prompt_cache_bytes', help: 'Bytes held by the prompt cache, by tier (memory, disk).', labelNames: ['tier'], registers });
    for (const tier of ['memory', 'disk'] as const) this.#cacheBytes.set({ tier }, 0);
    const vad = options.vadLoad;
    if (vad) {
      new Counter({ name: 'raaga_vad_inferences_total', help: 'Voice activity model runs, each over one window of every call that had one waiting.', registers, collect() { this.reset(); this.inc(vad()?.batches ?? 0); } });
      new Counter({ name: 'raaga_vad_windows_total', help: 'Caller audio windows (32 ms) scored by the voice activity model.', registers, collect() { this.reset(); this.inc(vad()?.windows ?? 0); } });
    }
    const held = options.admissionHeld;
    if (held) {
      new Gauge({
        name: 'raaga_admission_held',
        help:
          'What this process holds of admission now: kind="call_slot" (its calls against TELEPHONY_MAX_CALLS), "concurrency_slot" (store slot leases of live requests, sessions and calls), "credit_reservation" (credit reservations not yet settled). Zero with nothing in flight: a count that stays up is a leak.',
        labelNames: ['kind'],
        registers,
        collect() {
          const now = held();
          this.set({ kind: 'call_slot' }, now.callSlots);
          this.set({ kind: 'concurrency_slot' }, now.concurrencySlots);
          this.set({ kind: 'credit_reservation' }, now.creditReservations);
        },
      });
    }
    const timers = options.clockTimers;
    if (timers) {
      new Gauge({
        name: 'raaga_clock_timers_pending',
        help: "Timers pending on the server's clocks (call pacing, stream watchdogs, barge-in deadlines, idle timeouts): back to its idle level once calls end.",
        registers,
        collect() {
          this.set(timers());
        },
      });
    }
    const load = options.engineLoad;
    if (load) {
      new Gauge({ name: 'raaga_engine_queue_depth', help: 'Synthesis jobs waiting for a worker.', registers, collect() { this.set(load().queued); } });
      new Gauge({ name: 'raaga_engine_jobs_running', help: 'Synthesis jobs running in workers.', registers, collect() { this.set(load().running); } });
      new Gauge({ name: 'raaga_engine_workers', help: 'Live synthesis worker threads.', registers, collect() { this.set(load().workers); } });
    }
  }

  httpResponse(route: string, method: string, status: number, errorCode: string | undefined): void {
    this.#httpRequests.inc({ route, method, status: String(status) });
    if (errorCode !== undefined) this.#httpErrors.inc({ route, code: errorCode, status: String(status) });
  }

  sessionError(kind: SessionKind, code: string): void {
    this.#sessionErrors.inc({ kind, code });
  }

  timeToFirstAudio(path: AudioPath, ms: number): void {
    this.#firstAudio.observe({ path }, ms / 1000);
  }

  synthesized(engine: string, computeMs: number, audioMs: number): void {
    this.#computeSeconds.inc({ engine }, computeMs / 1000);
    this.#audioSeconds.inc({ engine }, audioMs / 1000);
    if (audioMs > 0) this.#rtf.observe({ engine }, computeMs / audioMs);
  }

  sessionOpened(kind: SessionKind): void {
    this.#activeSessions.inc({ kind });
  }

  sessionClosed(kind: SessionKind): void {
    this.#activeSessions.dec({ kind });
  }

  bargeIn(cause: string): void {
    this.#bargeIns.inc({ cause });
  }

  bargeInHold(outcome: 'held' | 'resumed' | 'committed', reason: string): void {
    this.#bargeInHolds.inc({ outcome, reason });
  }

  telephonyStreamError(provider: string, code: string): void {
    this.#streamErrors.inc({ provider, code });
  }

  callRefused(provider: string, reason: string): void {
    this.#callRefusals.inc({ reason, provider });
  }

  promptCache(event: string): void {
    this.#cacheEvents.inc({ event });
  }

  promptCacheBytes(memoryBytes: number, diskBytes: number): void {
    this.#cacheBytes.set({ tier: 'memory' }, memoryBytes);
    this.#cacheBytes.set({ tier: 'disk' }, diskBytes);
  }

  creditsConsumed(credits: number): void {
    if (credits > 0) this.#credits.inc(credits);
  }

  /** The Prometheus text exposition of every metric. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
