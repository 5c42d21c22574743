// Exotel AgentStream (Voicebot applet) as stream events: snake_case JSON; base64 16-bit little-endian PCM at the
// applet's sample rate (8 kHz by default, ~100 ms per inbound message); `mark` acknowledges playback; `clear`
// flushes (pending marks are not echoed, as far as Exotel documents: the ledger copes). Outbound media messages
// must be multiples of 320 bytes and at least 3,200 bytes (Exotel: smaller ones "may face audio issues"), so bot
// audio is held until 200 ms are ready; a mark inside an utterance waits behind the held audio, and the final mark
// of an utterance flushes whatever is held. https://developer.exotel.com/docs/agentstream/websocket-protocol

import { z } from 'zod';
import { PHONE_FRAME_MS } from '../../audio/mulaw.js';
import { concatBytes } from '../../audio/bytes.js';
import { audioEvent, countField, decodeJsonFrame, mediaFastPath, toBase64, type JsonFrameFormat } from '../json-frames.js';
import type { DecodeResult, StreamCodec, WireFrame } from '../stream-events.js';
import { OutboundTranscoder } from '../wire-audio.js';

/** Exotel's minimum outbound message: 200 ms (3,200 bytes of 8 kHz PCM16). */
const MIN_MESSAGE_MS = 200;

const Num = z.union([z.string().regex(/^\d{1,15}$/), z.number().int().nonnegative()]).transform(Number);
const Id = z.string().min(1).max(128);

const Start = z.object({
  event: z.literal('start'),
  stream_sid: Id.optional(),
  start: z.object({
    stream_sid: Id,
    call_sid: Id,
    account_sid: z.string().max(128).optional(),
    from: z.string().max(64).optional(),
    to: z.string().max(64).optional(),
    custom_parameters: z.record(z.string(), z.string()).optional(),
    media_format: z.object({ encoding: z.string(), sample_rate: Num, bit_rate: Num.optional() }).optional(),
  }),
});
const Media = z.object({ event: z.literal('media'), media: z.object({ chunk: Num.optional(), timestamp: Num.optional(), payload: z.string() }) });
const Dtmf = z.object({ event: z.literal('dtmf'), dtmf: z.object({ digit: z.string().regex(/^[0-9*#A-Da-d]$/), duration: Num.optional() }) });
const Mark = z.object({ event: z.literal('mark'), mark: z.object({ name: z.string().max(256) }) });
const Stop = z.object({ event: z.literal('stop'), stop: z.object({ reason: z.string().max(64).optional() }).optional() });
const Inbound = z.discriminatedUnion('event', [Start, Media, Dtmf, Mark, Stop, z.object({ event: z.literal('connected') })]);
const EVENTS = new Set(['connected', 'start', 'media', 'dtmf', 'mark', 'stop']);
type ExotelInbound = z.infer<typeof Inbound>;
/** How Exotel's frames are read; `media` skips zod when plain (json-frames.ts). */
export const EXOTEL_INBOUND: JsonFrameFormat<ExotelInbound> = {
  sender: 'Exotel',
  field: 'event',
  kinds: EVENTS,
  schema: Inbound,
  media: mediaFastPath<ExotelInbound>({ message: {}, media: { chunk: countField, timestamp: countField } }),
};

export class ExotelCodec implements StreamCodec {
  #streamSid = '';
  #out = new OutboundTranscoder({ encoding: 'pcm16', sampleRateHz: 8000 });
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  /** Marks sent after the held audio, in order: they go out right after it. */
  #marksAfterHeld: string[] = [];

  decode(data: Uint8Array, isBinary: boolean): DecodeResult {
    const decoded = decodeJsonFrame(data, isBinary, EXOTEL_INBOUND);
    if (!decoded.ok) return decoded;
    const { message } = decoded;
    switch (message.event) {
      case 'connected':
        return { ok: true, event: { type: 'notice', what: 'connected' } };
      case 'start': {
        const { start } = message;
        this.#streamSid = start.stream_sid;
        const format = start.media_format;
        // audio/x-raw is 16-bit PCM (bit_rate "16"); the Legs API can ask for mu-law instead.
        const encoding = format === undefined || format.encoding === 'audio/x-raw' ? 'pcm16' : format.encoding.startsWith('audio/x-mulaw') ? 'mulaw' : undefined;
        const sampleRateHz = format?.sample_rate ?? 8000;
        if (encoding) this.#out = new OutboundTranscoder({ encoding, sampleRateHz });
        return {
          ok: true,
          event: {
            type: 'start',
            start: {
              callId: start.call_sid,
              streamId: start.stream_sid,
              providerAccountId: start.account_sid ?? '',
              from: start.from,
              to: start.to,
              parameters: start.custom_parameters ?? {},
              encoding: encoding ?? 'pcm16',
              sampleRateHz,
              unsupportedFormat: encoding === undefined || (format?.bit_rate !== undefined && encoding === 'pcm16' && format.bit_rate !== 16) ? `${format?.encoding}/${sampleRateHz}/${format?.bit_rate}` : undefined,
            },
          },
        };
      }
      case 'media':
        return audioEvent(message.media.payload, message.media.timestamp);
      case 'dtmf':
        return { ok: true, event: { type: 'dtmf', digit: message.dtmf.digit.toUpperCase() } };
      case 'mark':
        return { ok: true, event: { type: 'played', name: message.mark.name } };
      case 'stop':
        return { ok: true, event: { type: 'stop', reason: message.stop?.reason ?? 'stop' } };
    }
  }

  media(mulaw: Uint8Array): WireFrame[] {
    const bytes = this.#out.encode(mulaw);
    this.#held.push(bytes);
    this.#heldBytes += bytes.length;
    return this.#heldBytes >= this.#minBytes() ? this.#flush() : [];
  }

  mark(name: string, final: boolean): WireFrame[] {
    if (this.#heldBytes === 0) return [this.#markMessage(name)];
    this.#marksAfterHeld.push(name);
    return final ? this.#flush() : [];
  }

  clear(): WireFrame[] {
    // Held audio never reached Exotel: dropping it is the clear's job too.
    this.#held = [];
    this.#heldBytes = 0;
    this.#marksAfterHeld = [];
    return [JSON.stringify({ event: 'clear', stream_sid: this.#streamSid })];
  }

  hangup(): WireFrame[] {
    return [];
  }

  #minBytes(): number {
    return (this.#out.frameBytes * MIN_MESSAGE_MS) / PHONE_FRAME_MS;
  }

  #flush(): WireFrame[] {
    const frames: WireFrame[] = [];
    if (this.#heldBytes > 0) {
      frames.push(JSON.stringify({ event: 'media', stream_sid: this.#streamSid, media: { payload: toBase64(concatBytes(this.#held)) } }));
    }
    for (const name of this.#marksAfterHeld) frames.push(this.#markMessage(name));
    this.#held = [];
    this.#heldBytes = 0;
    this.#marksAfterHeld = [];
    return frames;
  }

  #markMessage(name: string): string {
    return JSON.stringify({ event: 'mark', stream_sid: this.#streamSid, mark: { name } });
  }
}
