// Composition root: builds the store, engine, catalog and services from a Config with plain constructors.
// Tests pass overrides (a store on a temp dir, a smaller engine) and get the same wiring the server runs.

import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AppDeps } from './app.js';
import { buildVoiceEngine } from './build-voice-engine.js';
import type { Config } from './config.js';
import { Admission } from './core/admission.js';
import { PromptCache } from './core/synthesis/prompt-cache.js';
import { PROMPT_CACHE_DIR, PromptCacheDisk } from './core/synthesis/prompt-cache-disk.js';
import { SynthesisService } from './core/synthesis/synthesis-service.js';
import { LexiconLibrary } from './core/lexicons/lexicon-library.js';
import { loadVoiceCatalog, type VoiceCatalog } from './core/voice-catalog.js';
import { VoiceResolver } from './core/voice-resolver.js';
import { EncoderThreads } from './engine/encoder-threads.js';
import { withMetrics } from './engine/metered-engine.js';
import type { TtsEngine } from './engine/tts-engine.js';
import type { EngineBuildDirs } from './engine/build-record-check.js';
import type { Metrics } from './metrics/metrics.js';
import { PrometheusMetrics, type AdmissionHeldCounts, type VadLoad } from './metrics/prometheus-metrics.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/store.js';
import type { TelephonyContext } from './api/context.js';
import { isLoopbackHost } from './api/metrics-access.js';
import type { VoiceActivityDetectorFactory } from './session/barge-in/barge-in-contract.js';
import { BargeInDetectorFactory } from './session/barge-in/barge-in-detector.js';
import { SileroBatcher } from './engine/vad/silero-batcher.js';
import { SileroVad } from './engine/vad/silero-vad.js';
import { pendingClockTimers } from './session/clock.js';
import { InProcessCallControlBus, type CallControlBus } from './store/call-control-bus.js';
import { RedisCallControlBus } from './store/redis/call-control-bus.js';
import { loadCallTokenSecret } from './telephony/call-token.js';
import { DestinationPolicy, type Resolver } from './telephony/destination/destination-policy.js';
import { DoNotCallList } from './telephony/outbound/compliance.js';
import { OutboundCalls } from './telephony/outbound/outbound-calls.js';
import { StatusWebhooks } from './telephony/outbound/status-webhooks.js';
import { CallAdmission } from './telephony/call-admission.js';
import { EventLoopLagMonitor, type EventLoopLag } from './util/event-loop-lag.js';

export interface Deps extends AppDeps {
  readonly config: Config;
  readonly engine: TtsEngine;
  /** Abort to cancel every in-flight synthesis (end of the shutdown grace period). */
  readonly shutdownController: AbortController;
  /** Abort when the drain begins (SIGTERM): ApiContext.draining. */
  readonly drainController: AbortController;
  /** Abort when the call drain limit is over: ApiContext.callsEnding. */
  readonly callsEndingController: AbortController;
  /** Call once the server listens: the event-loop lag monitor starts, so start-up work never sheds a call. */
  startLagMonitor(): void;
  /** Stops the engine and flushes the store. */
  close(): Promise<void>;
}

export interface DepsOverrides {
  readonly store?: Store;
  readonly engine?: TtsEngine;
  readonly catalog?: VoiceCatalog;
  /** Voice activity detection for calls; null: none (speech barge-in off). Default: Silero VAD. */
  readonly vad?: VoiceActivityDetectorFactory | null;
  /** Epoch ms for outbound calls (calling hours, records, webhook signatures). Default: Date.now. */
  readonly wallClock?: () => number;
  /** How tenant-given hosts resolve (tests: a name that resolves inside the network). Default: the system resolver. */
  readonly resolveHost?: Resolver;
  /** The event loop's lag as call admission reads it (tests: a settable one). Default: the process's own, measured. */
  readonly eventLoopLag?: EventLoopLag;
  /** Engine build directories checked against their BUILD.json in place of the engines' own (tests: a broken copy). */
  readonly engineBuildDirs?: EngineBuildDirs;
}

/**
 * Phone calls: the call-token secret, the call-control bus (Redis pub/sub when REDIS_URL is set) and VAD; with them,
 * the VAD batcher's counters once its model has loaded (metrics).
 */
async function buildTelephony(config: Config, logger: Logger, store: Store, overrides: DepsOverrides): Promise<[Omit<TelephonyContext, 'callAdmission'>, () => VadLoad | undefined]> {
  const { secret, source } = loadCallTokenSecret(config.telephony.callTokenSecret, config.dataDir);
  if (source === 'generated') logger.info({ file: 'call-token.secret' }, 'generated a call-token secret in the data dir');
  if (source !== 'config' && config.redisUrl !== undefined) {
    logger.warn({}, 'RAAGA_CALL_TOKEN_SECRET is unset with REDIS_URL: call tokens verify only on the instance that issued them');
  }
  const calls: CallControlBus =
    config.redisUrl === undefined
      ? new InProcessCallControlBus()
      : await RedisCallControlBus.connect({
          url: config.redisUrl,
          keyPrefix: config.redisKeyPrefix,
          cluster: config.redisCluster,
          commandTimeoutMs: config.redisCommandTimeoutMs,
          connectTimeoutMs: config.redisConnectTimeoutMs,
        });
  let vad = overrides.vad === null ? undefined : overrides.vad;
  let batcher: SileroBatcher | undefined;
  if (overrides.vad === undefined) {
    // Every call's windows go through one batcher: one inference per event-loop turn (at most every 4 ms) for all of them.
    const loaded = SileroVad.load().then((silero) => {
      batcher = new SileroBatcher(silero, { onError: (error) => logger.error({ err: error }, 'VAD inference failed; its windows counted as silence') });
      return batcher;
    });
    const factory = new BargeInDetectorFactory(loaded);
    factory.ready().catch((error: unknown) => logger.warn({ err: error }, 'VAD model failed to load; speech barge-in is off'));
    vad = factory;
  }
  const { outbound: outboundConfig } = config.telephony;
  const now = overrides.wallClock ?? Date.now;
  const destinations = new DestinationPolicy(config.telephony.allowedPrivateDestinations, overrides.resolveHost);
  const outbound = new OutboundCalls({
    store,
    destinations,
    webhooks: new StatusWebhooks({
      retryBaseMs: outboundConfig.webhookRetryBaseMs,
      destinations,
      now,
      onGiveUp: (eventId, lastError) => logger.warn({ eventId, lastError }, 'status webhook not taken after every retry; the sweep sends it again later'),
      onTaskError: (callId, error) => logger.warn({ callId, err: error }, 'status webhook delivery stopped by an error; the sweep sends what is owed later'),
    }),
    doNotCall: new DoNotCallList(outboundConfig.dncFile),
    urlSecret: secret,
    maxDialWaitMs: outboundConfig.maxDialWaitMs,
    dialTimeoutMs: outboundConfig.dialTimeoutMs,
    maxCallsPerDay: outboundConfig.maxCallsPerDay,
    now,
    log: (fields, message) => logger.info(fields, message),
  });
  outbound.startSweeping(outboundConfig.webhookSweepMs);
  const context = { config: config.telephony, callTokenSecret: secret, calls, vad, outbound, destinations };
  return [context, () => batcher?.stats];
}

/** Longest chunk after the first: long sentences are cut at clause marks beyond this (code points). */
const MAX_CHUNK_CHARS = 300;

export function catalogPath(config: Config): string {
  return join(config.modelsDir, 'raaga-v1', 'manifest.json');
}

/** The prompt cache: memory always (unless sized 0), disk when PROMPT_CACHE_DISK_BYTES is set. */
async function buildPromptCache(config: Config, metrics: Metrics): Promise<PromptCache> {
  const holder: { cache?: PromptCache } = {};
  const onEvent = (event: string): void => {
    metrics.promptCache(event);
    if (holder.cache) metrics.promptCacheBytes(holder.cache.bytes, holder.cache.diskBytes);
  };
  const disk =
    config.promptCacheDiskBytes > 0 ? await PromptCacheDisk.open({ dir: join(config.dataDir, PROMPT_CACHE_DIR), maxBytes: config.promptCacheDiskBytes, onEvent }) : undefined;
  holder.cache = new PromptCache({ maxBytes: config.promptCacheMaxBytes, disk, onEvent, sharedAcrossAccounts: config.promptCacheShared });
  metrics.promptCacheBytes(holder.cache.bytes, holder.cache.diskBytes);
  return holder.cache;
}

export async function buildDeps(config: Config, logger: Logger, overrides: DepsOverrides = {}): Promise<Deps> {
  const catalog = overrides.catalog ?? loadVoiceCatalog(catalogPath(config));
  // First: an embedded engine whose build does not match its BUILD.json refuses the start before anything is opened.
  const engine = overrides.engine ?? (await buildVoiceEngine(config, catalog, logger, { buildDirs: overrides.engineBuildDirs }));
  const store =
    overrides.store ??
    (await openStore(config, (event) =>
      event.type === 'reconnecting'
        ? logger.debug({ redis: event }, 'store reconnecting')
        : logger[event.type === 'error' ? 'warn' : 'info']({ redis: event }, event.type === 'error' ? 'store connection error' : 'store connected'),
    ));
  const encoders = new EncoderThreads({
    threads: config.ttsEncoderThreads,
    niceness: config.ttsWorkerNice,
    onExit: (event) => logger.warn({ encoderEvent: event }, 'encoder thread exited; replaced'),
  });
  await encoders.start();
  const shutdownController = new AbortController();
  const drainController = new AbortController();
  const callsEndingController = new AbortController();
  // Every in-flight request, session and call listens on them (and removes its listener when done): no leak at 11+.
  setMaxListeners(0, shutdownController.signal, callsEndingController.signal);
  const [telephonyParts, vadLoad] = await buildTelephony(config, logger, store, overrides);
  const metrics = new PrometheusMetrics({
    engineLoad: () => engine.load(),
    vadLoad,
    processMetrics: true,
    // Read at scrape time, once both admissions below exist.
    admissionHeld: (): AdmissionHeldCounts => {
      const held = services.admission.held();
      return { callSlots: callAdmission.liveCalls, concurrencySlots: held.slots, creditReservations: held.reservations };
    },
    clockTimers: pendingClockTimers,
  });
  const lagMonitor = overrides.eventLoopLag === undefined ? new EventLoopLagMonitor() : undefined;
  const callAdmission = new CallAdmission({
    config: config.telephony.admission,
    lag: overrides.eventLoopLag ?? lagMonitor!,
    now: () => performance.now(),
    metrics,
    log: (level, fields, message) => logger[level](fields, message),
  });
  const telephony: TelephonyContext = { ...telephonyParts, callAdmission };
  const promptCache = await buildPromptCache(config, metrics);
  const services = {
    admission: new Admission(store, {
      slotLeaseMs: config.slotLeaseMs,
      reservationTtlMs: config.reservationTtlMs,
      onCreditsDebited: (credits) => metrics.creditsConsumed(credits),
    }),
    voices: new VoiceResolver(catalog, store),
    // Metered here, not in `engine`: tests reach the raw engine through deps.engine (e.g. to kill a worker).
    synthesis: new SynthesisService(
      withMetrics(engine, metrics),
      { firstChunkMaxChars: config.firstChunkMaxChars, maxChunkChars: MAX_CHUNK_CHARS },
      promptCache,
      encoders.pipelines,
      // Each instance's copy of the accounts' lexicons, refreshed from the store's version (lexicon-library.ts).
      new LexiconLibrary(store),
    ),
    shutdown: shutdownController.signal,
  };
  return {
    config,
    logger,
    store,
    engine,
    catalog,
    ...services,
    // Every session and call gets these as one object.
    services,
    shutdownController,
    drainController,
    callsEndingController,
    draining: drainController.signal,
    callsEnding: callsEndingController.signal,
    maxBodyBytes: config.maxBodyBytes,
    openAiVoiceAliases: config.openAiVoiceAliases,
    httpTimeouts: config.httpTimeouts,
    webSocket: { maxPayloadBytes: config.wsMaxPayloadBytes },
    metrics,
    // With METRICS_PORT the API's listener serves no /metrics (main.ts starts the metrics listener).
    metricsAccess: config.metricsListener === undefined ? { token: config.metricsToken, loopbackOnly: isLoopbackHost(config.host) } : undefined,
    telephony,
    startLagMonitor: () => lagMonitor?.start(),
    async close() {
      lagMonitor?.close();
      telephony.outbound.close();
      await telephony.calls.close();
      await engine.close();
      await encoders.close();
      await store.close();
    },
  };
}
