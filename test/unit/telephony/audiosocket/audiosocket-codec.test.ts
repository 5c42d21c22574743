// AudioSocket's packets (asterisk/documentation AudioSocket.md): 3-byte header, UUID first, slin 8 kHz audio,
// DTMF, hangup, error; a TCP stream cut anywhere still yields whole packets.

import { describe, expect, it } from 'vitest';
import { mulawToPcm16, pcm16ToMulaw } from '../../../../src/audio/mulaw.js';
import { bytesLEToPcm16 } from '../../../../src/audio/pcm.js';
import { AudioSocketCodec, formatUuid } from '../../../../src/telephony/audiosocket/audiosocket-codec.js';
import { AUDIOSOCKET_TYPE, encodePacket, PacketSplitter } from '../../../../src/telephony/audiosocket/audiosocket-packets.js';

const UUID = Uint8Array.from(Buffer.from('40325ec25efd4bd39d6f1e0b6c1bc5ef', 'hex'));

describe('AudioSocket packets', () => {
  it('header: type, then the payload length big-endian', () => {
    expect([...encodePacket(AUDIOSOCKET_TYPE.dtmf, Uint8Array.of(0x35))]).toEqual([0x03, 0x00, 0x01, 0x35]);
    expect([...encodePacket(AUDIOSOCKET_TYPE.slin8k, new Uint8Array(320)).subarray(0, 3)]).toEqual([0x10, 0x01, 0x40]);
    expect([...encodePacket(AUDIOSOCKET_TYPE.hangup)]).toEqual([0x00, 0x00, 0x00]);
    expect(() => encodePacket(AUDIOSOCKET_TYPE.slin8k, new Uint8Array(70_000))).toThrow(RangeError);
  });

  it('the splitter returns whole packets however the stream is cut, and keeps the partial rest', () => {
    const stream = Buffer.concat([encodePacket(AUDIOSOCKET_TYPE.uuid, UUID), encodePacket(AUDIOSOCKET_TYPE.slin8k, new Uint8Array(320).fill(7)), encodePacket(AUDIOSOCKET_TYPE.dtmf, Uint8Array.of(0x23))]);
    for (const cut of [1, 2, 3, 5, 19, 20, 100, 342, stream.length]) {
      const splitter = new PacketSplitter();
      const packets = [...splitter.push(stream.subarray(0, cut)), ...splitter.push(stream.subarray(cut))];
      expect(packets.map((packet) => [packet[0], packet.length])).toEqual([
        [0x01, 19],
        [0x10, 323],
        [0x03, 4],
      ]);
      expect(splitter.pendingBytes).toBe(0);
    }
    const splitter = new PacketSplitter();
    expect(splitter.push(Uint8Array.of(0x10, 0x01))).toEqual([]);
    expect(splitter.pendingBytes).toBe(2);
  });
});

describe('AudioSocketCodec', () => {
  it('the UUID packet starts the stream: the UUID is the call id, audio is slin 8 kHz', () => {
    const decoded = new AudioSocketCodec().decode(encodePacket(AUDIOSOCKET_TYPE.uuid, UUID), true);
    expect(decoded).toEqual({
      ok: true,
      event: { type: 'start', start: { callId: '40325ec2-5efd-4bd3-9d6f-1e0b6c1bc5ef', streamId: '40325ec2-5efd-4bd3-9d6f-1e0b6c1bc5ef', providerAccountId: '', from: undefined, to: undefined, parameters: {}, encoding: 'pcm16', sampleRateHz: 8000 } },
    });
    expect(formatUuid(UUID)).toBe('40325ec2-5efd-4bd3-9d6f-1e0b6c1bc5ef');
  });

  it('audio, DTMF and hangup as events; bad packets as named problems', () => {
    const codec = new AudioSocketCodec();
    const audio = codec.decode(encodePacket(AUDIOSOCKET_TYPE.slin8k, Uint8Array.of(1, 2, 3, 4)), true);
    expect(audio.ok && audio.event.type === 'audio' && [...audio.event.audio]).toEqual([1, 2, 3, 4]);
    expect(codec.decode(encodePacket(AUDIOSOCKET_TYPE.dtmf, Buffer.from('a')), true)).toEqual({ ok: true, event: { type: 'dtmf', digit: 'A' } });
    expect(codec.decode(encodePacket(AUDIOSOCKET_TYPE.hangup), true)).toEqual({ ok: true, event: { type: 'stop', reason: 'hangup' } });
    expect(codec.decode(encodePacket(AUDIOSOCKET_TYPE.uuid, UUID.subarray(0, 8)), true)).toMatchObject({ ok: false, problem: 'invalid-shape' });
    expect(codec.decode(encodePacket(AUDIOSOCKET_TYPE.dtmf, Buffer.from('55')), true)).toMatchObject({ ok: false, problem: 'invalid-shape' });
    expect(codec.decode(encodePacket(AUDIOSOCKET_TYPE.slin8k), true)).toMatchObject({ ok: false, problem: 'empty' });
    expect(codec.decode(encodePacket(AUDIOSOCKET_TYPE.slin16k, new Uint8Array(640)), true)).toMatchObject({ ok: false, problem: 'unsupported-audio' });
    expect(codec.decode(encodePacket(AUDIOSOCKET_TYPE.error, Uint8Array.of(2)), true)).toEqual({ ok: false, problem: 'asterisk-error', detail: 'error packet, code 2' });
    expect(codec.decode(encodePacket(0x42, Uint8Array.of(1)), true)).toMatchObject({ ok: false, problem: 'unknown-event', detail: 'packet type 0x42' });
    expect(codec.decode(Uint8Array.of(0x10), true)).toMatchObject({ ok: false, problem: 'invalid-packet' });
  });

  it('bot audio leaves as one 320-byte slin packet per 20 ms frame; marks and clear have no wire form; hangup is 0x00', () => {
    const codec = new AudioSocketCodec();
    const mulaw = new Uint8Array(480);
    for (let i = 0; i < mulaw.length; i++) mulaw[i] = i % 256;
    const packets = codec.media(mulaw) as Uint8Array[];
    expect(packets.map((packet) => [...packet.subarray(0, 3)])).toEqual([
      [0x10, 0x01, 0x40],
      [0x10, 0x01, 0x40],
      [0x10, 0x01, 0x40],
    ]);
    // Decoding the slin back to mu-law gives the same bytes (G.711 round trip is exact from the mu-law side),
    // apart from mu-law's two zeros (0x7F and 0xFF both decode to 0).
    const back = pcm16ToMulaw(bytesLEToPcm16(Buffer.concat(packets.map((packet) => packet.subarray(3)))));
    expect([...mulawToPcm16(back)]).toEqual([...mulawToPcm16(mulaw)]);
    expect(codec.mark()).toEqual([]);
    expect(codec.clear()).toEqual([]);
    expect(codec.hangup()).toEqual([encodePacket(AUDIOSOCKET_TYPE.hangup)]);
  });
});
