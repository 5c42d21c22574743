// Server configuration: one zod schema over the environment, every default documented in README's config table.
// Only main.ts (and the CLI's main) pass process.env in; everything else receives a parsed Config.

import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { z } from 'zod';
import { LANGUAGE_CODES } from './languages.js';

const intFromEnv = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A public origin: http(s)://host[:port][/base path], without query or fragment (PUBLIC_URL, `raaga twiml --public-url`). */
export const PUBLIC_URL_PATTERN = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

export const DAY_MS = 86_400_000;

/** How long usage records are kept unless configured (USAGE_RETENTION_DAYS): a year of invoices and a month to spare. */
export const DEFAULT_USAGE_RETENTION_DAYS = 400;

/**
 * Simultaneous calls per core when TELEPHONY_MAX_CALLS is unset: the lowest figure bench/telephony.ts measured on the
 * 2-core development VM with the bot always speaking and VAD on every call (32 calls, synthesizing and half cached
 * alike, on its slow day of 25 November; 48 to 112 on other days; docs/performance.md, "Capacity"). A limit has to
 * hold on the bad day; the event-loop lag shedding covers what the figure cannot foresee (docs/telephony.md).
 */
export const CALLS_PER_CORE = 16;

/** Comma-separated addresses or CIDR blocks, each checked. */
function networkBlocks(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((list, context) => {
      const blocks = list.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
      for (const block of blocks) if (!isNetworkBlock(block)) context.addIssue({ code: 'custom', message: `${block} is not an address or CIDR block (10.0.0.0/8, ::1/128)` });
      return blocks;
    });
}

/** A voice alias of the OpenAI dialect and the preset it names: lower-case letters, digits, `_`, `.`, `-`. */
const VOICE_ALIAS_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/**
 * OPENAI_VOICE_ALIASES: a JSON object (`{"alloy":"meera"}`) or `name=preset,name=preset`. Names are compared in lower
 * case; whether each preset exists is checked against the voice catalog when the routes are built.
 */
function voiceAliases() {
  return z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined) return {};
      let entries: [string, unknown][];
      if (text.trim().startsWith('{')) {
        try {
          const json: unknown = JSON.parse(text);
          entries = json !== null && typeof json === 'object' && !Array.isArray(json) ? Object.entries(json) : [];
        } catch {
          context.addIssue({ code: 'custom', message: 'is not valid JSON; write {"alloy":"meera"} or alloy=meera,nova=kavya' });
          return {};
        }
      } else {
        entries = text.split(',').filter((pair) => pair.trim() !== '').map((pair) => {
          const [name = '', preset, ...rest] = pair.split('=');
          return [name, rest.length === 0 ? preset : undefined];
        });
      }
      const aliases: Record<string, string> = {};
      for (const [rawName, rawPreset] of entries) {
        const name = rawName.trim().toLowerCase();
        const preset = typeof rawPreset === 'string' ? rawPreset.trim().toLowerCase() : '';
        if (!VOICE_ALIAS_NAME.test(name) || !VOICE_ALIAS_NAME.test(preset)) {
          context.addIssue({ code: 'custom', message: `'${rawName}' must map a name (a-z 0-9 _ . -) to a preset voice name, as alloy=meera` });
          continue;
        }
        aliases[name] = preset;
      }
      return aliases;
    });
}

export const ConfigSchema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: intFromEnv(0, 65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RAAGA_DATA_DIR: z.string().min(1).default('./data'),
  RAAGA_ACCOUNTS_FILE: z.string().min(1).optional(),
  RAAGA_MODELS_DIR: z.string().min(1).default('./models'),
  /** 0 = one worker per core. */
  TTS_WORKERS: intFromEnv(0, 64).default(0),
  TTS_QUEUE_SIZE: intFromEnv(1, 10_000).default(64),
  TTS_WORKER_NICE: intFromEnv(0, 19).default(0),
  /** Threads that encode MP3 and Opus off the event loop (engine/encoder-threads.ts). */
  TTS_ENCODER_THREADS: intFromEnv(1, 16).default(1),
  /** Neural voice pack workers; 0 = cores / ONNX_THREADS (so workers x threads never exceeds the cores). */
  ONNX_WORKERS: intFromEnv(0, 64).default(0),
  /** onnxruntime intra-op threads per ONNX worker. */
  ONNX_THREADS: intFromEnv(1, 64).default(1),
  MAX_BODY_BYTES: intFromEnv(1024, 10 * 1024 * 1024).default(64 * 1024),
  /** A client must send a request's headers within this long, or the connection is answered and closed. */
  HTTP_HEADERS_TIMEOUT_MS: intFromEnv(500, 600_000).default(10_000),
  /** ... and the whole request (headers and body) within this long. Responses (streams, long-polls) are not limited. */
  HTTP_REQUEST_TIMEOUT_MS: intFromEnv(1000, 600_000).default(30_000),
  SLOT_LEASE_MS: intFromEnv(1000, 600_000).default(30_000),
  /**
   * Floor 1 s (not 10 s) so tests can watch a dead holder's reservation expire quickly. In production keep it far
   * above the longest request: a reservation that expires before its settlement is released, not charged.
   */
  RESERVATION_TTL_MS: intFromEnv(1000, 86_400_000).default(15 * 60_000),
  SHUTDOWN_GRACE_MS: intFromEnv(0, 300_000).default(10_000),
  /** How long a drain lets live calls go on before each says its closing line and hangs up (default 1 h, at most 24 h). */
  CALL_DRAIN_LIMIT_MS: intFromEnv(0, 86_400_000).default(3_600_000),
  /** When set, the shared store is Redis (every instance must point at the same one); unset: the embedded store. */
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'must be redis://[user:password@]host:port[/db] or rediss://…').optional(),
  /** Usage ledger records older than this many days are deleted (SQLite) or trimmed (each account's Redis stream). */
  USAGE_RETENTION_DAYS: intFromEnv(1, 3650).default(DEFAULT_USAGE_RETENTION_DAYS),
  /** Prefix of every Redis key: lets several deployments share one Redis. No braces (they would break hash tags). */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 : _ . -').default('raaga:'),
  /** A Redis command with no reply within this fails the request with 503 store_unavailable. */
  REDIS_COMMAND_TIMEOUT_MS: intFromEnv(10, 60_000).default(500),
  REDIS_CONNECT_TIMEOUT_MS: intFromEnv(100, 60_000).default(2000),
  /** REDIS_URL names one seed node of a Redis Cluster. */
  REDIS_CLUSTER: z.enum(['true', 'false', '1', '0']).default('false'),
  /** Bytes of synthesized audio kept for reuse (repeated prompts are served without the engine); 0 turns it off. */
  PROMPT_CACHE_MAX_BYTES: intFromEnv(0, 64 * 1024 ** 3).default(64 * 1024 ** 2),
  /** Bytes of the prompt cache's disk tier under RAAGA_DATA_DIR/prompt-cache (survives restarts); 0: no disk tier. */
  PROMPT_CACHE_DISK_BYTES: intFromEnv(0, 1024 ** 4).default(0),
  /** `true`: preset-voice audio in the prompt cache is shared by every account (a timing side channel between them). */
  PROMPT_CACHE_SHARED: z.enum(['true', 'false', '1', '0']).default('false'),
  /** Cap on the first streamed chunk so the first audio leaves early (code points). */
  FIRST_CHUNK_MAX_CHARS: intFromEnv(20, 3000).default(100),
  /** Largest WebSocket client message; bigger ones close the socket with 1009. */
  WS_MAX_PAYLOAD_BYTES: intFromEnv(1024, 1024 * 1024).default(64 * 1024),
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; unset: served only on a loopback listener. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** When set, /metrics is served on this port (METRICS_HOST) instead of the API's. */
  METRICS_PORT: intFromEnv(0, 65_535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Public origin Twilio reaches (https://host[/base]): TwiML stream URLs and signature checks are built from it. */
  PUBLIC_URL: z
    .string()
    .regex(PUBLIC_URL_PATTERN, 'must be http(s)://host[:port][/base path], without query or fragment')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** HMAC key of the call tokens the voice webhook hands to its media streams; shared by every instance. */
  RAAGA_CALL_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** How long a call token from the voice webhook stays valid for the stream's `start`. */
  CALL_TOKEN_TTL_MS: intFromEnv(10_000, 3_600_000).default(300_000),
  /** Audio sent ahead of real time on a call: what a `clear` discards at most, and the cushion against jitter. */
  TELEPHONY_PLAYOUT_AHEAD_MS: intFromEnv(60, 2000).default(300),
  /** Caller speech shorter than this does not interrupt (fillers such as "haan", "hmm"); see barge-in-detector.ts. */
  TELEPHONY_MIN_SPEECH_MS: intFromEnv(0, 5000).default(250),
  TELEPHONY_BARGE_IN: z.enum(['speech', 'dtmf', 'any', 'none']).default('any'),
  /** `vad`: caller speech holds the bot at once and a policy commits or resumes; `off`: min_speech_ms cuts it for good. */
  TELEPHONY_BARGE_IN_SUSPECT: z.enum(['vad', 'off']).default('vad'),
  TELEPHONY_DEFAULT_VOICE: z.string().min(1).default('priya'),
  TELEPHONY_DEFAULT_LANGUAGE: z.enum(LANGUAGE_CODES).default('hi-IN'),
  /** A media stream with no message from Twilio for this long is treated as dropped (Twilio sends every 20 ms). */
  TELEPHONY_STREAM_TIMEOUT_MS: intFromEnv(1000, 600_000).default(10_000),
  TELEPHONY_START_TIMEOUT_MS: intFromEnv(500, 60_000).default(5000),
  TELEPHONY_AGENT_CONNECT_TIMEOUT_MS: intFromEnv(100, 60_000).default(5000),
  /** Calls this process carries at once; a new one beyond it is refused before any audio. 0 = CALLS_PER_CORE per core. */
  TELEPHONY_MAX_CALLS: intFromEnv(0, 100_000).default(0),
  /** New calls are refused while the event loop's lag p99 is at least this (until it is under half); 0: never. */
  TELEPHONY_SHED_LAG_MS: intFromEnv(0, 10_000).default(40),
  /** Media connections not yet authenticated (no verified start) this process holds at once; 0 = 2 x TELEPHONY_MAX_CALLS. */
  TELEPHONY_MAX_PENDING_STREAMS: intFromEnv(0, 100_000).default(0),
  /** The same per source address (behind a proxy every connection has the proxy's); 0: no cap per address. */
  TELEPHONY_MAX_PENDING_PER_SOURCE: intFromEnv(0, 100_000).default(8),
  /** A do-not-call list (one E.164 number per line, `#` comments) checked before every outbound call; re-read when it changes. */
  OUTBOUND_DNC_FILE: z.string().min(1).optional(),
  /** First wait before a failed status webhook is sent again; each retry waits twice as long (8 attempts in all). */
  OUTBOUND_WEBHOOK_RETRY_BASE_MS: intFromEnv(10, 600_000).default(2000),
  /** How often each instance looks for status webhook events a receiver has not taken yet (and sends them again). */
  OUTBOUND_WEBHOOK_SWEEP_MS: intFromEnv(100, 3_600_000).default(60_000),
  /** A provider's create-call request that takes longer counts as `provider_unavailable` (no call placed). */
  OUTBOUND_DIAL_TIMEOUT_MS: intFromEnv(500, 60_000).default(10_000),
  /** A POST /v1/calls waits at most this long for its calls-per-second slot; beyond it, 429. */
  OUTBOUND_MAX_DIAL_WAIT_MS: intFromEnv(0, 60_000).default(20_000),
  /** Outbound calls each account may place per UTC day (counted in the store, across instances); beyond it, 429. */
  OUTBOUND_MAX_CALLS_PER_DAY: intFromEnv(1, 10_000_000).default(10_000),
  /** TCP port of the Asterisk AudioSocket listener; unset: no listener. 0 picks a free port (tests). */
  AUDIOSOCKET_PORT: intFromEnv(0, 65_535).optional(),
  /** Address the AudioSocket listener binds; loopback by default, since AudioSocket has no authentication. */
  AUDIOSOCKET_HOST: z.string().min(1).default('127.0.0.1'),
  /** The account AudioSocket calls are billed to (AudioSocket carries only a call UUID). */
  AUDIOSOCKET_ACCOUNT: z.string().regex(/^acct_[A-Za-z0-9_-]{1,64}$/, 'must be an account id (acct_…)').optional(),
  /** Networks allowed to open AudioSocket connections: comma-separated addresses or CIDR blocks. */
  AUDIOSOCKET_ALLOW: networkBlocks('127.0.0.1/32,::1/128'),
  /**
   * Networks that agent URLs, status webhooks and do-not-call webhooks may reach although they are not public
   * (loopback, RFC 1918, link-local, unique-local, CGNAT): comma-separated addresses or CIDR blocks. Empty: none.
   */
  ALLOWED_PRIVATE_DESTINATIONS: networkBlocks(''),
  /** The OpenAI dialect's voice names (alloy, af_heart, …) mapped onto presets, over its default table (api/openai/voice-aliases.ts). */
  OPENAI_VOICE_ALIASES: voiceAliases(),
  /** Spoken when the agent's WebSocket fails or closes mid-call, before hanging up; empty: hang up at once. */
  TELEPHONY_AGENT_FALLBACK_MESSAGE: z.string().max(1000).default('Sorry, we are having technical trouble. Please call again later.'),
});

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  readonly dataDir: string;
  readonly accountsFile: string | undefined;
  readonly modelsDir: string;
  readonly ttsWorkers: number;
  readonly ttsQueueSize: number;
  /**
   * Nice value of the synthesis worker threads (Linux: per thread), so the event loop wins a contended core. 0 by
   * default: niced workers also lose to every other process at nice 0, and on a shared machine synthesis starves.
   */
  readonly ttsWorkerNice: number;
  /** Threads that run MP3 encoding, so no request's encoding blocks the event loop. */
  readonly ttsEncoderThreads: number;
  readonly onnxWorkers: number;
  readonly onnxThreads: number;
  readonly maxBodyBytes: number;
  readonly httpTimeouts: { readonly headersMs: number; readonly requestMs: number };
  readonly slotLeaseMs: number;
  readonly reservationTtlMs: number;
  readonly shutdownGraceMs: number;
  /** On SIGTERM, live calls go on for at most this long; then each says its closing line and hangs up. */
  readonly callDrainLimitMs: number;
  readonly usageRetentionMs: number;
  /** Set: RedisStore; unset: SqliteStore in dataDir. */
  readonly redisUrl: string | undefined;
  readonly redisKeyPrefix: string;
  readonly redisCommandTimeoutMs: number;
  readonly redisConnectTimeoutMs: number;
  readonly redisCluster: boolean;
  readonly firstChunkMaxChars: number;
  /** Bound of the in-memory prompt cache; 0: off. */
  readonly promptCacheMaxBytes: number;
  /** Bound of its disk tier in `<dataDir>/prompt-cache`; 0: none. */
  readonly promptCacheDiskBytes: number;
  /** Preset-voice recordings shared across accounts (PROMPT_CACHE_SHARED); false: each account has its own. */
  readonly promptCacheShared: boolean;
  readonly wsMaxPayloadBytes: number;
  /** Bearer token GET /metrics requires; undefined: served only on a loopback listener. */
  readonly metricsToken: string | undefined;
  /** A listener of its own for /metrics (METRICS_PORT on METRICS_HOST); undefined: /metrics is on the API's port. */
  readonly metricsListener: { readonly host: string; readonly port: number } | undefined;
  /** OPENAI_VOICE_ALIASES: the operator's OpenAI voice names and the presets they map to, over the default table. */
  readonly openAiVoiceAliases: Readonly<Record<string, string>>;
  readonly telephony: TelephonyConfig;
}

export interface TelephonyConfig {
  /** Without trailing slash; undefined: derived from each request's Host (fine without a proxy). */
  readonly publicUrl: string | undefined;
  /** Undefined: generated once and kept in `<dataDir>/call-token.secret` (see deps.ts). */
  readonly callTokenSecret: string | undefined;
  readonly callTokenTtlMs: number;
  readonly playoutAheadMs: number;
  readonly minSpeechMs: number;
  readonly bargeIn: 'speech' | 'dtmf' | 'any' | 'none';
  readonly bargeInSuspect: 'vad' | 'off';
  readonly defaultVoice: string;
  readonly defaultLanguage: string;
  readonly streamTimeoutMs: number;
  /**
   * A media connection must send its start (or the provider's equivalent) and have it authenticated within this long,
   * whatever else it sends; until then it holds a pending place (TELEPHONY_MAX_PENDING_*), not a call slot.
   */
  readonly startTimeoutMs: number;
  readonly agentConnectTimeoutMs: number;
  readonly agentFallbackMessage: string;
  readonly admission: CallAdmissionConfig;
  /** Non-public networks tenant-pointed connections may reach (ALLOWED_PRIVATE_DESTINATIONS); see destination-policy.ts. */
  readonly allowedPrivateDestinations: readonly string[];
  /** Undefined: no AudioSocket listener. */
  readonly audioSocket: AudioSocketConfig | undefined;
  readonly outbound: OutboundConfig;
}

/** How many calls this process takes on (telephony/call-admission.ts). */
export interface CallAdmissionConfig {
  readonly maxCalls: number;
  /** Media connections not yet authenticated held at once (they hold no call slot); parseConfig always sets it, absent: 2 x maxCalls. */
  readonly maxPendingStreams?: number;
  /** The same per source address, 0: no cap per address; absent: 0. */
  readonly maxPendingPerSource?: number;
  /** Event-loop lag p99 (ms) from which new calls are refused; 0: never on lag. */
  readonly shedLagMs: number;
}

/** POST /v1/calls: the operator's do-not-call list, status webhook retries, and the calls-per-second queue. */
export interface OutboundConfig {
  readonly dncFile: string | undefined;
  readonly webhookRetryBaseMs: number;
  readonly webhookSweepMs: number;
  readonly maxDialWaitMs: number;
  readonly dialTimeoutMs: number;
  /** Calls an account may place per UTC day. */
  readonly maxCallsPerDay: number;
}

export interface AudioSocketConfig {
  readonly host: string;
  readonly port: number;
  readonly accountId: string;
  /** Addresses or CIDR blocks (`10.0.0.0/8`) a connection may come from. */
  readonly allow: readonly string[];
}

/** `address` or `address/prefix`, IPv4 or IPv6. */
function isNetworkBlock(block: string): boolean {
  const [address, prefix, ...rest] = block.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function callAdmissionConfig(e: z.infer<typeof ConfigSchema>): CallAdmissionConfig {
  const maxCalls = e.TELEPHONY_MAX_CALLS === 0 ? CALLS_PER_CORE * availableParallelism() : e.TELEPHONY_MAX_CALLS;
  return {
    maxCalls,
    maxPendingStreams: e.TELEPHONY_MAX_PENDING_STREAMS === 0 ? 2 * maxCalls : e.TELEPHONY_MAX_PENDING_STREAMS,
    maxPendingPerSource: e.TELEPHONY_MAX_PENDING_PER_SOURCE,
    shedLagMs: e.TELEPHONY_SHED_LAG_MS,
  };
}

function audioSocketConfig(e: z.infer<typeof ConfigSchema>): AudioSocketConfig | undefined {
  if (e.AUDIOSOCKET_PORT === undefined) return undefined;
  if (e.AUDIOSOCKET_ACCOUNT === undefined) throw new ConfigError('invalid configuration: AUDIOSOCKET_ACCOUNT: required with AUDIOSOCKET_PORT (the account AudioSocket calls are billed to)');
  return { host: e.AUDIOSOCKET_HOST, port: e.AUDIOSOCKET_PORT, accountId: e.AUDIOSOCKET_ACCOUNT, allow: e.AUDIOSOCKET_ALLOW };
}

export function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
  // Empty strings mean "unset": shells and compose files often export VAR= for defaults.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    dataDir: e.RAAGA_DATA_DIR,
    accountsFile: e.RAAGA_ACCOUNTS_FILE,
    modelsDir: e.RAAGA_MODELS_DIR,
    ttsWorkers: e.TTS_WORKERS === 0 ? availableParallelism() : e.TTS_WORKERS,
    ttsQueueSize: e.TTS_QUEUE_SIZE,
    ttsWorkerNice: e.TTS_WORKER_NICE,
    ttsEncoderThreads: e.TTS_ENCODER_THREADS,
    onnxWorkers: e.ONNX_WORKERS === 0 ? Math.max(1, Math.floor(availableParallelism() / e.ONNX_THREADS)) : e.ONNX_WORKERS,
    onnxThreads: e.ONNX_THREADS,
    maxBodyBytes: e.MAX_BODY_BYTES,
    httpTimeouts: { headersMs: e.HTTP_HEADERS_TIMEOUT_MS, requestMs: e.HTTP_REQUEST_TIMEOUT_MS },
    slotLeaseMs: e.SLOT_LEASE_MS,
    reservationTtlMs: e.RESERVATION_TTL_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    callDrainLimitMs: e.CALL_DRAIN_LIMIT_MS,
    usageRetentionMs: e.USAGE_RETENTION_DAYS * DAY_MS,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    redisConnectTimeoutMs: e.REDIS_CONNECT_TIMEOUT_MS,
    redisCluster: e.REDIS_CLUSTER === 'true' || e.REDIS_CLUSTER === '1',
    firstChunkMaxChars: e.FIRST_CHUNK_MAX_CHARS,
    promptCacheMaxBytes: e.PROMPT_CACHE_MAX_BYTES,
    promptCacheDiskBytes: e.PROMPT_CACHE_DISK_BYTES,
    promptCacheShared: e.PROMPT_CACHE_SHARED === 'true' || e.PROMPT_CACHE_SHARED === '1',
    wsMaxPayloadBytes: e.WS_MAX_PAYLOAD_BYTES,
    metricsToken: e.METRICS_TOKEN,
    metricsListener: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    openAiVoiceAliases: e.OPENAI_VOICE_ALIASES,
    telephony: {
      publicUrl: e.PUBLIC_URL,
      callTokenSecret: e.RAAGA_CALL_TOKEN_SECRET,
      callTokenTtlMs: e.CALL_TOKEN_TTL_MS,
      playoutAheadMs: e.TELEPHONY_PLAYOUT_AHEAD_MS,
      minSpeechMs: e.TELEPHONY_MIN_SPEECH_MS,
      bargeIn: e.TELEPHONY_BARGE_IN,
      bargeInSuspect: e.TELEPHONY_BARGE_IN_SUSPECT,
      defaultVoice: e.TELEPHONY_DEFAULT_VOICE,
      defaultLanguage: e.TELEPHONY_DEFAULT_LANGUAGE,
      streamTimeoutMs: e.TELEPHONY_STREAM_TIMEOUT_MS,
      startTimeoutMs: e.TELEPHONY_START_TIMEOUT_MS,
      agentConnectTimeoutMs: e.TELEPHONY_AGENT_CONNECT_TIMEOUT_MS,
      agentFallbackMessage: e.TELEPHONY_AGENT_FALLBACK_MESSAGE,
      admission: callAdmissionConfig(e),
      allowedPrivateDestinations: e.ALLOWED_PRIVATE_DESTINATIONS,
      audioSocket: audioSocketConfig(e),
      outbound: { dncFile: e.OUTBOUND_DNC_FILE, webhookRetryBaseMs: e.OUTBOUND_WEBHOOK_RETRY_BASE_MS, webhookSweepMs: e.OUTBOUND_WEBHOOK_SWEEP_MS, maxDialWaitMs: e.OUTBOUND_MAX_DIAL_WAIT_MS, dialTimeoutMs: e.OUTBOUND_DIAL_TIMEOUT_MS, maxCallsPerDay: e.OUTBOUND_MAX_CALLS_PER_DAY },
    },
  };
}
