// Asterisk AudioSocket as stream events: the UUID packet is the stream's start (the UUID is the call's only
// identity), slin 8 kHz packets are caller audio, DTMF and hangup as their packets. There are no marks and no
// clear on the wire: Asterisk plays each packet as it arrives, so Raaga meters its audio itself (frame-pacer.ts)
// and acknowledges marks as the audio before them finishes; a clear drops what the pacer still holds.
// Outbound audio is one slin packet per 20 ms frame (320 bytes).

import { mulawToPcm16, PHONE_FRAME_BYTES } from '../../audio/mulaw.js';
import { pcm16ToBytesLE } from '../../audio/pcm.js';
import type { DecodeResult, StreamCodec, WireFrame } from '../stream-events.js';
import { AUDIOSOCKET_HEADER_BYTES, AUDIOSOCKET_TYPE, encodePacket } from './audiosocket-packets.js';

const UUID_BYTES = 16;

/** 16 bytes as the canonical 8-4-4-4-12 hex form Asterisk's dialplan shows. */
export function formatUuid(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class AudioSocketCodec implements StreamCodec {
  decode(data: Uint8Array, isBinary: boolean): DecodeResult {
    if (!isBinary || data.length < AUDIOSOCKET_HEADER_BYTES) return { ok: false, problem: 'invalid-packet', detail: 'not an AudioSocket packet' };
    const type = data[0]!;
    const payload = data.subarray(AUDIOSOCKET_HEADER_BYTES);
    switch (type) {
      case AUDIOSOCKET_TYPE.uuid: {
        if (payload.length !== UUID_BYTES) return { ok: false, problem: 'invalid-shape', detail: `uuid packet of ${payload.length} bytes (16 expected)` };
        const uuid = formatUuid(payload);
        const start = { callId: uuid, streamId: uuid, providerAccountId: '', from: undefined, to: undefined, parameters: {}, encoding: 'pcm16', sampleRateHz: 8000 } as const;
        return { ok: true, event: { type: 'start', start } };
      }
      case AUDIOSOCKET_TYPE.slin8k:
        if (payload.length === 0) return { ok: false, problem: 'empty', detail: 'audio packet without audio' };
        return { ok: true, event: { type: 'audio', audio: payload, atMs: undefined } };
      case AUDIOSOCKET_TYPE.slin16k:
        return { ok: false, problem: 'unsupported-audio', detail: "slin16 (0x11) audio: set the channel's format to slin (8 kHz) before AudioSocket()" };
      case AUDIOSOCKET_TYPE.dtmf: {
        const digit = String.fromCharCode(payload[0] ?? 0);
        if (payload.length !== 1 || !/^[0-9*#A-Da-d]$/.test(digit)) return { ok: false, problem: 'invalid-shape', detail: 'dtmf packet without one digit' };
        return { ok: true, event: { type: 'dtmf', digit: digit.toUpperCase() } };
      }
      case AUDIOSOCKET_TYPE.hangup:
        return { ok: true, event: { type: 'stop', reason: 'hangup' } };
      case AUDIOSOCKET_TYPE.error:
        return { ok: false, problem: 'asterisk-error', detail: `error packet, code ${payload[0] ?? 'none'}` };
      default:
        return { ok: false, problem: 'unknown-event', detail: `packet type 0x${type.toString(16).padStart(2, '0')}` };
    }
  }

  media(mulaw: Uint8Array): WireFrame[] {
    const frames: WireFrame[] = [];
    for (let offset = 0; offset < mulaw.length; offset += PHONE_FRAME_BYTES) {
      frames.push(encodePacket(AUDIOSOCKET_TYPE.slin8k, pcm16ToBytesLE(mulawToPcm16(mulaw.subarray(offset, offset + PHONE_FRAME_BYTES)))));
    }
    return frames;
  }

  /** Nothing on the wire: the pacer acknowledges marks (see the file's header). */
  mark(): WireFrame[] {
    return [];
  }

  /** Nothing on the wire: Asterisk holds nothing, the pacer drops what it holds. */
  clear(): WireFrame[] {
    return [];
  }

  hangup(): WireFrame[] {
    return [encodePacket(AUDIOSOCKET_TYPE.hangup)];
  }
}
