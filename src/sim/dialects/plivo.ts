// Plivo's side of a bidirectional Audio Stream as the simulator speaks it: start (callId, streamId, mu-law 8 kHz),
// caller audio every 20 ms with epoch-ms timestamps, dtmf, playedStream once a checkpoint's audio has played,
// clearedAudio after clearAudio (pending checkpoints dropped, not acknowledged).

import { readTypedJson } from '../../util/typed-json.js';
import type { PeerCall, PeerDialect, PeerInbound } from '../peer-dialect.js';
import type { WireFrame } from '../../telephony/stream-events.js';

export class PlivoPeerDialect implements PeerDialect {
  readonly provider = 'plivo';
  readonly inboundFrameMs = 20;
  readonly clearEchoesMarks = false;
  readonly #epochMs = Date.now();
  #sequence = 0;

  opening(call: PeerCall): WireFrame[] {
    const start = { callId: call.callSid, streamId: call.streamSid, accountId: call.accountSid, tracks: ['inbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000 } };
    return [JSON.stringify({ event: 'start', sequenceNumber: this.#next(), start, extra_headers: '' })];
  }

  media(call: PeerCall, index: number, atMs: number, mulaw: Uint8Array): WireFrame {
    const media = { track: 'inbound', timestamp: String(this.#epochMs + Math.round(atMs)), chunk: index + 1, payload: Buffer.from(mulaw).toString('base64') };
    return JSON.stringify({ event: 'media', sequenceNumber: this.#next(), streamId: call.streamSid, media, extra_headers: '' });
  }

  dtmf(call: PeerCall, digit: string): WireFrame {
    return JSON.stringify({ event: 'dtmf', sequenceNumber: this.#next(), streamId: call.streamSid, dtmf: { digit } });
  }

  played(call: PeerCall, name: string): WireFrame {
    return JSON.stringify({ event: 'playedStream', sequenceNumber: this.#next(), streamId: call.streamSid, name });
  }

  clearAcknowledgement(call: PeerCall): WireFrame {
    return JSON.stringify({ event: 'clearedAudio', sequenceNumber: this.#next(), streamId: call.streamSid });
  }

  stop(): undefined {
    // Plivo ends a stream by closing the socket.
    return undefined;
  }

  read(data: Uint8Array, isBinary: boolean): PeerInbound {
    if (isBinary) return { event: 'other', reason: 'binary frame' };
    const json = readTypedJson(Buffer.from(data).toString('utf8'), 'event', ['playAudio', 'checkpoint', 'clearAudio']);
    if (!json.ok) return { event: 'other', reason: json.problem === 'unknown-kind' ? `unknown event ${String(json.kind)}` : 'not a JSON object' };
    const m = json.value as { media?: { payload?: unknown; contentType?: unknown; sampleRate?: unknown }; name?: unknown };
    switch (json.kind) {
      case 'playAudio':
        if (typeof m.media?.payload !== 'string') return { event: 'other', reason: 'playAudio without payload' };
        // Plivo does not switch codecs between playAudio messages: the stream is mu-law 8 kHz.
        if (m.media.contentType !== 'audio/x-mulaw' || m.media.sampleRate !== 8000) return { event: 'other', reason: `playAudio as ${String(m.media.contentType)}/${String(m.media.sampleRate)}` };
        return { event: 'media', mulaw: new Uint8Array(Buffer.from(m.media.payload, 'base64')) };
      case 'checkpoint':
        return typeof m.name === 'string' ? { event: 'mark', name: m.name } : { event: 'other', reason: 'checkpoint without name' };
      default:
        return { event: 'clear' };
    }
  }

  #next(): number {
    return ++this.#sequence;
  }
}
