// Server configuration: one zod schema over the environment, each variable with its documentation (`.meta()`), from
// which scripts/config-reference.ts writes docs/configuration.md. Only main.ts (and the CLI's main) pass process.env
// in; everything else receives a parsed Config. Over 400 lines: the schema is the reference of every setting, read whole.

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
 * alike, on its slow day of 25 November; 48 to 112 on other days; docs/notes/performance-history.md). A limit has to
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

/** The concerns docs/configuration.md groups the variables by, in its order. */
export const SETTING_GROUPS = {
  server: 'Server, HTTP and shutdown',
  store: 'Store, accounts and billing',
  redis: 'Redis (many instances, one store)',
  synthesis: 'Voices and synthesis',
  cache: 'Prompt cache',
  metrics: 'Metrics',
  calls: 'Phone calls',
  capacity: 'Call capacity and load shedding',
  outbound: 'Outbound calls (POST /v1/calls)',
  audiosocket: 'Asterisk AudioSocket',
  cli: 'The raaga CLI',
} as const;

/**
 * What docs/configuration.md says of a variable (scripts/config-reference.ts renders it; a test holds them together).
 * A type, not an interface: zod's metadata is an index signature, which only a type literal satisfies.
 */
export type SettingDoc = {
  readonly group: keyof typeof SETTING_GROUPS;
  /** What it does and when to change it: Markdown, one paragraph. */
  readonly description: string;
  /** The default as a reader should see it when the schema's value alone says too little ("0 (= one per core)"). */
  readonly defaultText?: string;
};

const doc = (group: SettingDoc['group'], description: string, defaultText?: string): SettingDoc => ({ group, description, ...(defaultText === undefined ? {} : { defaultText }) });

/** Every environment variable Raaga reads, each with its documentation: the one home of both. */
export const ConfigSchema = z.object({
  HOST: z.string().min(1).default('0.0.0.0').meta(doc('server', 'Interface to listen on.')),
  PORT: intFromEnv(0, 65535).default(8080).meta(doc('server', 'TCP port (0 picks a free one).')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').meta(doc('server', 'pino level: `fatal` … `trace`, or `silent`.')),
  MAX_BODY_BYTES: intFromEnv(1024, 10 * 1024 * 1024).default(64 * 1024).meta(doc('server', 'Largest accepted request body.')),
  HTTP_HEADERS_TIMEOUT_MS: intFromEnv(500, 600_000)
    .default(10_000)
    .meta(doc('server', "A client must send a request's headers within this long (a connection that sends nothing too); otherwise it gets `422 validation_error` and is closed. Every HTTP listener, provider webhooks included.")),
  HTTP_REQUEST_TIMEOUT_MS: intFromEnv(1000, 600_000)
    .default(30_000)
    .meta(doc('server', '…and the whole request (headers and body) within this long. Responses (streams, long-polls) and upgraded WebSockets are not limited by it.')),
  WS_MAX_PAYLOAD_BYTES: intFromEnv(1024, 1024 * 1024).default(64 * 1024).meta(doc('server', 'Largest WebSocket client message; a bigger one closes the socket with 1009.')),
  SHUTDOWN_GRACE_MS: intFromEnv(0, 300_000)
    .default(10_000)
    .meta(doc('server', 'On SIGTERM ([the drain](operations.md#shutdown-and-deploys)): how long HTTP requests and TTS WebSocket utterances in flight may take to finish before they are cut. Live calls are not cut by it.')),
  CALL_DRAIN_LIMIT_MS: intFromEnv(0, 86_400_000)
    .default(3_600_000)
    .meta(doc('server', 'On SIGTERM, how long live calls go on (0–86400000: up to 24 h); then each says a closing line in its language and hangs up. The process exits once no call is left.')),

  RAAGA_DATA_DIR: z
    .string()
    .min(1)
    .default('./data')
    .meta(doc('store', 'Where the embedded store keeps `raaga.db` (SQLite: balances, accounts, key hashes, custom voices, telephony settings, lexicons, the usage ledger). A `store.json` from an earlier version is imported once at start and kept as `store.json.imported`.')),
  RAAGA_ACCOUNTS_FILE: z
    .string()
    .min(1)
    .optional()
    .meta(doc('store', 'Accounts file applied at start, idempotently: `{"accounts":[{"id":"acct_1","plan":"growth","credits":100000,"keys":["rk_live_..."]}]}`; `credits` is the opening balance of a new account only ([operations](operations.md#accounts-keys-and-credits)).')),
  SLOT_LEASE_MS: intFromEnv(1000, 600_000).default(30_000).meta(doc('store', 'Concurrency slot lease; renewed every third of it while a request lives.')),
  /** Floor 1 s (not 10 s) so tests can watch a dead holder's reservation expire quickly. */
  RESERVATION_TTL_MS: intFromEnv(1000, 86_400_000)
    .default(15 * 60_000)
    .meta(doc('store', 'A credit reservation whose holder vanished is released after this (minimum 1000; keep it well above the longest request: a reservation that expires before its settlement is released, not charged).')),
  USAGE_RETENTION_DAYS: intFromEnv(1, 3650)
    .default(DEFAULT_USAGE_RETENTION_DAYS)
    .meta(doc('store', 'Usage ledger records older than this are deleted (embedded store) or trimmed (each account\'s Redis stream); balances are never touched.')),

  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be redis://[user:password@]host:port[/db] or rediss://…')
    .optional()
    .meta(doc('redis', '`redis://[user:password@]host:port[/db]` (or `rediss://`): every instance shares limits, slots, credits and accounts through this Redis (all must point at the same one). Unset: the embedded store ([operations](operations.md#redis-many-instances-one-store)).', 'unset (the embedded store)')),
  /** No braces: they would break hash tags. */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 : _ . -').default('raaga:').meta(doc('redis', 'Prefix of every Redis key (lets deployments share a Redis).')),
  REDIS_COMMAND_TIMEOUT_MS: intFromEnv(10, 60_000).default(500).meta(doc('redis', 'A Redis command with no reply in this long fails the request with `503 store_unavailable`.')),
  REDIS_CONNECT_TIMEOUT_MS: intFromEnv(100, 60_000).default(2000).meta(doc('redis', 'Connecting (at start, and each reconnect attempt) gives up after this long.')),
  REDIS_CLUSTER: z.enum(['true', 'false', '1', '0']).default('false').meta(doc('redis', '`true`: `REDIS_URL` is one seed node of a Redis Cluster.')),

  RAAGA_MODELS_DIR: z
    .string()
    .min(1)
    .default('./models')
    .meta(doc('synthesis', 'Voice bank: `raaga-v1/manifest.json` defines the sixteen voices and their installed packs; packs live in `packs/` ([voices](voices.md)).')),
  TTS_WORKERS: intFromEnv(0, 64).default(0).meta(doc('synthesis', 'Synthesis worker threads of the embedded eSpeak NG engine.', '`0` (= one per core)')),
  TTS_QUEUE_SIZE: intFromEnv(1, 10_000)
    .default(64)
    .meta(doc('synthesis', 'Clauses that may wait for a worker; beyond it requests get `503 tts_workers_busy`. A speaking call keeps one clause in synthesis and the next queued: for many simultaneous calls allow two to four per call ([performance](performance.md)).')),
  TTS_WORKER_NICE: intFromEnv(0, 19)
    .default(0)
    .meta(doc('synthesis', 'Nice value of the synthesis worker threads (0–19). On Linux it applies to those threads alone, so when the cores are contended the event loop (call pacing, barge-in) runs first and synthesis, which runs ahead of playout, takes what is left; 10 cuts event-loop lag under many calls. Set it only on a machine dedicated to Raaga: niced workers also yield to every other process, and behind other busy processes synthesis starves.')),
  TTS_ENCODER_THREADS: intFromEnv(1, 16)
    .default(1)
    .meta(doc('synthesis', 'Threads that encode MP3 and Opus (1–16), so no request\'s encoding runs on the event loop that paces every call. One thread keeps up with about 15 real-time 24 kHz MP3 streams; PCM, WAV, mu-law and A-law are encoded in place. Niced like the synthesis workers (`TTS_WORKER_NICE`).')),
  ONNX_WORKERS: intFromEnv(0, 64)
    .default(0)
    .meta(doc('synthesis', 'Worker threads of the voice pack engines together (Piper, Kokoro, Flite): one budget for the process, split among the kinds that have packs installed (each at least one worker, the first kinds in `engine/engines.ts` taking the remainder), so packs of three kinds on 2 cores make 3 pack workers, not 6. Each worker of a kind holds every installed pack of that kind. The split, the total with the embedded engine\'s `TTS_WORKERS`, and a warning when the kinds\' workers × threads together exceed the cores are logged at start.', '`0` (= cores / `ONNX_THREADS`)')),
  ONNX_THREADS: intFromEnv(1, 64).default(1).meta(doc('synthesis', 'onnxruntime intra-op threads per Piper or Kokoro worker (a Flite worker uses one); the warning at start sums workers × threads over every kind.')),
  FIRST_CHUNK_MAX_CHARS: intFromEnv(20, 3000).default(100).meta(doc('synthesis', 'The first streamed chunk is cut at a clause mark or space before this many code points, so the first audio leaves early.')),
  OPENAI_VOICE_ALIASES: voiceAliases().meta(
    doc(
      'synthesis',
      "The OpenAI-compatible `POST /v1/audio/speech`'s voice names mapped onto preset voices, over its default table ([api](api.md#openai-compatible-speech)): a JSON object `{\"alloy\":\"meera\"}` or `alloy=meera,narrator=vikram`. An entry replaces the default's or adds a name; a name that is a preset, or a preset that is not in the catalog, stops the server from starting.",
      'unset (the default table)',
    ),
  ),

  PROMPT_CACHE_MAX_BYTES: intFromEnv(0, 64 * 1024 ** 3)
    .default(64 * 1024 ** 2)
    .meta(
      doc(
        'cache',
        'Synthesized audio kept in memory for reuse, least recently used out first: the same text, voice, language, speed, format and rate (and engine version) is served again without the engine, billed the same. A request with `Cache-Control: no-store` (or `no-cache`, also on the WebSocket upgrade) bypasses it. `0` turns it off. Metrics: `raaga_prompt_cache_events_total`, `raaga_prompt_cache_bytes{tier}`.',
        '`67108864` (64 MiB)',
      ),
    ),
  PROMPT_CACHE_DISK_BYTES: intFromEnv(0, 1024 ** 4)
    .default(0)
    .meta(doc('cache', 'A disk tier for the prompt cache under `RAAGA_DATA_DIR/prompt-cache/`, bounded to this many bytes: cached prompts survive a restart. Entries are written whole (temporary file, then rename) and checked (sha256) on every read; a damaged one is removed, never served.', '`0` (no disk tier)')),
  PROMPT_CACHE_SHARED: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .meta(doc('cache', '`true`: preset-voice audio in the prompt cache is shared by all accounts (fewer misses; but a tenant could tell from a fast answer what another recently had spoken). Default: each account\'s recordings are its own.')),

  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .meta(doc('metrics', 'When set (16+ characters), `GET /metrics` requires `Authorization: Bearer <token>`. Unset: `/metrics` is served only on a loopback listener (`HOST` on loopback, or `METRICS_PORT`), and not to a request carrying reverse-proxy headers (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`, …: 404); on a public `HOST` it answers 401 and the start logs a warning. Set it behind a reverse proxy ([operations](operations.md#metrics)).')),
  METRICS_PORT: intFromEnv(0, 65_535).optional().meta(doc('metrics', 'Serve `/metrics` on this port of its own (and no longer on `PORT`), bound to `METRICS_HOST`.')),
  METRICS_HOST: z.string().min(1).default('127.0.0.1').meta(doc('metrics', 'Interface of the `METRICS_PORT` listener.')),

  PUBLIC_URL: z
    .string()
    .regex(PUBLIC_URL_PATTERN, 'must be http(s)://host[:port][/base path], without query or fragment')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .meta(doc('calls', 'The origin providers dial, e.g. `https://raaga.example.com`: TwiML and answer-XML stream URLs (`wss://…`) and every provider signature check are built from it. Set it behind a proxy or tunnel ([telephony](telephony.md)).', "unset (each request's scheme and Host)")),
  RAAGA_CALL_TOKEN_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .meta(doc('calls', 'HMAC key (32+ characters) of the call tokens the voice webhook gives its media streams. **Set the same value on every instance** when there are several (with `REDIS_URL`).', 'unset (generated once into `RAAGA_DATA_DIR/call-token.secret`)')),
  CALL_TOKEN_TTL_MS: intFromEnv(10_000, 3_600_000).default(300_000).meta(doc('calls', "How long a call token stays valid for its stream's `start`.")),
  TELEPHONY_PLAYOUT_AHEAD_MS: intFromEnv(60, 2000)
    .default(300)
    .meta(doc('calls', 'Call audio is sent at most this far ahead of real time: what a barge-in `clear` throws away, and the cushion against network jitter.')),
  /** See barge-in-detector.ts. */
  TELEPHONY_MIN_SPEECH_MS: intFromEnv(0, 5000)
    .default(250)
    .meta(doc('calls', 'Default minimum caller speech before it is confirmed (`speech_started`; with `barge_in_suspect=off` the barge-in itself; fillers like "haan" are shorter); per call: `min_speech_ms`.')),
  TELEPHONY_BARGE_IN: z.enum(['speech', 'dtmf', 'any', 'none']).default('any').meta(doc('calls', 'Default barge-in mode: `speech`, `dtmf`, `any` or `none`; per call: `barge_in`.')),
  TELEPHONY_BARGE_IN_SUSPECT: z
    .enum(['vad', 'off'])
    .default('vad')
    .meta(doc('calls', '`vad`: caller speech holds the bot at once, then commits or resumes ([telephony](telephony.md#barge-in-pause-fast-decide-slow)); `off`: `min_speech_ms` cuts for good; per call: `barge_in_suspect`.')),
  TELEPHONY_DEFAULT_VOICE: z.string().min(1).default('priya').meta(doc('calls', 'Voice of a call that names none.')),
  TELEPHONY_DEFAULT_LANGUAGE: z.enum(LANGUAGE_CODES).default('hi-IN').meta(doc('calls', 'Language of a call that names none.')),
  TELEPHONY_STREAM_TIMEOUT_MS: intFromEnv(1000, 600_000)
    .default(10_000)
    .meta(doc('calls', 'A media stream with no message from its provider for this long is ended as dropped (providers send caller audio every 20–100 ms).')),
  TELEPHONY_START_TIMEOUT_MS: intFromEnv(500, 60_000)
    .default(5000)
    .meta(doc('calls', 'A media connection (WebSocket or AudioSocket) whose start (`start`, `MEDIA_START`, the UUID packet) has not come and been authenticated this long after it opened is closed (1008), whatever else it sends. Until then it holds a pending place, not a call slot.')),
  TELEPHONY_AGENT_CONNECT_TIMEOUT_MS: intFromEnv(100, 60_000).default(5000).meta(doc('calls', "Opening a call's agent WebSocket gives up after this long (then the fallback runs).")),
  TELEPHONY_AGENT_FALLBACK_MESSAGE: z
    .string()
    .max(1000)
    .default('Sorry, we are having technical trouble. Please call again later.')
    .meta(doc('calls', "Spoken when a call's agent fails or goes away, before hanging up; per call: `fallback_message` (empty: hang up at once).")),
  ALLOWED_PRIVATE_DESTINATIONS: networkBlocks('').meta(
    doc(
      'calls',
      'Networks (comma-separated addresses or CIDR blocks, e.g. `10.20.0.0/16,fd00::/8`) that `agent_url`, `status_webhook` and do-not-call webhooks may reach although they are not public (loopback, RFC 1918, link-local, unique-local, CGNAT). By default Raaga connects only to public addresses ([operations](operations.md#security)).',
      'unset (none)',
    ),
  ),

  TELEPHONY_MAX_CALLS: intFromEnv(0, 100_000)
    .default(0)
    .meta(
      doc(
        'capacity',
        'Calls this process carries at once, every provider together. Only authenticated calls count: a media connection takes its slot once its start is verified. A new call beyond it is refused before any audio, in its provider\'s way (Twilio `<Reject reason="busy"/>`, Plivo `<Hangup reason="busy"/>`, a media upgrade `503 server_busy`, AudioSocket its hangup packet; `POST /v1/calls` `503 server_busy`), and `/readyz` answers 503 (`checks.calls_saturated`). The default is the lowest capacity measured on 2 cores ([telephony](telephony.md#admission-per-process)); measure your machine ([performance](performance.md)) and set it from there.',
        `\`0\` (= ${CALLS_PER_CORE} per core: ${2 * CALLS_PER_CORE} on 2 cores)`,
      ),
    ),
  TELEPHONY_MAX_PENDING_STREAMS: intFromEnv(0, 100_000)
    .default(0)
    .meta(
      doc(
        'capacity',
        'Media connections not yet authenticated (upgraded or connected, start not yet verified) this process holds at once. They take no call slot, so sockets without credentials never make a caller hear busy; a new connection beyond this is refused (media upgrade `503 server_busy`, AudioSocket its hangup packet).',
        '`0` (= 2 × `TELEPHONY_MAX_CALLS`)',
      ),
    ),
  TELEPHONY_MAX_PENDING_PER_SOURCE: intFromEnv(0, 100_000)
    .default(8)
    .meta(doc('capacity', 'The same per source address. `0`: no cap per address. Behind a reverse proxy every connection has the proxy\'s address: raise it, or set `0`.')),
  TELEPHONY_SHED_LAG_MS: intFromEnv(0, 10_000)
    .default(40)
    .meta(doc('capacity', "Load shedding: while the event loop's lag p99 (median of the last three seconds) is at least this, new calls are refused as above and `/readyz` answers 503, until it is under half of it. Measured from when the server listens (start-up never sheds), with no verdict (calls admitted) until three seconds are in. `0`: never shed on lag.")),

  OUTBOUND_DNC_FILE: z
    .string()
    .min(1)
    .optional()
    .meta(doc('outbound', "The operator's do-not-call list for `POST /v1/calls`: one E.164 number per line (`#` comments), read again when it changes. A missing file stops the server from starting.")),
  OUTBOUND_WEBHOOK_RETRY_BASE_MS: intFromEnv(10, 600_000).default(2000).meta(doc('outbound', 'First wait before a failed status webhook is sent again; each retry waits twice as long (8 attempts).')),
  OUTBOUND_WEBHOOK_SWEEP_MS: intFromEnv(100, 3_600_000)
    .default(60_000)
    .meta(doc('outbound', "How often each instance looks for status events a webhook has not taken (after the recording instance's retries, or after it stopped) and sends them again, for up to 24 hours.")),
  OUTBOUND_DIAL_TIMEOUT_MS: intFromEnv(500, 60_000).default(10_000).meta(doc('outbound', "A provider's create-call request that takes longer is refused as `503 provider_unavailable` (no call placed).")),
  OUTBOUND_MAX_DIAL_WAIT_MS: intFromEnv(0, 60_000)
    .default(20_000)
    .meta(doc('outbound', "The longest a `POST /v1/calls` waits for the account's calls-per-second slot; beyond it, `429 rate_limit_exceeded` (nothing stored).")),
  OUTBOUND_MAX_CALLS_PER_DAY: intFromEnv(1, 10_000_000)
    .default(10_000)
    .meta(doc('outbound', 'Outbound calls each account may place per UTC day, counted in the store across every instance; the next is `429 rate_limit_exceeded` naming the daily cap, with `Retry-After` until 00:00 UTC, and nothing is stored.')),

  /** 0 picks a free port (tests). */
  AUDIOSOCKET_PORT: intFromEnv(0, 65_535)
    .optional()
    .meta(doc('audiosocket', 'TCP port of the Asterisk AudioSocket listener (`AudioSocket(uuid,host:port)` in the dialplan; [telephony-providers](telephony-providers.md#asterisk-audiosocket-tcp-any-asterisk-18)); unset: no listener.')),
  AUDIOSOCKET_HOST: z.string().min(1).default('127.0.0.1').meta(doc('audiosocket', 'Address the AudioSocket listener binds. AudioSocket has no authentication: keep it on a private network.')),
  AUDIOSOCKET_ACCOUNT: z
    .string()
    .regex(/^acct_[A-Za-z0-9_-]{1,64}$/, 'must be an account id (acct_…)')
    .optional()
    .meta(doc('audiosocket', 'The account AudioSocket calls are billed to and whose call defaults (`raaga telephony set --default`) they use (AudioSocket carries only a call UUID); required with `AUDIOSOCKET_PORT`.')),
  AUDIOSOCKET_ALLOW: networkBlocks('127.0.0.1/32,::1/128').meta(
    doc('audiosocket', 'Addresses or CIDR blocks allowed to connect to the AudioSocket listener (your Asterisk servers); any other connection is closed at once and logged.'),
  ),

  // Read by the CLI's commands from the environment they are given; checked here with everything else.
  RAAGA_VOICE_CATALOG: z
    .string()
    .min(1)
    .optional()
    .meta(doc('cli', "A JSON file of your own voice catalog entries, listed by `raaga voices catalog` and installed by `raaga voices install` after Raaga's ([voices](voices.md)).")),
  RAAGA_API_KEY: z.string().min(1).optional().meta(doc('cli', 'The API key `raaga speak` sends to a running server (rather than `--key`, which shows in `ps`).')),
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
