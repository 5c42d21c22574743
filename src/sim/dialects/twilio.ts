// The Twilio side of a bidirectional Media Stream as the simulator speaks it (and Smartflo's: the same messages,
// ~100 ms of caller audio per message): the messages Twilio sends, numeric fields as strings like Twilio's own,
// and a loose reading of what a server sends back (media, mark, clear). Kept apart from the codec's zod schemas on
// purpose: the peer is an independent implementation to test against.

import { readTypedJson } from '../../util/typed-json.js';
import type { PeerCall, PeerDialect, PeerInbound } from '../peer-dialect.js';
import type { WireFrame } from '../../telephony/stream-events.js';

export const MEDIA_FORMAT = { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } as const;

export class TwilioPeerDialect implements PeerDialect {
  readonly provider: string;
  readonly inboundFrameMs: number;
  readonly clearEchoesMarks: boolean;
  #sequence = 0;

  constructor(readonly dialect: 'twilio' | 'smartflo' = 'twilio') {
    this.provider = dialect;
    this.inboundFrameMs = dialect === 'smartflo' ? 100 : 20;
    // Smartflo does not document what clear does to marks; the simulator assumes they are dropped.
    this.clearEchoesMarks = dialect === 'twilio';
  }

  opening(call: PeerCall): WireFrame[] {
    const start = {
      accountSid: call.accountSid,
      streamSid: call.streamSid,
      callSid: call.callSid,
      tracks: ['inbound'],
      customParameters: { ...call.customParameters },
      mediaFormat: this.dialect === 'smartflo' ? { encoding: 'audio/x-mulaw', sampleRate: 8000, bitRate: 64, bitDepth: 8 } : MEDIA_FORMAT,
      ...(this.dialect === 'smartflo' ? { from: '+919800000001', to: '+918000000002', direction: 'inbound' } : {}),
    };
    return [
      JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }),
      JSON.stringify({ event: 'start', sequenceNumber: this.#next(), streamSid: call.streamSid, start }),
    ];
  }

  /** `chunk` counts media messages from 1; `timestamp` is ms of audio since the stream started. */
  media(call: PeerCall, index: number, atMs: number, mulaw: Uint8Array): WireFrame {
    const media = { track: 'inbound', chunk: String(index + 1), timestamp: String(Math.round(atMs)), payload: Buffer.from(mulaw).toString('base64') };
    return JSON.stringify({ event: 'media', sequenceNumber: this.#next(), streamSid: call.streamSid, media });
  }

  dtmf(call: PeerCall, digit: string): WireFrame {
    return JSON.stringify({ event: 'dtmf', sequenceNumber: this.#next(), streamSid: call.streamSid, dtmf: { track: 'inbound_track', digit } });
  }

  played(call: PeerCall, name: string): WireFrame {
    return JSON.stringify({ event: 'mark', sequenceNumber: this.#next(), streamSid: call.streamSid, mark: { name } });
  }

  clearAcknowledgement(): undefined {
    return undefined;
  }

  stop(call: PeerCall): WireFrame {
    return JSON.stringify({ event: 'stop', sequenceNumber: this.#next(), streamSid: call.streamSid, stop: { accountSid: call.accountSid, callSid: call.callSid } });
  }

  read(data: Uint8Array, isBinary: boolean): PeerInbound {
    // Twilio answers binary frames with error 31950 and ignores them.
    if (isBinary) return { event: 'other', reason: 'binary frame' };
    const json = readTypedJson(Buffer.from(data).toString('utf8'), 'event', ['media', 'mark', 'clear']);
    if (!json.ok) {
      if (json.problem === 'unknown-kind') return { event: 'other', reason: `unknown event ${String(json.kind)}` };
      return { event: 'other', reason: json.problem === 'invalid-json' ? 'not JSON' : 'not an object' };
    }
    const m = json.value as { media?: { payload?: unknown; chunk?: unknown }; mark?: { name?: unknown } };
    switch (json.kind) {
      case 'media': {
        if (typeof m.media?.payload !== 'string') return { event: 'other', reason: 'media without payload' };
        if (this.dialect === 'smartflo' && typeof m.media.chunk !== 'number') return { event: 'other', reason: 'smartflo media without a numeric chunk' };
        const mulaw = new Uint8Array(Buffer.from(m.media.payload, 'base64'));
        if (this.dialect === 'smartflo' && mulaw.length % 160 !== 0) return { event: 'other', reason: 'smartflo payload not a multiple of 160 bytes' };
        return { event: 'media', mulaw };
      }
      case 'mark':
        if (typeof m.mark?.name !== 'string') return { event: 'other', reason: 'mark without name' };
        return { event: 'mark', name: m.mark.name };
      default:
        return { event: 'clear' };
    }
  }

  #next(): string {
    return String(++this.#sequence);
  }
}
