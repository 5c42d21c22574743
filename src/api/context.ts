// What the HTTP and WebSocket routes need from the composition root, as one object.

import type { Admission } from '../core/admission.js';
import type { SynthesisService } from '../core/synthesis/synthesis-service.js';
import type { VoiceCatalog } from '../core/voice-catalog.js';
import type { VoiceResolver } from '../core/voice-resolver.js';
import type { SessionServices } from '../session/session-services.js';
import type { ServerMetrics } from '../metrics/metrics.js';
import type { MetricsAccess } from './metrics-access.js';
import type { Clock } from '../session/clock.js';
import type { SessionLimits } from '../session/session-limits.js';
import type { Store } from '../store/store.js';
import type { TelephonyConfig } from '../config.js';
import type { VoiceActivityDetectorFactory } from '../session/barge-in/barge-in-contract.js';
import type { CallControlBus } from '../store/call-control-bus.js';
import type { OutboundCalls } from '../telephony/outbound/outbound-calls.js';
import type { DestinationPolicy } from '../telephony/destination/destination-policy.js';
import type { CallAdmission } from '../telephony/call-admission.js';

/** Phone calls (src/telephony/): what the Twilio routes and REST call control need. */
export interface TelephonyContext {
  readonly config: TelephonyConfig;
  /** HMAC key of call tokens (RAAGA_CALL_TOKEN_SECRET or the data dir's call-token.secret). */
  readonly callTokenSecret: string;
  /** Where live calls register, and how call control reaches a call on another instance. */
  readonly calls: CallControlBus;
  /** Undefined: no voice activity detection (speech barge-in off, DTMF barge-in still on). */
  readonly vad?: VoiceActivityDetectorFactory | undefined;
  /** Outbound calls (POST /v1/calls): placing, status events and webhooks, the answer step. */
  readonly outbound: OutboundCalls;
  /** Where agent URLs and webhooks may point (ALLOWED_PRIVATE_DESTINATIONS); every tenant-given URL is checked by it. */
  readonly destinations: DestinationPolicy;
  /** This process's calls against TELEPHONY_MAX_CALLS and its load shedding: every new call asks it first. */
  readonly callAdmission: CallAdmission;
  /** Monotonic clock for playout pacing and stream timeouts (tests inject a fake). */
  readonly clock?: Clock;
}

/** WebSocket session settings; everything has a default (tests inject a fake clock and short limits). */
export interface WebSocketSettings {
  /** Largest client message accepted; bigger ones close the socket with 1009. */
  readonly maxPayloadBytes?: number;
  readonly clock?: Clock;
  readonly limits?: Partial<SessionLimits>;
}

export interface ApiContext {
  readonly store: Store;
  readonly admission: Admission;
  readonly catalog: VoiceCatalog;
  readonly voices: VoiceResolver;
  readonly synthesis: SynthesisService;
  /** Aborts every in-flight synthesis when the grace period of a shutdown runs out. */
  readonly shutdown: AbortSignal;
  /**
   * Aborts when the server begins to drain (SIGTERM): /readyz turns 503, new calls are refused, TTS WebSocket sessions
   * finish their utterance and close; live calls go on. Absent: the server never drains (tests of single routes).
   */
  readonly draining?: AbortSignal;
  /** Aborts when the call drain limit is over: each live call speaks its closing line and hangs up. */
  readonly callsEnding?: AbortSignal;
  /** The same admission, voices, synthesis and shutdown as one object: what every session and call is given. */
  readonly services: SessionServices;
  readonly maxBodyBytes: number;
  /** The operator's OpenAI voice aliases over the dialect's default table (OPENAI_VOICE_ALIASES); absent: the defaults. */
  readonly openAiVoiceAliases?: Readonly<Record<string, string>>;
  readonly webSocket?: WebSocketSettings;
  /** Absent: no telephony routes (tests that build the API without them). */
  readonly telephony?: TelephonyContext;
  /** Counters and histograms (GET /metrics); absent: nothing is measured and /metrics answers 404. */
  readonly metrics?: ServerMetrics;
  /** Who may GET /metrics on this listener (metrics-access.ts); absent: the route is not served here (METRICS_PORT). */
  readonly metricsAccess?: MetricsAccess | undefined;
}
