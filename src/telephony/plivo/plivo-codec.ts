// Plivo Audio Streams (and Vobiz, which copies the protocol) as stream events: camelCase JSON; mu-law 8 kHz or
// L16 at 8/16 kHz as the answer XML's contentType asked; `media.timestamp` is Unix epoch ms (re-based here to the
// stream's first audio); `checkpoint` → `playedStream` (or `played`: Plivo's pages disagree, both accepted);
// `clearAudio` → `clearedAudio`, with no echo of the pending checkpoints.
// https://www.plivo.com/docs/voice-agents/audio-streaming/concepts/audio-streaming-reference

import { z } from 'zod';
import { audioEvent, countField, decodeJsonFrame, mediaFastPath, stringField, toBase64, type JsonFrameFormat } from '../json-frames.js';
import type { DecodeResult, StreamCodec, WireEncoding, WireFrame } from '../stream-events.js';
import { OutboundTranscoder } from '../wire-audio.js';

const Num = z.union([z.string().regex(/^\d{1,15}$/), z.number().int().nonnegative()]).transform(Number);
const Id = z.string().min(1).max(128);

const Start = z.object({
  event: z.literal('start'),
  start: z.object({
    callId: Id,
    streamId: Id,
    accountId: z.string().max(128).optional(),
    tracks: z.array(z.string()).optional(),
    mediaFormat: z.object({ encoding: z.string(), sampleRate: Num }).optional(),
  }),
  extra_headers: z.string().max(1024).optional(),
});
const Media = z.object({ event: z.literal('media'), media: z.object({ track: z.string().optional(), timestamp: Num.optional(), chunk: Num.optional(), payload: z.string() }) });
const Dtmf = z.object({ event: z.literal('dtmf'), dtmf: z.object({ digit: z.string().regex(/^[0-9*#A-Da-d]$/) }) });
const Played = z.object({ event: z.enum(['playedStream', 'played']), name: z.string().max(256) });
const Notice = z.object({ event: z.enum(['clearedAudio', 'connected']) });
const Stop = z.object({ event: z.literal('stop') });
const Inbound = z.union([Start, Media, Dtmf, Played, Notice, Stop]);
const EVENTS = new Set(['start', 'media', 'dtmf', 'playedStream', 'played', 'clearedAudio', 'connected', 'stop']);
type PlivoInbound = z.infer<typeof Inbound>;
/** How Plivo's frames are read; `media` skips zod when plain (json-frames.ts). */
export const PLIVO_INBOUND: JsonFrameFormat<PlivoInbound> = {
  sender: 'Plivo',
  field: 'event',
  kinds: EVENTS,
  schema: Inbound,
  media: mediaFastPath<PlivoInbound>({ message: {}, media: { track: stringField(), timestamp: countField, chunk: countField } }),
};

/** Plivo's contentType names: audio/x-mulaw (8 kHz) and audio/x-l16 (8 or 16 kHz). */
export const PLIVO_CONTENT_TYPES: Readonly<Record<WireEncoding, string>> = { mulaw: 'audio/x-mulaw', pcm16: 'audio/x-l16' };

export class PlivoCodec implements StreamCodec {
  #streamId = '';
  #firstTimestampMs: number | undefined;
  #encoding: WireEncoding = 'mulaw';
  #sampleRateHz = 8000;
  #out = new OutboundTranscoder({ encoding: 'mulaw', sampleRateHz: 8000 });

  decode(data: Uint8Array, isBinary: boolean): DecodeResult {
    const decoded = decodeJsonFrame(data, isBinary, PLIVO_INBOUND);
    if (!decoded.ok) return decoded;
    const { message } = decoded;
    switch (message.event) {
      case 'start': {
        const { start } = message;
        this.#streamId = start.streamId;
        const format = start.mediaFormat;
        const encoding = format === undefined || format.encoding.startsWith(PLIVO_CONTENT_TYPES.mulaw) ? 'mulaw' : format.encoding.startsWith(PLIVO_CONTENT_TYPES.pcm16) ? 'pcm16' : undefined;
        this.#encoding = encoding ?? 'mulaw';
        this.#sampleRateHz = format?.sampleRate ?? 8000;
        this.#out = new OutboundTranscoder({ encoding: this.#encoding, sampleRateHz: this.#sampleRateHz });
        return {
          ok: true,
          event: {
            type: 'start',
            start: {
              callId: start.callId,
              streamId: start.streamId,
              providerAccountId: start.accountId ?? '',
              from: undefined,
              to: undefined,
              parameters: {},
              encoding: this.#encoding,
              sampleRateHz: this.#sampleRateHz,
              unsupportedFormat: encoding === undefined ? `${format?.encoding}/${format?.sampleRate}` : undefined,
            },
          },
        };
      }
      case 'media': {
        const epochMs = message.media.timestamp;
        if (epochMs !== undefined) this.#firstTimestampMs ??= epochMs;
        return audioEvent(message.media.payload, epochMs === undefined || this.#firstTimestampMs === undefined ? undefined : epochMs - this.#firstTimestampMs);
      }
      case 'dtmf':
        return { ok: true, event: { type: 'dtmf', digit: message.dtmf.digit.toUpperCase() } };
      case 'playedStream':
      case 'played':
        return { ok: true, event: { type: 'played', name: message.name } };
      case 'clearedAudio':
      case 'connected':
        return { ok: true, event: { type: 'notice', what: message.event } };
      case 'stop':
        return { ok: true, event: { type: 'stop', reason: 'stop' } };
    }
  }

  media(mulaw: Uint8Array): WireFrame[] {
    const media = { contentType: PLIVO_CONTENT_TYPES[this.#encoding], sampleRate: this.#sampleRateHz, payload: toBase64(this.#out.encode(mulaw)) };
    return [JSON.stringify({ event: 'playAudio', streamId: this.#streamId, media })];
  }

  mark(name: string, _final: boolean): WireFrame[] {
    return [JSON.stringify({ event: 'checkpoint', streamId: this.#streamId, name })];
  }

  clear(): WireFrame[] {
    return [JSON.stringify({ event: 'clearAudio', streamId: this.#streamId })];
  }

  hangup(): WireFrame[] {
    return [];
  }
}
