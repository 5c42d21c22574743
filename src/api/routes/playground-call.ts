// POST /v1/playground/call-sim, the playground's call view: runs one simulated call against this very server as the
// chosen provider would (the providers of the registry that offer themselves to the playground; Twilio: the media
// stream with a freshly minted call token; the others: their own path and protocol with the account's stored
// credentials for them), caller speech in real time, marks, clear, with the CallPeer of src/sim/, and returns its
// timeline and what the caller heard. The bot's speech is billed like any call, the simulated caller's words like any
// synthesis (admitted with a concurrency slot and their credits, billed by the billing rule).

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PHONE_FRAME_BYTES, PHONE_FRAME_MS } from '../../audio/mulaw.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mulawToPcm16 } from '../../audio/mulaw.js';
import { pcm16Sample } from '../../audio/pcm.js';
import type { Ticket } from '../../core/admission.js';
import { chargeFor, type UtteranceOutcome } from '../../core/synthesis/billing.js';
import type { AppliedLexicons } from '../../core/lexicons/applied-lexicons.js';
import type { ResolvedVoice } from '../../core/voice-resolver.js';
import { ApiError } from '../../errors.js';
import { LANGUAGE_CODES } from '../../languages.js';
import type { Account } from '../../store/store.js';
import { countCodePoints } from '../../util/code-points.js';
import { dialProvider, storedCredentials } from '../../sim/dial-provider.js';
import { CallerTrack, type CallerClip } from '../../sim/caller-audio.js';
import type { CallPeer } from '../../sim/call-peer.js';
import { PLAYGROUND_PROVIDERS } from '../../telephony/providers.js';
import { mintCallToken } from './telephony-media.js';
import { storeCall } from '../../core/store-call.js';
import type { ApiContext, TelephonyContext } from '../context.js';
import { engineErrorToApiError } from '../engine-errors.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';

export const CALL_SIM_PATH = '/v1/playground/call-sim';
/** RMS (of full scale) drawn as a full bar: speech peaks well below full scale. */
const FULL_BAR_RMS = 0.25;

export const CallSimRequestSchema = z
  .strictObject({
    provider: z.enum(PLAYGROUND_PROVIDERS).default('twilio').meta({
      description: "Whose side of the call to play. Every provider but Twilio uses the account's stored credentials for it (raaga telephony set), or none when the account allows unsigned requests.",
    }),
    voice: z.string().min(1).max(200).meta({ description: "The bot's voice (a preset name or vc_ id)." }),
    language: z.enum(LANGUAGE_CODES),
    greeting: z.string().min(1).max(3000).meta({ description: 'What the bot says when the call starts (the call greeting).' }),
    caller_text: z.string().max(500).optional().meta({ description: 'What the simulated caller says, spoken by the embedded engine.' }),
    caller_at_ms: z.number().int().min(0).max(30_000).default(2000).meta({ description: 'When the caller starts talking.' }),
    duration_ms: z.number().int().min(1000).max(30_000).default(6000).meta({ description: 'How long the call lasts (real time).' }),
  })
  .meta({ description: 'A simulated call for the playground.' });

const TimelineEventSchema = z.strictObject({ at_ms: z.number(), kind: z.string(), detail: z.string().optional() });

export const CallSimResultSchema = z
  .strictObject({
    call_sid: z.string(),
    provider: z.enum(PLAYGROUND_PROVIDERS),
    duration_ms: z.number(),
    frame_ms: z.literal(PHONE_FRAME_MS),
    heard_levels: z.array(z.number().min(0).max(1)).meta({ description: 'Level of what the caller heard, one per 20 ms frame (0 silent, 1 loud).' }),
    caller: z.strictObject({ start_ms: z.number(), end_ms: z.number(), text: z.string() }).nullable(),
    events: z.array(TimelineEventSchema).meta({ description: "The peer's timeline: start, first_media_in, mark_received, mark_echoed, clear_received, replay_received, caller_speech, …" }),
    summary: z.strictObject({
      first_media_in_ms: z.number().nullable(),
      marks_received: z.number().int(),
      marks_echoed: z.number().int(),
      marks_echoed_by_clear: z.number().int(),
      clears: z.number().int(),
      barge_in_ms: z.number().nullable().meta({ description: 'From the first caller speech frame to the clear that followed it.' }),
      resumes: z.number().int().meta({ description: 'Clears the bot followed by re-sending the held audio (barge-in holds that resumed).' }),
      repeated_ms: z.number().meta({ description: 'Audio the caller heard twice because of those resumes.' }),
      lost_ms: z.number().meta({ description: 'Audio the caller never heard although it was resumed (0 when resumes are exact).' }),
      underruns: z.number().int(),
      close_code: z.number().int().nullable(),
    }),
  })
  .meta({ description: 'What happened on the simulated line.' });

export type CallSimResult = z.output<typeof CallSimResultSchema>;

/** This server's own address: the simulated Twilio dials it over loopback, never the public URL. */
function localBaseUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo | null;
  if (!address) throw new ApiError('internal_error', 'The server is not listening.');
  const unspecified = address.address === '0.0.0.0' || address.address === '::';
  const host = unspecified ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** RMS of each 20 ms frame, scaled to 0..1 for drawing. */
function frameLevels(mulaw: Uint8Array): number[] {
  const pcm = mulawToPcm16(mulaw);
  const levels: number[] = [];
  for (let start = 0; start < pcm.length; start += PHONE_FRAME_BYTES) {
    let sum = 0;
    const end = Math.min(pcm.length, start + PHONE_FRAME_BYTES);
    for (let i = start; i < end; i++) sum += pcm16Sample(pcm[i]!) ** 2;
    levels.push(Math.round(Math.min(1, Math.sqrt(sum / (end - start)) / FULL_BAR_RMS) * 1000) / 1000);
  }
  return levels;
}

/** What the simulated caller says, and in which voice: one other than the bot's when possible. */
interface CallerLine {
  readonly text: string;
  readonly codePoints: number;
  readonly voiceName: string;
  readonly voice: ResolvedVoice;
  /** The account's default lexicon, as on every other path: the caller's words sound as the account's speech does. */
  readonly lexicon: AppliedLexicons;
}

async function callerLine(ctx: ApiContext, account: Account, request: z.output<typeof CallSimRequestSchema>): Promise<CallerLine | undefined> {
  const text = request.caller_text?.trim();
  if (!text) return undefined;
  const voices = ctx.catalog.voices();
  const bot = voices.find((voice) => voice.name === request.voice);
  const callerVoice = voices.find((voice) => voice.name !== request.voice && voice.gender !== bot?.gender) ?? voices[0];
  if (!callerVoice) return undefined;
  return {
    text,
    codePoints: countCodePoints(text),
    voiceName: callerVoice.name,
    voice: await ctx.voices.resolve(account, callerVoice.name, request.language),
    lexicon: await ctx.synthesis.lexicons(account.id, undefined, request.language),
  };
}

/**
 * The caller's words as 8 kHz mu-law, by this server's engine, paid for like a `generate` of them (the ticket holds
 * their slot and credits): the whole text once its audio is made, nothing when the engine failed or cut it short.
 */
async function callerClip(ctx: ApiContext, account: Account, request: z.output<typeof CallSimRequestSchema>, line: CallerLine, ticket: Ticket, signal: AbortSignal): Promise<CallerClip> {
  const utterance = ctx.synthesis.utterance({
    text: line.text,
    language: request.language,
    voice: line.voice,
    format: 'mulaw',
    sampleRateHz: 8000,
    speed: 1,
    mode: 'complete',
    accountId: account.id,
    lexicon: line.lexicon,
  });
  let outcome: UtteranceOutcome = 'failed';
  try {
    const parts: Uint8Array[] = [];
    for await (const bytes of utterance.audio(signal)) parts.push(bytes);
    outcome = utterance.truncated ? 'truncated' : 'completed';
    return { atMs: request.caller_at_ms, mulaw: Buffer.concat(parts), label: `"${line.text}"` };
  } catch (error) {
    throw engineErrorToApiError(error);
  } finally {
    const { used, report } = chargeFor({ outcome, totalCodePoints: line.codePoints, deliveredCodePoints: 0, audioMs: utterance.durationMs, engine: utterance.engineKind });
    await ticket.finish(used, report);
  }
}

async function simulateCall(
  app: FastifyInstance,
  ctx: ApiContext,
  telephony: TelephonyContext,
  httpRequest: Pick<FastifyRequest, 'account' | 'apiKeyId' | 'rateInfo'> & { readonly body: z.output<typeof CallSimRequestSchema> },
): Promise<CallSimResult> {
  const account = httpRequest.account as Account;
  const request = httpRequest.body;
  await ctx.voices.resolve(account, request.voice, request.language);
  const line = await callerLine(ctx, account, request);
  // The simulation counts as one request of the account's window; the simulated caller's words are synthesis like
  // any other (a concurrency slot while they are made, their code points in credits, a `playground` usage record);
  // the call then pays its own way.
  const ticket = await ctx.admission.admit({
    account,
    countRate: true,
    takeSlot: line !== undefined,
    credits: line?.codePoints ?? 0,
    ...(line ? { usage: { keyId: httpRequest.apiKeyId, endpoint: 'playground' as const, voice: line.voiceName, language: request.language } } : {}),
  });
  httpRequest.rateInfo = ticket.rate;
  let clip: CallerClip | undefined;
  if (line) clip = await callerClip(ctx, account, request, line, ticket, ctx.shutdown);
  else await ticket.finish(0);
  const base = localBaseUrl(app);
  const settings = await storeCall(() => ctx.store.getTelephonySettings(account.id));
  const params = { voice: request.voice, language: request.language, greeting: request.greeting };
  const caller = new CallerTrack(clip ? [clip] : []);
  const publicUrl = telephony.config.publicUrl ?? base;
  // What the provider presents is the account's stored credentials for it (Twilio's auth token only signs: a Twilio
  // call is simulated with or without it, its call token minted here as the voice webhook would).
  const credentials = storedCredentials(request.provider, settings);
  if (!credentials && settings?.allowUnsigned !== true) {
    throw new ApiError('validation_error', `provider: the account has no ${request.provider} credentials; set them with raaga telephony set (docs/telephony-providers.md) or pick twilio.`);
  }
  let peer: CallPeer;
  try {
    ({ peer } = await dialProvider({
      provider: request.provider,
      baseUrl: base,
      publicUrl,
      accountId: account.id,
      // A provider whose answer step mints call tokens (Twilio) streams with one minted here: the account is already
      // authenticated by its API key.
      callToken: (callSid) => mintCallToken(telephony, account.id, callSid),
      credentials: credentials ?? {},
      params,
      caller,
    }));
  } catch (error) {
    throw new ApiError('internal_error', `The simulated ${request.provider} call could not reach this server: ${(error as Error).message}`);
  }
  await peer.runUntil(request.duration_ms);
  const heardUntilMs = Math.min(peer.elapsedMs(), request.duration_ms);
  await peer.stop();
  const summary = peer.summary();
  return {
    call_sid: peer.start.callSid,
    provider: request.provider,
    duration_ms: request.duration_ms,
    frame_ms: PHONE_FRAME_MS,
    heard_levels: frameLevels(peer.heardMulaw(heardUntilMs)),
    caller: clip ? { start_ms: clip.atMs, end_ms: clip.atMs + clip.mulaw.length / 8, text: request.caller_text?.trim() ?? '' } : null,
    events: peer.timeline.map((event) => ({ at_ms: Math.round(event.atMs * 10) / 10, kind: event.kind, ...(event.detail === undefined ? {} : { detail: event.detail }) })),
    summary: {
      first_media_in_ms: summary.firstMediaInMs ?? null,
      marks_received: summary.marksReceived,
      marks_echoed: summary.marksEchoed,
      marks_echoed_by_clear: summary.marksEchoedByClear,
      clears: summary.clears,
      barge_in_ms: summary.bargeInMs ?? null,
      resumes: summary.replays,
      repeated_ms: summary.repeatedMs,
      lost_ms: summary.lostMs,
      underruns: summary.playout.underruns,
      close_code: summary.closeCode ?? null,
    },
  };
}

export function registerPlaygroundCallRoute(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  const telephony = ctx.telephony;
  if (!telephony) return;
  const schema = {
    tags: ['playground'],
    operationId: 'simulateCall',
    summary: "Run one simulated phone call against this server and return its timeline (the playground's call view).",
    description:
      "Plays a provider's side of a call over loopback for `duration_ms` of real time (Twilio: the media stream with a call token minted for it; " +
      "Exotel, Plivo/Vobiz, Smartflo, Asterisk: their own path and protocol, with the account's stored credentials for that provider): the bot " +
      "speaks the greeting, the simulated caller talks at `caller_at_ms`. Counts as one request of the rate window; the bot's " +
      "speech is billed like any call, and `caller_text` like any synthesis: its code points in credits and a concurrency slot while " +
      'it is synthesized, before the call starts. Only when telephony is enabled.',
    body: CallSimRequestSchema,
    response: {
      200: jsonResponse('What happened on the line.', CallSimResultSchema),
      ...errorResponses(['invalid_api_key', 'insufficient_credits', 'voice_language_not_found', 'validation_error', 'rate_limit_exceeded', 'concurrency_limit_exceeded', 'internal_error', 'store_unavailable']),
    },
  };
  typed(app).post(CALL_SIM_PATH, { onRequest, schema }, (request) => simulateCall(app, ctx, telephony, request));
}
