// Asterisk chan_websocket's side as the simulator speaks it (plain-text control messages): MEDIA_START, caller
// audio as binary ulaw frames of 160 bytes every 20 ms, DTMF_END, MEDIA_MARK_PROCESSED when a mark reaches the
// front of the queue; FLUSH_MEDIA drops queued frames and queued marks without a word. Asterisk closes the socket
// on a message over 65,500 bytes; the simulator flags one.

import type { PeerCall, PeerDialect, PeerInbound } from '../peer-dialect.js';
import type { WireFrame } from '../../telephony/stream-events.js';
import { ASTERISK_MAX_MESSAGE_BYTES } from '../../telephony/asterisk/asterisk-codec.js';

export class AsteriskPeerDialect implements PeerDialect {
  readonly provider = 'asterisk';
  readonly inboundFrameMs = 20;
  readonly clearEchoesMarks = false;

  opening(call: PeerCall): WireFrame[] {
    return [`MEDIA_START connection_id:${call.streamSid} channel:WebSocket/raaga-${call.callSid} channel_id:${call.callSid} format:ulaw optimal_frame_size:160 ptime:20`];
  }

  media(_call: PeerCall, _index: number, _atMs: number, mulaw: Uint8Array): WireFrame {
    return mulaw;
  }

  dtmf(_call: PeerCall, digit: string): WireFrame {
    return `DTMF_END digit:${digit}`;
  }

  played(_call: PeerCall, name: string): WireFrame {
    return `MEDIA_MARK_PROCESSED correlation_id:${name}`;
  }

  clearAcknowledgement(): undefined {
    return undefined;
  }

  stop(): undefined {
    // The channel hanging up closes the socket.
    return undefined;
  }

  read(data: Uint8Array, isBinary: boolean): PeerInbound {
    if (data.length > ASTERISK_MAX_MESSAGE_BYTES) return { event: 'other', reason: `message of ${data.length} bytes (Asterisk hangs up over ${ASTERISK_MAX_MESSAGE_BYTES})` };
    if (isBinary) return { event: 'media', mulaw: new Uint8Array(data) };
    const [command, ...rest] = Buffer.from(data).toString('utf8').trim().split(/\s+/);
    switch (command) {
      case 'MARK_MEDIA': {
        const id = rest.find((part) => part.startsWith('correlation_id:'))?.slice('correlation_id:'.length);
        return id ? { event: 'mark', name: id } : { event: 'other', reason: 'MARK_MEDIA without correlation_id' };
      }
      case 'FLUSH_MEDIA':
        return { event: 'clear' };
      case 'HANGUP':
        return { event: 'hangup' };
      default:
        return { event: 'other', reason: `unknown command ${String(command).slice(0, 40)}` };
    }
  }
}
