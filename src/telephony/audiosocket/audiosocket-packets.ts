// Asterisk AudioSocket's framing on a TCP stream: each packet is a 1-byte type, a 2-byte big-endian payload length
// and the payload. Types from asterisk/documentation docs/Configuration/Channel-Drivers/AudioSocket.md and
// include/asterisk/res_audiosocket.h.

export const AUDIOSOCKET_TYPE = {
  hangup: 0x00,
  /** 16-byte call UUID, the first packet of every connection. */
  uuid: 0x01,
  /** One ASCII digit. */
  dtmf: 0x03,
  /** Signed linear 16-bit little-endian mono at 8 kHz. */
  slin8k: 0x10,
  /** The same at 16 kHz (newer Asterisk, when the channel's format is slin16). */
  slin16k: 0x11,
  /** An error code byte from Asterisk. */
  error: 0xff,
} as const;

export const AUDIOSOCKET_HEADER_BYTES = 3;
/** The length field is 16 bits. */
export const AUDIOSOCKET_MAX_PAYLOAD_BYTES = 0xffff;

export function encodePacket(type: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  if (payload.length > AUDIOSOCKET_MAX_PAYLOAD_BYTES) throw new RangeError('AudioSocket payload over 65,535 bytes');
  const packet = new Uint8Array(AUDIOSOCKET_HEADER_BYTES + payload.length);
  packet[0] = type;
  packet[1] = payload.length >> 8;
  packet[2] = payload.length & 0xff;
  packet.set(payload, AUDIOSOCKET_HEADER_BYTES);
  return packet;
}

/** Cuts a TCP byte stream into whole packets (header included), keeping a partial one for the next chunk. */
export class PacketSplitter {
  #pending: Uint8Array = new Uint8Array(0);

  /** Bytes of a packet still incomplete. */
  get pendingBytes(): number {
    return this.#pending.length;
  }

  push(chunk: Uint8Array): Uint8Array[] {
    let bytes = chunk;
    if (this.#pending.length > 0) {
      bytes = new Uint8Array(this.#pending.length + chunk.length);
      bytes.set(this.#pending);
      bytes.set(chunk, this.#pending.length);
    }
    const packets: Uint8Array[] = [];
    let offset = 0;
    while (bytes.length - offset >= AUDIOSOCKET_HEADER_BYTES) {
      const length = (bytes[offset + 1]! << 8) | bytes[offset + 2]!;
      const end = offset + AUDIOSOCKET_HEADER_BYTES + length;
      if (end > bytes.length) break;
      packets.push(bytes.subarray(offset, end));
      offset = end;
    }
    this.#pending = bytes.slice(offset);
    return packets;
  }
}
