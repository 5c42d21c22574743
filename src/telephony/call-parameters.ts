// A call's settings as stream <Parameter>s: names, validation, and the layering server defaults < account
// defaults < webhook query (or the developer's own TwiML). Unknown parameters are the developer's own and go to
// the agent in `call_started`; the two credential parameters never do.

import { z } from 'zod';
import type { TelephonyConfig } from '../config.js';
import { LANGUAGE_CODES, type LanguageCode } from '../languages.js';
import type { BargeInEvents, BargeInMode, BargeInSuspect } from '../session/barge-in/barge-in-contract.js';
import { DEFAULT_BARGE_IN_POLICY, type BargeInPolicy } from '../session/barge-in/barge-in-controller.js';
import { CALL_DIRECTIONS, type CallDirection } from '../session/call-events.js';
import { ANSWERED_BY, type AnsweredBy } from '../store/outbound-call.js';

export const TOKEN_PARAMETER = 'raaga_token';
export const API_KEY_PARAMETER = 'raaga_api_key';
export const CREDENTIAL_PARAMETERS: ReadonlySet<string> = new Set([TOKEN_PARAMETER, API_KEY_PARAMETER]);
/** Names the Raaga call (`call_…`) a stream belongs to when Raaga placed it; the agent sees it in custom_parameters. */
export const OUTBOUND_CALL_PARAMETER = 'raaga_call_id';
/** An agent is dialled over WebSocket; where it may point is the destination policy's call (destination-policy.ts). */
export const AGENT_URL_SCHEMES: readonly string[] = ['ws', 'wss'];

const bool = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const SettingsShape = {
  voice: z.string().min(1).max(200),
  language: z.enum(LANGUAGE_CODES, { error: `must be one of ${LANGUAGE_CODES.join(', ')}` }),
  speed: z.coerce.number().min(0.5).max(2),
  agent_url: z
    .string()
    .max(450)
    .regex(/^wss?:\/\/[^\s]+$/, 'must be a ws:// or wss:// URL'),
  agent_audio: bool,
  greeting: z.string().max(450),
  greeting_interruptible: bool,
  hangup_after_greeting: bool,
  barge_in: z.enum(['speech', 'dtmf', 'any', 'none']),
  min_speech_ms: z.coerce.number().int().min(0).max(5000),
  barge_in_only_while_speaking: bool,
  barge_in_suspect: z.enum(['vad', 'off']),
  barge_in_events: z.enum(['1', '2']).transform((value) => Number(value) as BargeInEvents),
  short_max_ms: z.coerce.number().int().min(0).max(5000),
  long_min_ms: z.coerce.number().int().min(32).max(10_000),
  verdict_deadline_ms: z.coerce.number().int().min(0).max(5000),
  ambiguous_default: z.enum(['interrupt', 'resume', 'speech']),
  max_hold_ms: z.coerce.number().int().min(100).max(10_000),
  fallback_message: z.string().max(450),
  cache: bool,
  lexicons: z
    .string()
    .max(450)
    .regex(/^[a-z0-9_-]{1,64}(,[a-z0-9_-]{1,64})*$/, 'must be lexicon names separated by commas (brands,places)'),
  from: z.string().max(200),
  to: z.string().max(200),
  direction: z.enum(CALL_DIRECTIONS),
  answered_by: z.enum(ANSWERED_BY),
} as const;

export type SettingName = keyof typeof SettingsShape;
export const SETTING_NAMES = Object.keys(SettingsShape) as SettingName[];
const SettingsSchema = z.object(SettingsShape).partial();

export interface CallParameters {
  readonly voice: string;
  readonly language: LanguageCode;
  readonly speed: number;
  readonly agentUrl: string | undefined;
  readonly agentAudio: boolean;
  readonly greeting: string | undefined;
  readonly greetingInterruptible: boolean;
  /** The call ends once the greeting has played (a message call: an OTP, a reminder, a voicemail). */
  readonly hangupAfterGreeting: boolean;
  readonly bargeIn: BargeInMode;
  readonly minSpeechMs: number;
  readonly onlyWhileBotSpeaking: boolean;
  readonly bargeInSuspect: BargeInSuspect;
  readonly bargeInEvents: BargeInEvents;
  readonly bargeInPolicy: BargeInPolicy;
  readonly fallbackMessage: string;
  /** False: this call's speech neither uses nor fills the prompt cache. */
  readonly cache: boolean;
  /** The account's lexicons the call applies besides its default, first named first (`lexicons=brands,places`). */
  readonly lexicons: readonly string[];
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly direction: CallDirection | undefined;
  readonly answeredBy: AnsweredBy | undefined;
  /** The developer's own parameters (not settings, not credentials), for the agent. */
  readonly custom: Readonly<Record<string, string>>;
}

export type ResolvedParameters =
  | { readonly ok: true; readonly value: CallParameters; readonly settings: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly message: string };

/** Merges layers (later wins; empty strings count as unset) and validates every setting. */
export function resolveCallParameters(defaults: TelephonyConfig, layers: ReadonlyArray<Readonly<Record<string, string>> | undefined>): ResolvedParameters {
  const merged: Record<string, string> = {
    voice: defaults.defaultVoice,
    language: defaults.defaultLanguage,
    barge_in: defaults.bargeIn,
    barge_in_suspect: defaults.bargeInSuspect,
    min_speech_ms: String(defaults.minSpeechMs),
    fallback_message: defaults.agentFallbackMessage,
  };
  const custom: Record<string, string> = {};
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      if (CREDENTIAL_PARAMETERS.has(name)) continue;
      if ((SETTING_NAMES as string[]).includes(name)) {
        if (value !== '' || name === 'greeting' || name === 'fallback_message') merged[name] = value;
      } else {
        custom[name] = value;
      }
    }
  }
  const parsed = SettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `call parameter '${issue?.path.join('.') ?? '?'}' ${issue?.message ?? 'is invalid'}` };
  }
  const s = parsed.data;
  const policy: BargeInPolicy = {
    shortMaxMs: s.short_max_ms ?? DEFAULT_BARGE_IN_POLICY.shortMaxMs,
    longMinMs: s.long_min_ms ?? DEFAULT_BARGE_IN_POLICY.longMinMs,
    verdictDeadlineMs: s.verdict_deadline_ms ?? DEFAULT_BARGE_IN_POLICY.verdictDeadlineMs,
    ambiguousDefault: s.ambiguous_default ?? DEFAULT_BARGE_IN_POLICY.ambiguousDefault,
    maxHoldMs: s.max_hold_ms ?? DEFAULT_BARGE_IN_POLICY.maxHoldMs,
  };
  if (policy.shortMaxMs > policy.longMinMs) {
    return { ok: false, message: `call parameter 'short_max_ms' (${policy.shortMaxMs}) must not exceed 'long_min_ms' (${policy.longMinMs})` };
  }
  return {
    ok: true,
    settings: merged,
    value: {
      voice: s.voice ?? defaults.defaultVoice,
      language: s.language ?? 'hi-IN',
      speed: s.speed ?? 1,
      agentUrl: s.agent_url,
      agentAudio: s.agent_audio ?? false,
      greeting: s.greeting === '' ? undefined : s.greeting,
      greetingInterruptible: s.greeting_interruptible ?? true,
      hangupAfterGreeting: s.hangup_after_greeting ?? false,
      bargeIn: s.barge_in ?? 'any',
      minSpeechMs: s.min_speech_ms ?? defaults.minSpeechMs,
      onlyWhileBotSpeaking: s.barge_in_only_while_speaking ?? true,
      bargeInSuspect: s.barge_in_suspect ?? 'vad',
      bargeInEvents: s.barge_in_events ?? 1,
      bargeInPolicy: policy,
      fallbackMessage: s.fallback_message ?? '',
      cache: s.cache ?? true,
      lexicons: s.lexicons === undefined ? [] : s.lexicons.split(','),
      from: s.from,
      to: s.to,
      direction: s.direction,
      answeredBy: s.answered_by,
      custom,
    },
  };
}
