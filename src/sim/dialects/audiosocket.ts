// Asterisk AudioSocket's side as the simulator speaks it: the call's UUID packet first, caller audio as slin 8 kHz
// packets of 320 bytes every 20 ms, DTMF as one-digit packets, hangup as the 0x00 packet. Asterisk plays each
// packet as it arrives and has no marks and no clear, so nothing is ever acknowledged from this side.

import { mulawToPcm16, pcm16ToMulaw } from '../../audio/mulaw.js';
import { bytesLEToPcm16, pcm16ToBytesLE } from '../../audio/pcm.js';
import type { PeerCall, PeerDialect, PeerInbound } from '../peer-dialect.js';
import type { WireFrame } from '../../telephony/stream-events.js';
import { AUDIOSOCKET_HEADER_BYTES, AUDIOSOCKET_TYPE, encodePacket } from '../../telephony/audiosocket/audiosocket-packets.js';

export class AudioSocketPeerDialect implements PeerDialect {
  readonly provider = 'audiosocket';
  readonly inboundFrameMs = 20;
  readonly clearEchoesMarks = false;

  opening(call: PeerCall): WireFrame[] {
    const uuid = Buffer.from(call.callSid.replace(/-/g, ''), 'hex');
    if (uuid.length !== 16) throw new Error(`an AudioSocket call id is a UUID, not ${call.callSid}`);
    return [encodePacket(AUDIOSOCKET_TYPE.uuid, uuid)];
  }

  media(_call: PeerCall, _index: number, _atMs: number, mulaw: Uint8Array): WireFrame {
    return encodePacket(AUDIOSOCKET_TYPE.slin8k, pcm16ToBytesLE(mulawToPcm16(mulaw)).slice());
  }

  dtmf(_call: PeerCall, digit: string): WireFrame {
    return encodePacket(AUDIOSOCKET_TYPE.dtmf, Buffer.from(digit, 'ascii'));
  }

  played(): WireFrame {
    throw new Error('AudioSocket has no marks to acknowledge');
  }

  clearAcknowledgement(): undefined {
    return undefined;
  }

  stop(): WireFrame {
    return encodePacket(AUDIOSOCKET_TYPE.hangup);
  }

  read(data: Uint8Array): PeerInbound {
    const payload = data.subarray(AUDIOSOCKET_HEADER_BYTES);
    switch (data[0]) {
      case AUDIOSOCKET_TYPE.slin8k:
        if (payload.length % 2 !== 0) return { event: 'other', reason: `audio packet of ${payload.length} bytes (odd)` };
        return { event: 'media', mulaw: pcm16ToMulaw(bytesLEToPcm16(payload)) };
      case AUDIOSOCKET_TYPE.hangup:
        return { event: 'hangup' };
      default:
        return { event: 'other', reason: `packet type 0x${(data[0] ?? 0).toString(16)}` };
    }
  }
}
