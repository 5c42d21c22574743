// Twilio Media Streams on the wire (bidirectional <Connect><Stream>): zod schemas of what Twilio sends, lenient
// where Twilio is (numeric fields arrive as strings, extra fields may appear), and the three messages we send.
// https://www.twilio.com/docs/voice/media-streams/websocket-messages

import { z } from 'zod';
import { PHONE_FRAME_BYTES } from '../../audio/mulaw.js';
import { readTypedJson } from '../../util/typed-json.js';

/** "1", "20" or 20: Twilio's examples send sequence numbers, chunks and timestamps as strings. */
const Count = z.union([z.string().regex(/^\d{1,15}$/), z.number().int().nonnegative()]).transform(Number);
const Sid = z.string().min(1).max(64);

export const ConnectedSchema = z.object({ event: z.literal('connected'), protocol: z.string().optional(), version: z.string().optional() });

export const StartSchema = z.object({
  event: z.literal('start'),
  sequenceNumber: Count.optional(),
  streamSid: Sid.optional(),
  start: z.object({
    streamSid: Sid,
    accountSid: Sid,
    callSid: Sid,
    tracks: z.array(z.string()).optional(),
    customParameters: z.record(z.string(), z.string()).optional(),
    mediaFormat: z
      .object({
        encoding: z.string(),
        sampleRate: z.union([z.number(), z.string()]).transform(Number),
        channels: z.union([z.number(), z.string()]).transform(Number),
      })
      .optional(),
  }),
});

export const MediaSchema = z.object({
  event: z.literal('media'),
  sequenceNumber: Count.optional(),
  streamSid: Sid.optional(),
  media: z.object({ track: z.string().optional(), chunk: Count.optional(), timestamp: Count.optional(), payload: z.string() }),
});

export const DtmfSchema = z.object({
  event: z.literal('dtmf'),
  sequenceNumber: Count.optional(),
  streamSid: Sid.optional(),
  dtmf: z.object({ track: z.string().optional(), digit: z.string().regex(/^[0-9*#A-Da-dw]$/) }),
});

export const MarkSchema = z.object({
  event: z.literal('mark'),
  sequenceNumber: Count.optional(),
  streamSid: Sid.optional(),
  mark: z.object({ name: z.string().max(256) }),
});

export const StopSchema = z.object({
  event: z.literal('stop'),
  sequenceNumber: Count.optional(),
  streamSid: Sid.optional(),
  stop: z.object({ accountSid: Sid.optional(), callSid: Sid.optional() }).optional(),
});

export const TwilioInboundSchema = z.discriminatedUnion('event', [ConnectedSchema, StartSchema, MediaSchema, DtmfSchema, MarkSchema, StopSchema]);
export type TwilioInbound = z.infer<typeof TwilioInboundSchema>;
export type TwilioStart = z.infer<typeof StartSchema>;

const EVENTS = new Set(['connected', 'start', 'media', 'dtmf', 'mark', 'stop']);

/** Why a frame from Twilio was not usable: the bridge logs each kind once per call. */
export type InboundProblem = 'invalid-json' | 'unknown-event' | 'invalid-shape';

export type ParsedInbound = { readonly ok: true; readonly message: TwilioInbound } | { readonly ok: false; readonly problem: InboundProblem; readonly detail: string };

export function parseTwilioMessage(raw: string): ParsedInbound {
  const json = readTypedJson(raw, 'event', EVENTS);
  if (!json.ok) {
    if (json.problem === 'invalid-json') return { ok: false, problem: 'invalid-json', detail: 'not JSON' };
    return { ok: false, problem: 'unknown-event', detail: json.problem === 'unknown-kind' ? (json.kind ?? 'no event field') : 'not an object' };
  }
  const event = json.kind;
  const parsed = TwilioInboundSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: 'invalid-shape', detail: `${event}: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}` };
  }
  return { ok: true, message: parsed.data };
}

/** 20 ms of 8 kHz mu-law. */

export type DecodedPayload = { readonly ok: true; readonly audio: Uint8Array } | { readonly ok: false; readonly problem: 'not-base64' | 'bad-length' };

/** Inbound audio: base64 of a whole number of 160-byte frames (what Twilio sends every 20 ms). */
export function decodeMediaPayload(payload: string): DecodedPayload {
  // Node's decoder skips characters outside the alphabet, so a payload with any decodes short: comparing lengths
  // checks every character natively (a regex here cost ~2 % of the event loop at 16 calls).
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const audio = Buffer.from(payload, 'base64');
  if (payload.length % 4 !== 0 || audio.length !== (payload.length / 4) * 3 - padding) return { ok: false, problem: 'not-base64' };
  if (audio.length === 0 || audio.length % PHONE_FRAME_BYTES !== 0) return { ok: false, problem: 'bad-length' };
  return { ok: true, audio: new Uint8Array(audio.buffer, audio.byteOffset, audio.length) };
}

// ---- what we send -------------------------------------------------------------------------------------

export function mediaMessage(streamSid: string, audio: Uint8Array): string {
  return JSON.stringify({ event: 'media', streamSid, media: { payload: Buffer.from(audio.buffer, audio.byteOffset, audio.length).toString('base64') } });
}

export function markMessage(streamSid: string, name: string): string {
  return JSON.stringify({ event: 'mark', streamSid, mark: { name } });
}

export function clearMessage(streamSid: string): string {
  return JSON.stringify({ event: 'clear', streamSid });
}
