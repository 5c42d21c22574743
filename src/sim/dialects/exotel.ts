// Exotel's side of a Voicebot applet stream as the simulator speaks it: connected, start (snake_case, PCM16 8 kHz),
// caller audio as base64 16-bit PCM every ~100 ms, dtmf, mark acknowledgements, stop; a clear drops pending marks
// without acknowledging them. Outbound media that breaks Exotel's rule (multiples of 320 bytes) is flagged.

import { bytesLEToPcm16, pcm16ToBytesLE } from '../../audio/pcm.js';
import { mulawToPcm16, pcm16ToMulaw } from '../../audio/mulaw.js';
import { readTypedJson } from '../../util/typed-json.js';
import type { PeerCall, PeerDialect, PeerInbound } from '../peer-dialect.js';
import type { WireFrame } from '../../telephony/stream-events.js';

/** Exotel's largest outbound message ("above 100k might result in timeouts"). */
const MAX_MESSAGE_BYTES = 100_000;

export class ExotelPeerDialect implements PeerDialect {
  readonly provider = 'exotel';
  readonly inboundFrameMs = 100;
  readonly clearEchoesMarks = false;
  #sequence = 0;

  opening(call: PeerCall): WireFrame[] {
    const start = {
      stream_sid: call.streamSid,
      call_sid: call.callSid,
      account_sid: call.accountSid,
      from: '+919800000001',
      to: '+918000000002',
      custom_parameters: { ...call.customParameters },
      media_format: { encoding: 'audio/x-raw', sample_rate: '8000', bit_rate: '16' },
    };
    return [JSON.stringify({ event: 'connected' }), JSON.stringify({ event: 'start', sequence_number: this.#next(), stream_sid: call.streamSid, start })];
  }

  media(call: PeerCall, index: number, atMs: number, mulaw: Uint8Array): WireFrame {
    const payload = Buffer.from(pcm16ToBytesLE(mulawToPcm16(mulaw))).toString('base64');
    return JSON.stringify({ event: 'media', sequence_number: this.#next(), stream_sid: call.streamSid, media: { chunk: String(index + 1), timestamp: String(Math.round(atMs)), payload } });
  }

  dtmf(call: PeerCall, digit: string): WireFrame {
    return JSON.stringify({ event: 'dtmf', sequence_number: this.#next(), stream_sid: call.streamSid, dtmf: { digit, duration: '100' } });
  }

  played(call: PeerCall, name: string): WireFrame {
    return JSON.stringify({ event: 'mark', sequence_number: this.#next(), stream_sid: call.streamSid, mark: { name } });
  }

  clearAcknowledgement(): undefined {
    return undefined;
  }

  stop(call: PeerCall): WireFrame {
    return JSON.stringify({ event: 'stop', sequence_number: this.#next(), stream_sid: call.streamSid, stop: { call_sid: call.callSid, account_sid: call.accountSid, reason: 'callended' } });
  }

  read(data: Uint8Array, isBinary: boolean): PeerInbound {
    if (isBinary) return { event: 'other', reason: 'binary frame' };
    const json = readTypedJson(Buffer.from(data).toString('utf8'), 'event', ['media', 'mark', 'clear']);
    if (!json.ok) return { event: 'other', reason: json.problem === 'unknown-kind' ? `unknown event ${String(json.kind)}` : 'not a JSON object' };
    const m = json.value as { stream_sid?: unknown; media?: { payload?: unknown }; mark?: { name?: unknown } };
    if (typeof m.stream_sid !== 'string') return { event: 'other', reason: `${json.kind} without stream_sid` };
    switch (json.kind) {
      case 'media': {
        if (typeof m.media?.payload !== 'string') return { event: 'other', reason: 'media without payload' };
        const pcm = Buffer.from(m.media.payload, 'base64');
        if (pcm.length % 320 !== 0 || pcm.length > MAX_MESSAGE_BYTES) return { event: 'other', reason: `media of ${pcm.length} bytes (Exotel wants multiples of 320, at most 100k)` };
        return { event: 'media', mulaw: pcm16ToMulaw(bytesLEToPcm16(pcm)) };
      }
      case 'mark':
        return typeof m.mark?.name === 'string' ? { event: 'mark', name: m.mark.name } : { event: 'other', reason: 'mark without name' };
      default:
        return { event: 'clear' };
    }
  }

  #next(): string {
    return String(++this.#sequence);
  }
}
