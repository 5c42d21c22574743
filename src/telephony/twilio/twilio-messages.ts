// Twilio Media Streams on the wire (bidirectional <Connect><Stream>), and Tata Smartflo's dialect of it: zod
// schemas of what they send, lenient where they are (numeric fields arrive as strings, extra fields may appear,
// Smartflo's start adds from/to/direction and describes the format by bit rate), and the messages we send.
// https://www.twilio.com/docs/voice/media-streams/websocket-messages
// https://docs.smartflo.tatatelebusiness.com/docs/bi-directional-audio-streaming-integration-document

import { z } from 'zod';
import { countField, mediaFastPath, stringField, type JsonFrameFormat } from '../json-frames.js';

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
    /** Smartflo only: Twilio's start has no numbers (they come with the voice webhook). */
    from: z.string().max(200).optional(),
    to: z.string().max(200).optional(),
    customParameters: z.record(z.string(), z.string()).optional(),
    mediaFormat: z
      .object({
        encoding: z.string(),
        sampleRate: z.union([z.number(), z.string()]).transform(Number),
        /** Twilio sends channels; Smartflo sends bitRate/bitDepth instead (mono either way). */
        channels: z.union([z.number(), z.string()]).transform(Number).optional(),
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

/** How the JSON frame reader tells Twilio's messages apart (see json-frames.ts); `media` skips zod when plain. */
export const TWILIO_INBOUND = {
  field: 'event',
  kinds: new Set(['connected', 'start', 'media', 'dtmf', 'mark', 'stop']),
  schema: TwilioInboundSchema,
  media: mediaFastPath<TwilioInbound>({
    message: { sequenceNumber: countField, streamSid: stringField(1, 64) },
    media: { track: stringField(), chunk: countField, timestamp: countField },
  }),
} as const satisfies Omit<JsonFrameFormat<TwilioInbound>, 'sender'>;

// ---- what we send -------------------------------------------------------------------------------------

/** `chunk`: Smartflo requires an incrementing counter on every outbound media message; Twilio takes none. */
export function mediaMessage(streamSid: string, audio: Uint8Array, chunk?: number): string {
  const payload = Buffer.from(audio.buffer, audio.byteOffset, audio.length).toString('base64');
  return JSON.stringify({ event: 'media', streamSid, media: chunk === undefined ? { payload } : { payload, chunk } });
}

export function markMessage(streamSid: string, name: string): string {
  return JSON.stringify({ event: 'mark', streamSid, mark: { name } });
}

export function clearMessage(streamSid: string): string {
  return JSON.stringify({ event: 'clear', streamSid });
}
