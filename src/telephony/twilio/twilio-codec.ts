// Twilio Media Streams as stream events, and Tata Smartflo's dialect of it (the same camelCase messages; outbound
// media carries an incrementing `chunk`, payloads in multiples of 160 bytes, which the call's 20 ms frames are).
// Twilio echoes pending marks after a clear; Smartflo does not say: the playback ledger copes with both.

import type { DecodeResult, StreamCodec, WireFrame } from '../stream-events.js';
import { audioEvent, decodeJsonFrame } from '../json-frames.js';
import { TWILIO_INBOUND, clearMessage, markMessage, mediaMessage } from './twilio-messages.js';

export type TwilioDialect = 'twilio' | 'smartflo';

const MULAW = 'audio/x-mulaw';

export class TwilioCodec implements StreamCodec {
  #streamSid = '';
  #chunk = 0;

  constructor(private readonly dialect: TwilioDialect) {}

  decode(data: Uint8Array, isBinary: boolean): DecodeResult {
    const decoded = decodeJsonFrame(data, isBinary, { sender: this.dialect === 'twilio' ? 'Twilio' : 'Smartflo', ...TWILIO_INBOUND });
    if (!decoded.ok) return decoded;
    const { message } = decoded;
    switch (message.event) {
      case 'connected':
        return { ok: true, event: { type: 'notice', what: 'connected' } };
      case 'start': {
        const { start } = message;
        this.#streamSid = start.streamSid;
        const format = start.mediaFormat;
        const unsupported = format && ((format.channels ?? 1) !== 1 || format.encoding !== MULAW);
        return {
          ok: true,
          event: {
            type: 'start',
            start: {
              callId: start.callSid,
              streamId: start.streamSid,
              providerAccountId: start.accountSid,
              from: start.from,
              to: start.to,
              parameters: start.customParameters ?? {},
              encoding: 'mulaw',
              sampleRateHz: format?.sampleRate ?? 8000,
              unsupportedFormat: unsupported ? `${format.encoding}/${format.sampleRate}/${format.channels ?? 1}` : undefined,
            },
          },
        };
      }
      case 'media':
        return audioEvent(message.media.payload, message.media.timestamp);
      case 'dtmf':
        return { ok: true, event: { type: 'dtmf', digit: message.dtmf.digit } };
      case 'mark':
        return { ok: true, event: { type: 'played', name: message.mark.name } };
      case 'stop':
        return { ok: true, event: { type: 'stop', reason: 'stop' } };
    }
  }

  media(mulaw: Uint8Array): WireFrame[] {
    return [mediaMessage(this.#streamSid, mulaw, this.dialect === 'smartflo' ? ++this.#chunk : undefined)];
  }

  mark(name: string, _final: boolean): WireFrame[] {
    return [markMessage(this.#streamSid, name)];
  }

  clear(): WireFrame[] {
    return [clearMessage(this.#streamSid)];
  }

  hangup(): WireFrame[] {
    return [];
  }
}
